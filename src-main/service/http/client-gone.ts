import type { IncomingMessage, ServerResponse } from 'node:http';

// What reading a request or writing an answer throws when the other end has closed, and what a
// cluster request throws when the client's going away aborted it.
const DISCONNECT_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_DESTROYED',
  'ERR_HTTP_REQUEST_TIMEOUT',
  'UND_ERR_ABORTED',
]);

function isDisconnectError(err: unknown): boolean {
  let e: unknown = err;
  // The cause chain is short; the bound only guards against a cycle.
  for (let depth = 0; depth < 5 && typeof e === 'object' && e !== null; depth++) {
    const { name, code, cause } = e as { name?: unknown; code?: unknown; cause?: unknown };
    if (name === 'AbortError') return true;
    if (typeof code === 'string' && DISCONNECT_CODES.has(code)) return true;
    e = cause;
  }
  return false;
}

/**
 * True when a request failed because its client went away (closed mid-body, mid-answer, or
 * before the answer): the connection closed before the answer was complete, and the failure is
 * the kind a closed connection causes. Anything else is the service's own failure, even when the
 * client has gone too, so a bug is never hidden behind a disconnect.
 */
export function clientWentAway(err: unknown, req: IncomingMessage, res: ServerResponse): boolean {
  const closedEarly = (res.destroyed || req.destroyed || req.socket.destroyed) && !res.writableEnded;
  return closedEarly && isDisconnectError(err);
}
