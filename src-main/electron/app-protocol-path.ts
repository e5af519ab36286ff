import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../service/http/static';

/**
 * The renderer's own scheme, `app://skiff/`, as Electron's security checklist asks (item 18)
 * instead of file://, which would give the page the whole disk as its origin. This module holds
 * the part that decides what a URL may read, and imports no electron, so it is tested in Node.
 */

export const APP_SCHEME = 'app';
export const APP_HOST = 'skiff';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export type AppPath =
  | { ok: true; segments: string[] }
  | { ok: false; status: 400 | 403 | 404; reason: string };

/**
 * The file a request names, as path segments under the renderer root, decided from the URL alone.
 * Refused: another scheme or host, credentials or a port, a segment that decodes to `.`, `..`, or
 * to anything holding a slash, a backslash, a colon or NUL (so `%2e%2e`, `%2f`, `%5c`, `C:` and
 * absolute paths never reach the file system). `/` is the index page.
 */
export function appPathOf(requestUrl: string): AppPath {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { ok: false, status: 400, reason: 'not a URL' };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.hostname !== APP_HOST || url.port !== '') {
    return { ok: false, status: 403, reason: `only ${APP_ORIGIN}/ is served` };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, status: 403, reason: 'credentials in the URL' };
  }
  // Chromium cleans a standard scheme's path before the handler sees it; Node's URL does not for
  // a scheme it does not know, so `..` and backslashes can still be here and are checked anyway.
  const raw = url.pathname.split('/').filter((s) => s !== '');
  const segments: string[] = [];
  for (const part of raw) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      return { ok: false, status: 400, reason: 'a malformed percent escape' };
    }
    if (decoded === '.' || decoded === '..' || /[/\\:\0]/.test(decoded)) {
      return { ok: false, status: 403, reason: `the path segment "${part}" leaves the app's folder` };
    }
    segments.push(decoded);
  }
  return { ok: true, segments: segments.length === 0 ? ['index.html'] : segments };
}

function inside(root: string, file: string): boolean {
  const rel = relative(root, file);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

export type AppFile =
  | { status: 200; file: string; contentType: string }
  | { status: 400 | 403 | 404 | 405; reason: string };

/**
 * Where a request for `requestUrl` is answered from under `root`, after the file system has had
 * its say: the real path (symlinks followed) must still lie inside the real root, and be a file.
 */
export async function resolveAppFile(requestUrl: string, root: string, method = 'GET'): Promise<AppFile> {
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, reason: `${method} is not served` };
  const path = appPathOf(requestUrl);
  if (!path.ok) return { status: path.status, reason: path.reason };
  const realRoot = await realpath(root).catch(() => null);
  if (realRoot === null) return { status: 404, reason: 'the renderer is not built' };
  const file = join(realRoot, ...path.segments);
  if (!inside(realRoot, file)) return { status: 403, reason: "outside the app's folder" };
  const real = await realpath(file).catch(() => null);
  if (real === null) return { status: 404, reason: 'no such file' };
  if (!inside(realRoot, real)) return { status: 403, reason: "a link that leaves the app's folder" };
  const info = await stat(real).catch(() => null);
  if (!info?.isFile()) return { status: 404, reason: 'not a file' };
  return { status: 200, file: real, contentType: contentTypeOf(real) };
}

/** Headers every answer carries: the web build's CSP as a header too, and no MIME sniffing. */
const COMMON_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
} as const;

/** The whole protocol handler as a fetch-style function, so Node tests drive what Electron calls. */
export async function appResponse(request: Request, root: string): Promise<Response> {
  const found = await resolveAppFile(request.url, root, request.method);
  if (found.status !== 200) {
    return new Response(`${found.status}: ${found.reason}\n`, {
      status: found.status,
      headers: { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  const body = request.method === 'HEAD' ? null : new Uint8Array(await readFile(found.file));
  return new Response(body, {
    status: 200,
    headers: {
      ...COMMON_HEADERS,
      'Content-Type': found.contentType,
      // A rebuilt renderer is read on the next load, never an old copy from the cache.
      'Cache-Control': 'no-cache',
    },
  });
}
