import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { DOCS_PATH, OPENAPI_PATH } from '../../../src-shared/contract/api-docs';
import { ProblemError } from '../errors';
import { CONTENT_SECURITY_POLICY } from '../http/static';
import { type ApiDocument, renderDocsPage } from './docs-page';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Serves the API document and its reference page, public (no credential: the document describes
 * the API, it holds no data). The page is rendered here from the document into static HTML
 * (docs-page.ts): no script and nothing fetched after it, so it works offline under the service's
 * CSP and shows as soon as it arrives. Both are built once, on first request, then kept with
 * their gzip and brotli forms and a strong ETag: a client gets the smallest form it accepts, and a
 * revalidation (Cache-Control: no-cache) costs a 304.
 */

export const DOCUMENT_FILE = 'openapi.json';

/**
 * The document the service build wrote (out/service/openapi.json). Looked up from this module's
 * folder: built, it is out/service or out/service/chunks (serve), out/main (the desktop app);
 * from source (tests), src-main/service/openapi.
 */
export function findDocumentFile(from = dirname(fileURLToPath(import.meta.url))): string | undefined {
  let dir = from;
  for (let depth = 0; depth < 5; depth++, dir = dirname(dir)) {
    for (const rel of [
      DOCUMENT_FILE,
      join('service', DOCUMENT_FILE),
      join('out', 'service', DOCUMENT_FILE),
    ]) {
      const file = join(dir, rel);
      if (existsSync(file)) return file;
    }
  }
  return undefined;
}

const HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

export type DocsHandler = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;

interface Prepared {
  type: string;
  etag: string;
  forms: { identity: Buffer; gzip: Buffer; br: Buffer };
}

async function prepare(type: string, bytes: Buffer): Promise<Prepared> {
  // Off the event loop (zlib's thread pool), once per process.
  const [gzip, br] = await Promise.all([
    gzipAsync(bytes, { level: 9 }),
    brotliAsync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
  ]);
  const etag = `"${createHash('sha256').update(bytes).digest('base64url')}"`;
  return { type, etag, forms: { identity: bytes, gzip, br } };
}

/** The coding to send for an Accept-Encoding: br, else gzip, else none; a q of 0 refuses one. */
export function chooseEncoding(accept: string | undefined): 'br' | 'gzip' | 'identity' {
  const accepted = new Set<string>();
  for (const part of (accept ?? '').split(',')) {
    const [name, ...params] = part
      .toLowerCase()
      .split(';')
      .map((p) => p.trim());
    const q = params.find((p) => p.startsWith('q='));
    if (name && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return 'identity';
}

function send(req: IncomingMessage, res: ServerResponse, prepared: Prepared): true {
  const common = {
    ...HEADERS,
    'Cache-Control': 'no-cache',
    ETag: prepared.etag,
    Vary: 'Accept-Encoding',
  };
  const held = req.headers['if-none-match']?.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (held?.includes(prepared.etag)) {
    res.writeHead(304, common).end();
    return true;
  }
  const encoding = chooseEncoding(req.headers['accept-encoding']);
  const body = prepared.forms[encoding];
  res.writeHead(200, {
    ...common,
    'Content-Type': prepared.type,
    'Content-Length': body.length,
    ...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

export function createDocsHandler(locate: () => string | undefined = findDocumentFile): DocsHandler {
  let built: Promise<{ document: Prepared; page: Prepared }> | undefined;
  const build = async () => {
    const file = locate();
    if (!file)
      throw new ProblemError('route_not_found', 'the API document is not built; run npm run build:service');
    const bytes = await readFile(file);
    const page = Buffer.from(renderDocsPage(JSON.parse(bytes.toString('utf8')) as ApiDocument, OPENAPI_PATH));
    const [document, html] = await Promise.all([
      prepare('application/json; charset=utf-8', bytes),
      prepare('text/html; charset=utf-8', page),
    ]);
    return { document, page: html };
  };
  return async (req, res, path) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const at = path.replace(/\/+$/, '');
    if (at !== OPENAPI_PATH && at !== DOCS_PATH) return false;
    built ??= build();
    // A failed build (no document yet, unreadable) is tried again on the next request.
    const ready = await built.catch((err: unknown) => {
      built = undefined;
      throw err;
    });
    return send(req, res, at === OPENAPI_PATH ? ready.document : ready.page);
  };
}
