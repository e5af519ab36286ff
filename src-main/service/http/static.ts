import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** The same CSP the Electron window uses, so the web build cannot do what the desktop build may not. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** Where the build puts hashed files: a name under it is a file, never an app route. */
const ASSET_PATH = /^\/(?:assets|icons)\/./;

/** Serves the built renderer; unknown paths get index.html so client-side routes survive a reload. */
export function createStaticHandler(root: string) {
  // Resolved, so a folder named with a trailing slash is the same base as without one.
  const base = resolve(root);
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return false; // a malformed escape names no file: the caller answers 404
    }
    let file = normalize(join(base, decoded));
    if (file !== base && !file.startsWith(base + sep)) return false;
    let info = await stat(file).catch(() => null);
    // A missing built file (a page still open from before a rebuild asks for old hashed names) is a
    // 404: the index in its place would be run or parsed as script or style.
    if (!info && ASSET_PATH.test(decoded)) return false;
    if (!info || info.isDirectory()) {
      file = join(base, 'index.html');
      info = await stat(file).catch(() => null);
      if (!info) return false;
    }
    res.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Content-Length': info.size,
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Cache-Control': file.endsWith('index.html') ? 'no-cache' : 'public, max-age=3600',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
    return true;
  };
}
