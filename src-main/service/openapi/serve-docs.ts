import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOCS_PATH, OPENAPI_PATH } from '../../../src-shared/contract/api-docs';
import { ProblemError } from '../errors';
import { CONTENT_SECURITY_POLICY } from '../http/static';

/**
 * Serves the API document and its reference page, public (no credential: the document describes
 * the API, it holds no data; the page's "Try it out" sends whatever credential the reader gives).
 * The page is Swagger UI from the `swagger-ui-dist` package, loaded from node_modules: no CDN, so
 * it works offline, under the service's own CSP (script-src 'self').
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

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Skiff API reference</title>
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
</head>
<body>
<div id="api-reference"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io.
const INIT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#api-reference',
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
  persistAuthorization: false,
});
`;

const ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
};

const HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

export type DocsHandler = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;

export function createDocsHandler(locate: () => string | undefined = findDocumentFile): DocsHandler {
  const uiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  let document: Promise<Buffer> | undefined;
  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    type: string,
    body: Buffer | string,
    cache: string,
  ) => {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    res.writeHead(200, {
      ...HEADERS,
      'Content-Type': type,
      'Content-Length': bytes.length,
      'Cache-Control': cache,
    });
    res.end(req.method === 'HEAD' ? undefined : bytes);
    return true;
  };
  return async (req, res, path) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const at = path.replace(/\/+$/, '');
    if (at === OPENAPI_PATH) {
      const documentFile = document ? undefined : locate();
      if (!document && !documentFile)
        throw new ProblemError('route_not_found', 'the API document is not built; run npm run build:service');
      document ??= readFile(documentFile!);
      const bytes = await document.catch((err: unknown) => {
        document = undefined;
        throw err;
      });
      return send(req, res, 'application/json; charset=utf-8', bytes, 'no-cache');
    }
    if (at === DOCS_PATH) return send(req, res, 'text/html; charset=utf-8', PAGE, 'no-cache');
    if (at === `${DOCS_PATH}/init.js`)
      return send(req, res, 'text/javascript; charset=utf-8', INIT, 'no-cache');
    const asset = at.startsWith(`${DOCS_PATH}/`) ? ASSETS[at.slice(DOCS_PATH.length + 1)] : undefined;
    if (!asset) return false;
    return send(req, res, asset.type, await readFile(join(uiDir, asset.file)), 'public, max-age=3600');
  };
}
