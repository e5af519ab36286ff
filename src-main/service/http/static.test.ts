/**
 * The renderer's files in web mode (static.ts behind request-handler.ts): types, lengths and headers, the
 * index for the app's own routes, and no way out of the folder.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Edge, problemOf, rawRequest, startEdge } from './edge.test-support';
import { CONTENT_SECURITY_POLICY, createStaticHandler } from './static';

const INDEX = '<!doctype html><title>Skiff</title>';
const SECRET = 'outside the root';

let dir: string;
let root: string;
let edge: Edge;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-static-'));
  root = join(dir, 'dist');
  await mkdir(join(root, 'assets'), { recursive: true });
  await writeFile(join(root, 'index.html'), INDEX);
  await writeFile(join(root, 'assets', 'app-1.js'), 'console.log("é");');
  await writeFile(join(root, 'assets', 'app-1.css'), 'body{}');
  await writeFile(join(root, 'assets', 'logo.svg'), '<svg/>');
  await writeFile(join(root, 'assets', 'font.woff2'), Buffer.from([1, 2, 3]));
  await writeFile(join(root, 'assets', 'notes.bin'), Buffer.from([0, 255]));
  await writeFile(join(dir, 'secret.txt'), SECRET);
  // A sibling whose name starts with the root's: inside by prefix, outside by folder.
  await mkdir(join(dir, 'dist-private'));
  await writeFile(join(dir, 'dist-private', 'key.txt'), SECRET);
  edge = await startEdge({ serveStatic: createStaticHandler(root) });
});
afterEach(async () => {
  await edge.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (path: string, method = 'GET') => fetch(edge.url + path, { method });
/** A request line sent as written: fetch would resolve dot segments itself. */
const raw = (path: string) =>
  rawRequest(edge.url, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);

describe('static files', () => {
  it('serves each file with the content type of its extension and its exact length', async () => {
    const expected: Array<[string, string, string]> = [
      ['/assets/app-1.js', 'text/javascript; charset=utf-8', 'console.log("é");'],
      ['/assets/app-1.css', 'text/css; charset=utf-8', 'body{}'],
      ['/assets/logo.svg', 'image/svg+xml', '<svg/>'],
      ['/index.html', 'text/html; charset=utf-8', INDEX],
    ];
    for (const [path, type, text] of expected) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe(type);
      expect(Number(res.headers.get('content-length')), path).toBe(Buffer.byteLength(text));
      expect(await res.text(), path).toBe(text);
    }
    const font = await get('/assets/font.woff2');
    expect(font.headers.get('content-type')).toBe('font/woff2');
    expect([...new Uint8Array(await font.arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it('sends a file of an unknown extension as application/octet-stream', async () => {
    const res = await get('/assets/notes.bin');
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([0, 255]);
  });

  it('sends the security headers with every file', async () => {
    for (const path of ['/assets/app-1.js', '/', '/workspaces/default']) {
      const res = await get(path);
      await res.arrayBuffer();
      expect(res.headers.get('content-security-policy'), path).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    }
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });

  it('lets browsers cache assets for an hour but revalidate the index every time', async () => {
    const asset = await get('/assets/app-1.js');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=3600');
    for (const path of ['/', '/index.html', '/clusters/sim/pods']) {
      const res = await get(path);
      expect(await res.text(), path).toBe(INDEX);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
    }
  });

  it("answers the app's own routes and folders with the index, so a reload keeps the page", async () => {
    for (const path of ['/', '/workspaces/default/observability/sim/pods', '/assets', '/assets/']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(await res.text(), path).toBe(INDEX);
    }
  });

  it('answers a missing built file with 404, never with the index in its place', async () => {
    for (const path of ['/assets/index-0ld4a5h.js', '/assets/x/y.css', '/icons/gone.png']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      await res.body?.cancel();
    }
    const present = await get('/assets/app-1.js');
    expect(present.status).toBe(200);
    await present.body?.cancel();
  });

  it('answers 404 when there is no index to fall back on', async () => {
    await rm(join(root, 'index.html'));
    expect(await problemOf(await get('/workspaces/default'))).toMatchObject({
      status: 404,
      code: 'route_not_found',
    });
    expect((await get('/assets/app-1.js')).status).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const answer = await rawRequest(
      edge.url,
      'HEAD /assets/app-1.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(answer.headers['content-length']).toBe('6');
    // Nothing follows the head: the connection closes with no body bytes.
    await answer.closed;
    expect(answer.after()).toBe('');
  });

  it('serves nothing for other methods: a POST to a file is 404', async () => {
    const res = await get('/assets/app-1.js', 'POST');
    expect(await problemOf(res)).toMatchObject({ status: 404, code: 'route_not_found' });
  });

  it('never serves a file outside the folder: an escaping path is 404, not the index', async () => {
    // Encoded slashes survive URL parsing, so the dot segments reach the file name.
    for (const path of [
      '/..%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/%2e%2e%2fsecret.txt',
      '/..%2fdist-private/key.txt',
    ]) {
      const answer = await raw(path);
      expect(answer.status, path).toBe(404);
      expect(JSON.parse(answer.body), path).toMatchObject({ code: 'route_not_found' });
    }
    // Dot segments and backslashes the URL resolves stay inside, where there is no such file.
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..\\secret.txt', '/..%5csecret.txt']) {
      const answer = await raw(path);
      expect(answer.body, path).toBe(INDEX);
    }
  });

  it('serves the same files when the folder is named with a trailing slash', async () => {
    const slashed = await startEdge({ serveStatic: createStaticHandler(`${root}/`) });
    try {
      expect(await (await fetch(`${slashed.url}/assets/app-1.css`)).text()).toBe('body{}');
      expect(await (await fetch(`${slashed.url}/workspaces/default`)).text()).toBe(INDEX);
      const outside = await rawRequest(
        slashed.url,
        'GET /..%2fdist-private/key.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      );
      expect(outside.status).toBe(404);
    } finally {
      await slashed.close();
    }
  });

  it('answers a malformed escape with 404', async () => {
    const answer = await raw('/assets/%E0%A4%A');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'route_not_found' });
  });

  it('never answers an API path with a file: /v1 and /v1/... stay the API', async () => {
    for (const path of ['/v1', '/v1/nothing-here']) {
      expect(await problemOf(await get(path)), path).toMatchObject({ status: 404, code: 'route_not_found' });
    }
    // A path that only starts with the same letters is the app's.
    expect(await (await get('/v1x')).text()).toBe(INDEX);
  });
});

describe('without a static folder', () => {
  it('answers every non-API path with 404 route_not_found', async () => {
    const bare = await startEdge();
    try {
      expect(await problemOf(await fetch(`${bare.url}/index.html`))).toMatchObject({
        status: 404,
        code: 'route_not_found',
      });
    } finally {
      await bare.close();
    }
  });
});
