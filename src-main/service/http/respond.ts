import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { ProblemError } from '../errors';
import { bodyBuffers } from './body-buffers';

export const COMMON_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

/** A body already serialised (see Reply.json, jsonWrap and etagSeed). */
export interface SerialisedJson {
  json: string | readonly string[];
  jsonWrap?: { prefix: string; suffix: string } | undefined;
  etagSeed?: string | undefined;
}

/**
 * UTF-8 bytes of a JSON text, or of the array whose elements' texts are given, each between the
 * wrap's prefix and suffix. The elements are written one by one, never concatenated: an element
 * is usually a flat string the cache holds, and a concatenation would be flattened into a fresh
 * copy per request (young-generation garbage at every page).
 *
 * The buffer is sized from the texts' lengths, not their UTF-8 byte counts (counting scans every
 * character): JSON from a cluster is nearly all ASCII. Room for any character to take three
 * bytes is checked before each write, and the rare page that runs short moves to a bigger buffer.
 */
function encode(body: SerialisedJson): { bytes: Buffer; backing: Buffer } {
  const { json } = body;
  if (typeof json === 'string') {
    const backing = bodyBuffers.take(Buffer.byteLength(json));
    return { bytes: backing.subarray(0, backing.write(json)), backing };
  }
  const prefix = body.jsonWrap?.prefix ?? '';
  const suffix = body.jsonWrap?.suffix ?? '';
  let chars = 2 + json.length * (1 + prefix.length + suffix.length);
  let longest = prefix.length + suffix.length;
  for (const element of json) {
    chars += element.length;
    if (element.length > longest) longest = element.length;
  }
  let backing = bodyBuffers.take(chars + 3 * longest + 8);
  let at = 0;
  const put = (text: string) => {
    if (backing.length - at < 3 * text.length + 2) {
      const bigger = bodyBuffers.take(2 * backing.length + 3 * text.length);
      backing.copy(bigger, 0, 0, at);
      bodyBuffers.give(backing);
      backing = bigger;
    }
    at += backing.write(text, at);
  };
  backing[at++] = 0x5b; // [
  for (let i = 0; i < json.length; i++) {
    if (i > 0) backing[at++] = 0x2c; // ,
    if (prefix) put(prefix);
    put(json[i]!);
    if (suffix) put(suffix);
  }
  backing[at++] = 0x5d; // ]
  return { bytes: backing.subarray(0, at), backing };
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
  serialised?: SerialisedJson,
) {
  // Encoded once: the ETag's hash, Content-Length and the socket take the same bytes.
  const { bytes, backing } = encode(serialised ?? { json: JSON.stringify(body) });
  if (conditional && status === 200) {
    // A Link's snapshot token names the version of the whole list, not of this page: a page that
    // did not change while the list did is the same representation, so polling it stays a 304.
    const validated = JSON.stringify(headers).replace(/snapshot=[\w.-]*&?/g, '');
    const etag = `"${createHash('sha1')
      .update(serialised?.etagSeed ?? bytes)
      .update(validated)
      .digest('base64url')}"`;
    const held = conditional.ifNoneMatch?.split(',').map((t) => t.trim().replace(/^W\//, ''));
    if (held?.includes(etag) || conditional.ifNoneMatch?.trim() === '*') {
      bodyBuffers.give(backing);
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
  // 'finish': the socket has taken every byte, so the buffer can hold the next body. A response
  // cut short never finishes, and its buffer is left to the garbage collector.
  res.once('finish', () => bodyBuffers.give(backing));
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
