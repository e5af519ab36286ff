import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_PATH, OPENAPI_PATH } from '../../../src-shared/contract/api-docs';
import { operationNames, operations } from '../../../src-shared/contract/operations';
import { type Stack, startStack } from '../test-support/harness.test-support';
import { buildOpenApiDocument } from './document';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');

/** The document read as plain JSON: a test walks into it freely. */
// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document, inspected by assertions only
type Json = any;

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { securitySchemes: Record<string, unknown> };
};

let stack: Stack;
let doc: Doc;

beforeAll(async () => {
  stack = await startStack();
  const res = await fetch(stack.url + OPENAPI_PATH); // no credential: the document is public
  expect(res.status).toBe(200);
  doc = (await res.json()) as Doc;
});
afterAll(() => stack?.close());

const opOf = (name: (typeof operationNames)[number]) => {
  const spec = operations[name];
  return doc.paths[spec.path.replace(/:([A-Za-z]+)/g, '{$1}')]?.[spec.method.toLowerCase()] as
    | Json
    | undefined;
};

describe('GET /v1/openapi.json', () => {
  it('serves the document the build generated, equal to a fresh generation from the contract', () => {
    expect(doc).toEqual(buildOpenApiDocument());
  });

  it('is a valid OpenAPI 3.1 document (swagger-parser, 0 errors)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('describes every operation of the contract with its credential', () => {
    for (const name of operationNames) {
      const op = opOf(name);
      expect(op, name).toBeDefined();
      const schemes = (op!.security as Array<Record<string, unknown>>).map((s) => Object.keys(s).join());
      const auth = operations[name].auth;
      if (auth === 'session') expect(schemes, name).toEqual(['bearerAuth']);
      if (auth === 'credential') expect(schemes, name).toEqual(['bearerAuth', 'apiKeyAuth']);
      if (auth === 'public') expect(schemes, name).toEqual([]);
    }
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      apiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    });
  });

  it('gives parameters their patterns, ranges and defaults, and lists their paging headers', () => {
    const list = opOf('listResources')!;
    const param = (n: string) => (list.parameters as Array<Json>).find((p) => p.name === n);
    expect(param('limit')).toMatchObject({
      in: 'query',
      schema: { type: 'integer', minimum: 1, maximum: 1000, default: 20 },
    });
    expect(param('offset')).toMatchObject({ schema: { type: 'integer', minimum: 0, default: 0 } });
    expect(param('workspaceId')).toMatchObject({
      in: 'path',
      required: true,
      schema: { pattern: expect.any(String) },
    });
    expect(param('If-None-Match')).toMatchObject({ in: 'header' });
    expect(Object.keys(list.responses['200'].headers)).toEqual(
      expect.arrayContaining(['x-Total', 'x-Limit', 'x-Offset', 'Link', 'ETag']),
    );
    expect(list.responses['304']).toBeDefined();
    expect(
      list.responses['400'].content['application/problem+json'].schema.allOf[1].properties.code.enum,
    ).toEqual(
      expect.arrayContaining(['invalid_pagination', 'invalid_label_selector', 'invalid_resource_type']),
    );
  });

  it('describes streaming answers by their media types, the event list and its watch on one path', () => {
    expect(Object.keys(opOf('getLogs')!.responses['200'].content)).toEqual([
      'text/plain',
      'application/x-ndjson',
    ]);
    const events = opOf('listEvents')!;
    expect(Object.keys(events.responses['200'].content).sort()).toEqual(
      ['application/json', 'application/x-ndjson', 'text/event-stream'].sort(),
    );
    expect((events.parameters as Array<{ name: string }>).map((p) => p.name)).toEqual(
      expect.arrayContaining(['watch', 'lastEventId', 'Last-Event-ID', 'since', 'type']),
    );
  });

  it('describes a stream of records by the schema of one record: an NDJSON line, an SSE data', () => {
    const schemas = (doc.components as Json).schemas;
    const logs = opOf('getLogs')!.responses['200'].content['application/x-ndjson'].schema;
    expect(logs).toMatchObject({ $ref: '#/components/schemas/LogRecord' });
    expect(logs.description).toMatch(/one JSON document per line/);
    const events = opOf('listEvents')!.responses['200'].content;
    expect(events['application/x-ndjson'].schema).toMatchObject({
      $ref: '#/components/schemas/EventWatchRecord',
      description: expect.stringMatching(/one JSON document per line/),
    });
    const sse = events['text/event-stream'].schema;
    expect(sse).toMatchObject({
      type: 'string',
      'x-skiff-record': { $ref: '#/components/schemas/EventWatchRecord' },
    });
    for (const name of ['message', 'synced', 'reset', 'bookmark', 'status', 'error'])
      expect(sse.description).toContain(`\`${name}\``);
    // Each kind of record is its own strict schema, referred to from the union.
    const members = (union: string) =>
      (schemas[union].oneOf as Array<{ $ref: string }>).map((m) => m.$ref.split('/').at(-1)!);
    expect(members('LogRecord').sort()).toEqual(
      ['LogErrorRecord', 'LogLineRecord', 'LogMarkerRecord', 'LogSeparatorRecord'].sort(),
    );
    expect(members('EventWatchRecord').sort()).toEqual(
      [
        'EventChange',
        'EventWatchBookmark',
        'EventWatchError',
        'EventWatchHeartbeat',
        'EventWatchReset',
        'EventWatchStatus',
        'EventWatchSynced',
      ].sort(),
    );
    for (const name of [...members('LogRecord'), ...members('EventWatchRecord')])
      expect(schemas[name].additionalProperties, name).toBe(false);
    expect(schemas.EventChange.properties.event).toEqual({ $ref: '#/components/schemas/EventRecord' });
    // No stream of records anywhere in the document is left as a bare string.
    for (const [path, item] of Object.entries(doc.paths))
      for (const op of Object.values(item) as Json[])
        for (const answer of Object.values(op.responses) as Json[])
          for (const [type, media] of Object.entries((answer.content ?? {}) as Record<string, Json>)) {
            if (type === 'application/x-ndjson') expect(media.schema.$ref, path).toBeDefined();
            if (type === 'text/event-stream') expect(media.schema['x-skiff-record'], path).toBeDefined();
          }
  });

  it('generates TypeScript types that the paging example type-checks against', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skiff-openapi-types-'));
    try {
      await writeFile(join(dir, 'skiff-api.d.ts'), astToString(await openapiTS(doc as never)));
      await writeFile(join(dir, 'package.json'), '{"type":"module"}');
      await copyFile(join(ROOT, 'docs/scripts/page-pods.ts'), join(dir, 'page-pods.ts'));
      const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
      const args = ['--noEmit', '--strict', '--target', 'es2023', '--module', 'nodenext'];
      args.push(
        '--types',
        'node',
        '--typeRoots',
        join(ROOT, 'node_modules/@types'),
        join(dir, 'page-pods.ts'),
      );
      const result = await run(process.execPath, [tsc, ...args]).catch((err: { stdout: string }) => err);
      expect(result.stdout).toBe('');
      // A script that misreads the answer does not compile.
      await writeFile(
        join(dir, 'wrong.ts'),
        "import type { paths } from './skiff-api.js';\n" +
          "type P = paths['/v1/workspaces/{workspaceId}/observability/{clusterId}/kubernetes-proxy/{resourceType}']['get']['responses'][200]['content']['application/json'];\n" +
          'export const n = (p: P): number => p[0]!.usage!.cpuu.length;\n',
      );
      const wrong = await run(process.execPath, [tsc, ...args.slice(0, -1), join(dir, 'wrong.ts')]).catch(
        (err: { stdout: string }) => err,
      );
      expect(wrong.stdout).toContain("Property 'cpuu' does not exist");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('GET /v1/docs', () => {
  it('serves the reference page from the service itself, under its CSP, with no credential and nothing to fetch', async () => {
    const page = await fetch(stack.url + DOCS_PATH);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    const html = await page.text();
    // Static HTML: no script, no stylesheet or image to load; links go within the page or to the document.
    expect(html).not.toMatch(/<(script|link|img|iframe)\b/i);
    const links = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(30);
    const ids = new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!));
    for (const link of links) {
      if (link === OPENAPI_PATH) continue;
      expect(link.startsWith('#'), link).toBe(true);
      expect(ids.has(link.slice(1)), `${link} names an element of the page`).toBe(true);
    }
    expect((await fetch(stack.url + OPENAPI_PATH)).status).toBe(200);
    expect((await fetch(`${stack.url}${DOCS_PATH}/nothing.js`)).status).toBe(404);
  });
});
