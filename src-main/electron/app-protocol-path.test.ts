import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_INDEX_URL, appPathOf, appResponse, contentTypeOf, resolveAppFile } from './app-protocol-path';

/**
 * The app:// handler's rules, in Node: Electron cannot start on CI, so these carry the protocol.
 * Layout: <tmp>/renderer is the root, and <tmp>/secret.txt sits next to it, one `..` away.
 */

let base: string;
let root: string;
const SECRET = 'the neighbour must not be read';

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'skiff-app-protocol-'));
  root = join(base, 'renderer');
  await mkdir(join(root, 'assets'), { recursive: true });
  await writeFile(join(root, 'index.html'), '<!doctype html><title>Skiff</title>');
  await writeFile(join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  await writeFile(join(root, 'assets', 'worker-def.js'), 'onmessage = () => {}');
  await writeFile(join(root, 'assets', 'index-abc.css'), 'body{}');
  await writeFile(join(root, 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(join(root, 'icon-32.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  await writeFile(join(root, 'notes.xyz'), 'opaque');
  await writeFile(join(base, 'secret.txt'), SECRET);
  await mkdir(join(base, 'outside'));
  await writeFile(join(base, 'outside', 'x.js'), SECRET);
  await symlink(join(base, 'secret.txt'), join(root, 'escape.txt'));
  await symlink(join(base, 'outside'), join(root, 'escape-dir'));
  await symlink(join(root, 'assets', 'index-abc.js'), join(root, 'alias.js'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

const get = (url: string) => appResponse(new Request(url), root);

describe('what a URL names (appPathOf)', () => {
  it('maps the root to index.html and keeps sub-folders', () => {
    expect(appPathOf('app://skiff/')).toEqual({ ok: true, segments: ['index.html'] });
    expect(appPathOf('app://skiff')).toEqual({ ok: true, segments: ['index.html'] });
    expect(appPathOf(APP_INDEX_URL)).toEqual({ ok: true, segments: ['index.html'] });
    expect(appPathOf('app://skiff/assets/index-abc.js?v=1#x')).toEqual({
      ok: true,
      segments: ['assets', 'index-abc.js'],
    });
    expect(appPathOf('app://skiff/a%20b.js')).toEqual({ ok: true, segments: ['a b.js'] });
  });

  it('refuses other schemes, hosts, ports and credentials', () => {
    for (const url of [
      'app://evil/index.html',
      'app://skiff.evil/index.html',
      'app://SKIFF-x/index.html',
      'app://skiff:8080/index.html',
      'app://user:pw@skiff/index.html',
      'file:///etc/passwd',
      'http://skiff/index.html',
      'https://skiff/index.html',
    ]) {
      expect(appPathOf(url), url).toMatchObject({ ok: false, status: 403 });
    }
    expect(appPathOf('not a url')).toMatchObject({ ok: false, status: 400 });
  });

  it('refuses every encoded way out of the folder', () => {
    for (const url of [
      'app://skiff/%2e%2e%2fsecret.txt',
      'app://skiff/assets/..%2f..%2fsecret.txt',
      'app://skiff/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
      'app://skiff/..%5csecret.txt',
      'app://skiff/..\\secret.txt',
      'app://skiff/assets\\..\\..\\secret.txt',
      'app://skiff/%2fetc%2fpasswd',
      'app://skiff/C:%5cWindows%5cwin.ini',
      'app://skiff/C:/Windows/win.ini',
      'app://skiff/index.html%00.png',
    ]) {
      expect(appPathOf(url), url).toMatchObject({ ok: false, status: 403 });
    }
    expect(appPathOf('app://skiff/%E0%A4%A')).toMatchObject({ ok: false, status: 400 });
  });

  it('lets the URL parser fold plain dot segments, which then stay inside', () => {
    // `..` and `%2e%2e` as whole segments are resolved by the URL standard before we look.
    expect(appPathOf('app://skiff/../secret.txt')).toEqual({ ok: true, segments: ['secret.txt'] });
    expect(appPathOf('app://skiff/%2e%2e/%2e%2e/secret.txt')).toEqual({ ok: true, segments: ['secret.txt'] });
    expect(appPathOf('app://skiff/assets/./../index.html')).toEqual({ ok: true, segments: ['index.html'] });
  });
});

describe('what the handler answers (appResponse)', () => {
  it('serves the page and its assets with their content types', async () => {
    const cases: Array<[string, string, string]> = [
      ['app://skiff/', 'text/html; charset=utf-8', '<!doctype html><title>Skiff</title>'],
      ['app://skiff/index.html#/events', 'text/html; charset=utf-8', '<!doctype html><title>Skiff</title>'],
      ['app://skiff/assets/index-abc.js', 'text/javascript; charset=utf-8', 'console.log(1)'],
      ['app://skiff/assets/worker-def.js', 'text/javascript; charset=utf-8', 'onmessage = () => {}'],
      ['app://skiff/assets/index-abc.css', 'text/css; charset=utf-8', 'body{}'],
      ['app://skiff/icon.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
      ['app://skiff/notes.xyz', 'application/octet-stream', 'opaque'],
    ];
    for (const [url, type, body] of cases) {
      const res = await get(url);
      expect({ url, status: res.status, type: res.headers.get('content-type') }).toEqual({
        url,
        status: 200,
        type,
      });
      expect(await res.text()).toBe(body);
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const png = await get('app://skiff/icon-32.png');
    expect(png.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await png.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('answers 404 for what is not there, folders included', async () => {
    for (const url of [
      'app://skiff/missing.js',
      'app://skiff/assets',
      'app://skiff/assets/',
      'app://skiff/secret.txt',
    ]) {
      const res = await get(url);
      expect({ url, status: res.status }).toEqual({ url, status: 404 });
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    }
  });

  it('never reads the neighbour, whatever the URL says', async () => {
    for (const url of [
      'app://skiff/../secret.txt',
      'app://skiff/%2e%2e/secret.txt',
      'app://skiff/%2e%2e%2fsecret.txt',
      'app://skiff/assets/..%2f..%2fsecret.txt',
      'app://skiff/..%5csecret.txt',
      'app://skiff/..\\secret.txt',
      `app://skiff/${encodeURIComponent(join(base, 'secret.txt'))}`,
      'app://skiff/escape.txt',
      'app://skiff/escape-dir/x.js',
      'app://other/secret.txt',
    ]) {
      const res = await get(url);
      const text = await res.text();
      expect({ url, ok: res.ok, leaked: text.includes(SECRET) }).toEqual({ url, ok: false, leaked: false });
    }
  });

  it('refuses links that leave the folder with 403, and follows the ones that stay', async () => {
    expect((await get('app://skiff/escape.txt')).status).toBe(403);
    expect((await get('app://skiff/escape-dir/x.js')).status).toBe(403);
    const alias = await get('app://skiff/alias.js');
    expect(alias.status).toBe(200);
    expect(await alias.text()).toBe('console.log(1)');
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await appResponse(new Request('app://skiff/index.html', { method: 'HEAD' }), root);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await head.text()).toBe('');
    const post = await appResponse(
      new Request('app://skiff/index.html', { method: 'POST', body: 'x' }),
      root,
    );
    expect(post.status).toBe(405);
  });

  it('answers 404 when the renderer was never built', async () => {
    expect(await resolveAppFile('app://skiff/', join(base, 'no-such-dir'))).toMatchObject({ status: 404 });
  });
});

describe('content types', () => {
  it('knows the types a Vite build emits, in any case', () => {
    expect(contentTypeOf('a.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('a.mjs')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('a.woff2')).toBe('font/woff2');
    expect(contentTypeOf('a.json')).toBe('application/json');
    expect(contentTypeOf('a.ico')).toBe('image/x-icon');
    expect(contentTypeOf('Makefile')).toBe('application/octet-stream');
  });
});
