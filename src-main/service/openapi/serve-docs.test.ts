import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DOCS_PATH, OPENAPI_PATH } from '../../../src-shared/contract/api-docs';
import { ProblemError } from '../errors';
import { serverPerTest } from '../http/raw-clients.test-support';
import { createDocsHandler } from './serve-docs';

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

describe('the docs handler', () => {
  it('serves each piece with its own type and caching: the document and page never cached, the UI files for an hour', async () => {
    const file = await documentFile('{"openapi":"3.1.0"}');
    const url = await serveDocs(() => file);
    const expected: Array<[string, string, string]> = [
      [OPENAPI_PATH, 'application/json; charset=utf-8', 'no-cache'],
      [DOCS_PATH, 'text/html; charset=utf-8', 'no-cache'],
      [`${DOCS_PATH}/init.js`, 'text/javascript; charset=utf-8', 'no-cache'],
      [`${DOCS_PATH}/swagger-ui.css`, 'text/css; charset=utf-8', 'public, max-age=3600'],
      [`${DOCS_PATH}/swagger-ui-bundle.js`, 'text/javascript; charset=utf-8', 'public, max-age=3600'],
    ];
    for (const [path, type, cache] of expected) {
      const res = await fetch(url + path);
      expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')], path).toEqual([
        200,
        type,
        cache,
      ]);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      const bytes = (await res.arrayBuffer()).byteLength;
      expect(Number(res.headers.get('content-length')), path).toBe(bytes);
    }
    expect(await (await fetch(url + OPENAPI_PATH)).text()).toBe('{"openapi":"3.1.0"}');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const file = await documentFile('{"openapi":"3.1.0","info":{}}');
    const url = await serveDocs(() => file);
    for (const path of [DOCS_PATH, OPENAPI_PATH]) {
      const get = await fetch(url + path);
      const getBytes = (await get.arrayBuffer()).byteLength;
      const head = await fetch(url + path, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expect(head.headers.get('content-length'), path).toBe(String(getBytes));
      expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'));
      expect((await head.arrayBuffer()).byteLength, path).toBe(0);
    }
  });

  it('declines every method but GET and HEAD, even on its own paths', async () => {
    const file = await documentFile('{}');
    const url = await serveDocs(() => file);
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      for (const path of [DOCS_PATH, OPENAPI_PATH]) {
        const res = await fetch(url + path, { method });
        expect([res.status, await res.text()], `${method} ${path}`).toEqual([404, 'declined']);
      }
    }
  });

  it('takes a path with trailing slashes as the path without them', async () => {
    const file = await documentFile('{"from":"file"}');
    const url = await serveDocs(() => file);
    const page = await (await fetch(url + DOCS_PATH)).text();
    for (const path of [`${DOCS_PATH}/`, `${DOCS_PATH}///`]) {
      const res = await fetch(url + path);
      expect([res.status, await res.text()], path).toEqual([200, page]);
    }
    expect(await (await fetch(`${url}${OPENAPI_PATH}//`)).text()).toBe('{"from":"file"}');
    expect((await fetch(`${url}${DOCS_PATH}/swagger-ui.css/`)).headers.get('content-type')).toBe(
      'text/css; charset=utf-8',
    );
  });

  it('declines files of the UI package it does not list, and paths that only start like its own', async () => {
    const url = await serveDocs(() => undefined);
    for (const path of [`${DOCS_PATH}/package.json`, `${DOCS_PATH}/swagger-ui.js`, `${DOCS_PATH}x/init.js`]) {
      expect((await fetch(url + path)).status, path).toBe(404);
    }
  });

  it('is route_not_found for the document when the build wrote none, while the page still works', async () => {
    const url = await serveDocs(() => undefined);
    const res = await fetch(url + OPENAPI_PATH);
    expect([res.status, await res.text()]).toEqual([500, 'route_not_found']);
    expect((await fetch(url + DOCS_PATH)).status).toBe(200);
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
    expect(lookups).toBe(2);
  });
});
