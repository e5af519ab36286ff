import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { ProblemError } from '../errors';

export const COMMON_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

/** UTF-8 bytes of a JSON text, or of the array whose elements' texts are given. */
function encode(json: string | readonly string[]): Buffer {
  if (typeof json === 'string') return Buffer.from(json);
  let size = 2 + Math.max(0, json.length - 1);
  for (const element of json) size += Buffer.byteLength(element);
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  bytes[at++] = 0x5b; // [
  for (let i = 0; i < json.length; i++) {
    if (i > 0) bytes[at++] = 0x2c; // ,
    at += bytes.write(json[i]!, at);
  }
  bytes[at] = 0x5d; // ]
  return bytes;
}

/**
 * Sends JSON. For a GET, pass the request's If-None-Match: the answer carries a strong ETag of
 * its body and headers, and a client that already holds it gets 304 with no body, so polling an
 * unchanged list costs neither side a parse.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  conditional?: { ifNoneMatch: string | undefined },
  /** The body already serialised (see Reply.json); sent as is. */
  serialised?: string | readonly string[],
) {
  // Encoded once: the ETag's hash, Content-Length and the socket take the same bytes.
  const bytes = encode(serialised ?? JSON.stringify(body));
  if (conditional && status === 200) {
    // A Link's snapshot token names the version of the whole list, not of this page: a page that
    // did not change while the list did is the same representation, so polling it stays a 304.
    const validated = JSON.stringify(headers).replace(/snapshot=[\w.-]*&?/g, '');
    const etag = `"${createHash('sha1').update(bytes).update(validated).digest('base64url')}"`;
    const held = conditional.ifNoneMatch?.split(',').map((t) => t.trim().replace(/^W\//, ''));
    if (held?.includes(etag) || conditional.ifNoneMatch?.trim() === '*') {
      res.writeHead(304, { ...COMMON_HEADERS, ...headers, ETag: etag });
      res.end();
      return;
    }
    headers = { ...headers, ETag: etag };
  }
  res.writeHead(status, {
    ...COMMON_HEADERS,
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': bytes.length,
  });
  res.end(bytes);
}

export function sendProblem(
  res: ServerResponse,
  error: ProblemError,
  extraHeaders: Record<string, string> = {},
) {
  if (res.headersSent) {
    // A stream already started: the only honest signal left is to cut it.
    res.destroy(error);
    return;
  }
  const text = JSON.stringify(error.toProblem());
  res.writeHead(error.status, {
    ...COMMON_HEADERS,
    ...error.headers,
    ...extraHeaders,
    'Content-Type': 'application/problem+json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}
