import type { ServerResponse } from 'node:http';
import type { StreamBody } from '../../../src-shared/contract/define';
import { ProblemError } from '../errors';

interface MediaRange {
  type: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  // q=0 stays: it refuses a type even where a wildcard would accept it. A q that is no number is ignored.
  return header
    .split(',')
    .map((part) => {
      const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      return { type, q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((r) => r.q >= 0);
}

/** How closely a range names a type: 3 the type itself, 2 its top-level wildcard, 1 any, 0 not at all. */
function specificity(range: string, type: string): number {
  if (range === type) return 3;
  if (range.endsWith('/*') && type.startsWith(range.slice(0, -1))) return 2;
  return range === '*/*' ? 1 : 0;
}

/**
 * Picks what a streaming operation answers from Accept: the produced type with the highest q
 * (ties to the operation's own order), a type's q being that of the most specific range naming it
 * (RFC 9110 12.5.1: `text/plain;q=0` refuses text/plain even beside a wildcard), the first produced
 * type when Accept is absent, and a 406 naming the choices when nothing acceptable is produced.
 */
export function negotiate(accept: string | undefined, produces: readonly string[]): string {
  if (!accept || accept.trim() === '') return produces[0]!;
  const ranges = parseAccept(accept);
  let best: string | undefined;
  let bestQ = 0;
  for (const type of produces) {
    let q = 0;
    let level = 0;
    for (const r of ranges) {
      const s = specificity(r.type, type);
      if (s === 0 || s < level || (s === level && r.q <= q)) continue;
      level = s;
      q = r.q;
    }
    if (q > bestQ) {
      best = type;
      bestQ = q;
    }
  }
  if (best === undefined) {
    throw new ProblemError(
      'not_acceptable',
      `this endpoint answers ${produces.join(' or ')}; Accept was "${accept}"`,
      {
        accepted: produces,
      },
    );
  }
  return best;
}

/** How long a consumer the producer gave up on (StreamBody.stop) may take to drain before it is cut off. */
export const STOP_GRACE_MS = 2_000;

function drained(res: ServerResponse, stop?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const cut = () => {
      timer = setTimeout(() => res.destroy(), STOP_GRACE_MS);
    };
    const done = () => {
      clearTimeout(timer);
      stop?.removeEventListener('abort', cut);
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
    if (stop?.aborted) cut();
    else stop?.addEventListener('abort', cut, { once: true });
  });
}

/**
 * Pipes a streaming body with backpressure: the next chunk is pulled only once the socket took
 * the previous one (write() returned true, or 'drain'), so a slow client slows the producer down
 * to the cluster instead of growing a buffer here. Headers go out at once so a follow of a quiet
 * log is visibly open. When the client goes away the iterator is closed, which aborts the
 * cluster request behind it.
 */
export async function sendStream(
  res: ServerResponse,
  status: number,
  body: StreamBody<string | Uint8Array>,
  headOnly: boolean,
  commonHeaders: Record<string, string>,
): Promise<void> {
  res.writeHead(status, {
    ...commonHeaders,
    'Content-Type': body.contentType,
    // Reverse proxies (nginx) would otherwise hold back a follow until their buffer fills.
    'X-Accel-Buffering': 'no',
    ...(body.length !== undefined ? { 'Content-Length': String(body.length) } : {}),
    ...(body.fileName !== undefined ? { 'Content-Disposition': attachment(body.fileName) } : {}),
  });
  res.flushHeaders();
  const iterator = body.chunks[Symbol.asyncIterator]();
  try {
    while (!headOnly && !res.destroyed) {
      const next = await iterator.next();
      if (next.done || res.destroyed) break;
      if (!res.write(next.value)) await drained(res, body.stop);
    }
    if (!res.destroyed) res.end();
    // Given up on: its last words may wait in a full buffer, but not for ever.
    if (body.stop?.aborted && !res.writableFinished) {
      const timer = setTimeout(() => res.destroy(), STOP_GRACE_MS);
      res.once('close', () => clearTimeout(timer));
    }
  } finally {
    // Not awaited: a generator parked on a cluster read finishes once the request's signal aborts.
    iterator.return?.().catch(() => {});
  }
}

/**
 * RFC 6266: the name as a quoted ASCII fallback, and as UTF-8 in filename* when it is not plain
 * ASCII, so no name can break out of the header.
 */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (ascii === fileName) return `attachment; filename="${fileName}"`;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
