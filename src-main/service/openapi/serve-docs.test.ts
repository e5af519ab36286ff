import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { DOCS_PATH, OPENAPI_PATH } from '../../../src-shared/contract/api-docs';
import { ProblemError } from '../errors';
import { serverPerTest } from '../http/raw-clients.test-support';
import { chooseEncoding, createDocsHandler } from './serve-docs';

const servers = serverPerTest();
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docs-'));
  dirs.push(dir);
  return dir;
}

/**
 * The docs handler behind a bare server: 404 when it declines a request, 500 with the problem code
 * when it throws, so a test sees each of its three answers.
 */
async function serveDocs(locate: () => string | undefined): Promise<string> {
  const handle = createDocsHandler(locate);
  const server: Server = servers.track(
    createServer((req, res) => {
      handle(req, res, new URL(req.url ?? '/', 'http://x').pathname).then(
        (handled) => {
          if (!handled) res.writeHead(404).end('declined');
        },
        (err: unknown) => res.writeHead(500).end(err instanceof ProblemError ? err.code : 'error'),
      );
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function documentFile(text: string): Promise<string> {
  const file = join(await tempDir(), 'openapi.json');
  await writeFile(file, text);
  return file;
}

const DOC =
  '{"openapi":"3.1.0","info":{"title":"Skiff API","version":"1"},"paths":{"/v1/health":{"get":{"operationId":"health","summary":"Alive?","responses":{"200":{"description":"ok"}}}}}}';

/** A request without fetch's automatic decompression, so the coding sent is what the test sees. */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the docs handler', () => {
  it('serves the document and the page rendered from it, each with its type, never cached without revalidation', async () => {
    const file = await documentFile(DOC);
    const url = await serveDocs(() => file);
    const expected: Array<[string, string]> = [
      [OPENAPI_PATH, 'application/json; charset=utf-8'],
      [DOCS_PATH, 'text/html; charset=utf-8'],
    ];
    for (const [path, type] of expected) {
      const res = await raw(url + path);
      expect([res.status, res.headers['content-type'], res.headers['cache-control']], path).toEqual([
        200,
        type,
        'no-cache',
      ]);
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['x-frame-options'], path).toBe('DENY');
      expect(res.headers['content-security-policy'], path).toContain("script-src 'self'");
      expect(res.headers.vary, path).toBe('Accept-Encoding');
      expect(res.headers['content-encoding'], path).toBeUndefined();
      expect(Number(res.headers['content-length']), path).toBe(res.body.length);
    }
    expect((await raw(url + OPENAPI_PATH)).body.toString()).toBe(DOC);
    const page = (await raw(url + DOCS_PATH)).body.toString();
    expect(page).toContain('<title>Skiff API reference</title>');
    expect(page).toContain('data-path="/v1/health"');
    expect(page).not.toMatch(/<script/i);
  });

  it('sends brotli or gzip to a client that accepts them, the same bytes once decoded', async () => {
    const file = await documentFile(DOC);
    const url = await serveDocs(() => file);
    for (const path of [DOCS_PATH, OPENAPI_PATH]) {
      const plain = (await raw(url + path)).body;
      const br = await raw(url + path, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(Number(br.headers['content-length'])).toBe(br.body.length);
      expect(brotliDecompressSync(br.body).equals(plain), path).toBe(true);
      const gz = await raw(url + path, { 'accept-encoding': 'gzip;q=0.8, br;q=0' });
      expect(gz.headers['content-encoding'], path).toBe('gzip');
      expect(gunzipSync(gz.body).equals(plain), path).toBe(true);
    }
  });

  it('answers a revalidation that still holds with 304 and no body', async () => {
    const file = await documentFile(DOC);
    const url = await serveDocs(() => file);
    for (const path of [DOCS_PATH, OPENAPI_PATH]) {
      const first = await raw(url + path);
      const etag = first.headers.etag as string;
      expect(etag, path).toMatch(/^"[\w-]{43}"$/);
      const again = await raw(url + path, { 'if-none-match': `"other", W/${etag}` });
      expect([again.status, again.body.length, again.headers.etag], path).toEqual([304, 0, etag]);
      expect(again.headers['cache-control'], path).toBe('no-cache');
      expect((await raw(url + path, { 'if-none-match': '"other"' })).status, path).toBe(200);
    }
    const docTag = (await raw(url + OPENAPI_PATH)).headers.etag;
    expect((await raw(url + DOCS_PATH)).headers.etag).not.toBe(docTag);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const file = await documentFile(DOC);
    const url = await serveDocs(() => file);
    for (const path of [DOCS_PATH, OPENAPI_PATH]) {
      for (const coding of ['identity', 'br']) {
        const get = await raw(url + path, { 'accept-encoding': coding });
        const head = await raw(url + path, { 'accept-encoding': coding }, 'HEAD');
        expect(head.status, path).toBe(200);
        expect(head.headers['content-length'], path).toBe(String(get.body.length));
        expect(head.headers['content-type'], path).toBe(get.headers['content-type']);
        expect(head.headers['content-encoding'], path).toBe(get.headers['content-encoding']);
        expect(head.body.length, path).toBe(0);
      }
    }
  });

  it('declines every method but GET and HEAD, even on its own paths', async () => {
    const file = await documentFile(DOC);
    const url = await serveDocs(() => file);
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      for (const path of [DOCS_PATH, OPENAPI_PATH]) {
        const res = await fetch(url + path, { method });
        expect([res.status, await res.text()], `${method} ${path}`).toEqual([404, 'declined']);
      }
    }
  });

  it('takes a path with trailing slashes as the path without them', async () => {
    const file = await documentFile(DOC);
    const url = await serveDocs(() => file);
    const page = await (await fetch(url + DOCS_PATH)).text();
    for (const path of [`${DOCS_PATH}/`, `${DOCS_PATH}///`]) {
      const res = await fetch(url + path);
      expect([res.status, await res.text()], path).toEqual([200, page]);
    }
    expect(await (await fetch(`${url}${OPENAPI_PATH}//`)).text()).toBe(DOC);
  });

  it('declines everything else, the files of the former Swagger UI page included', async () => {
    const file = await documentFile(DOC);
    const url = await serveDocs(() => file);
    for (const path of [
      `${DOCS_PATH}/swagger-ui-bundle.js`,
      `${DOCS_PATH}/init.js`,
      `${DOCS_PATH}x`,
      '/v1/openapi.jsonx',
    ]) {
      expect((await fetch(url + path)).status, path).toBe(404);
    }
  });

  it('is route_not_found for the document and the page when the build wrote none', async () => {
    const url = await serveDocs(() => undefined);
    for (const path of [OPENAPI_PATH, DOCS_PATH]) {
      const res = await fetch(url + path);
      expect([res.status, await res.text()], path).toEqual([500, 'route_not_found']);
    }
  });

  it('reads the document once, but tries again after a failed read', async () => {
    const dir = await tempDir();
    const file = join(dir, 'openapi.json');
    let lookups = 0;
    const url = await serveDocs(() => {
      lookups++;
      return file;
    });
    expect((await fetch(url + OPENAPI_PATH)).status).toBe(500); // not there yet
    await writeFile(file, '{"v":1}');
    expect(await (await fetch(url + OPENAPI_PATH)).text()).toBe('{"v":1}');
    await writeFile(file, '{"v":2}');
    expect(await (await fetch(url + OPENAPI_PATH)).text()).toBe('{"v":1}'); // read once, kept
    expect(await (await fetch(url + DOCS_PATH)).text()).toContain('<title>');
    expect(lookups).toBe(2);
  });
});

describe('the coding chosen', () => {
  it('is br when accepted, else gzip (or any), else none; q=0 refuses', () => {
    expect(chooseEncoding(undefined)).toBe('identity');
    expect(chooseEncoding('')).toBe('identity');
    expect(chooseEncoding('deflate')).toBe('identity');
    expect(chooseEncoding('gzip, br')).toBe('br');
    expect(chooseEncoding(' BR ;q=1')).toBe('br');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0.0, gzip;q=0')).toBe('identity');
    expect(chooseEncoding('*')).toBe('gzip');
    expect(chooseEncoding('identity;q=1, gzip;q=0.5')).toBe('gzip');
  });
});
