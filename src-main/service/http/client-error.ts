import {
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Socket } from 'node:net';
import { ProblemError } from '../errors';
import { COMMON_HEADERS, sendProblem } from './respond';

/**
 * The answer to a request the server could not take whole, in problem+json like every other
 * error: one that ran out of time (408), whose URL is too long (414) or whose head is too large
 * (431), a malformed one (400). Node answers these itself with a bare status line and resets the
 * connection while the client is still sending; here each gets a problem body, and a connection
 * that was refused before its request arrived whole is closed gracefully: the answer and a FIN,
 * then what the client still sends is read and dropped until it closes too or LINGER_MS pass, so
 * that no reset destroys the answer before the client has read it (a lingering close, as nginx
 * does). A request whose body was still arriving is answered and its connection closed at once,
 * so its handler never sees the rest; one whose answer is under way cannot be told anything more:
 * its connection is cut.
 */

/** The longest request target (path and query) served; a longer one is 414. */
export const MAX_URL_BYTES = 8 * 1024;
/** The request line and headers together, Node's maxHeaderSize; past it the answer is 431 (or 414). */
export const MAX_HEAD_BYTES = 16 * 1024;
/** How long a refused connection is read from (and what arrives dropped) before it is closed. */
export const LINGER_MS = 2_000;

/** A whole HTTP/1.1 answer carrying a problem, written straight to a socket that has no response. */
export function rawProblemResponse(problem: ProblemError): Buffer {
  const body = JSON.stringify(problem.toProblem());
  const headers = {
    ...COMMON_HEADERS,
    'Content-Type': 'application/problem+json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return Buffer.from(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n${lines.join('')}\r\n${body}`,
  );
}

const uriTooLong = () =>
  new ProblemError('uri_too_long', `the URL must be at most ${MAX_URL_BYTES} bytes`, {
    maxBytes: MAX_URL_BYTES,
  });

/** The 408 of a request whose headers (or, on a new connection, whose first bytes) did not come in time. */
export const headersTimedOut = (ms: number) =>
  new ProblemError(
    'request_timeout',
    `the request's headers did not arrive within ${ms / 1000} s (the headers timeout)`,
  );

/**
 * True when the bytes the parser choked on begin with a request line whose target passes the URL
 * bound (ended or not): the URL is what overflowed. Bytes that begin elsewhere (a head sent a
 * little at a time) cannot tell, and count as headers.
 */
function urlOverflowed(packet: Buffer | undefined): boolean {
  if (!packet || !/^[A-Z]+ \S/.test(packet.subarray(0, 32).toString('latin1'))) return false;
  const lineEnd = packet.indexOf(0x0a);
  const line = lineEnd === -1 ? packet : packet.subarray(0, lineEnd);
  const start = line.indexOf(0x20) + 1;
  const end = line.indexOf(0x20, start);
  return (end === -1 ? line.length : end) - start > MAX_URL_BYTES;
}

interface ClientErrorLike {
  code?: string;
  reason?: string;
  rawPacket?: Buffer;
}

/** The problem a client error is answered with; `receiving` tells a body that stalled from a head that did. */
export function problemFor(
  err: ClientErrorLike,
  receiving: boolean,
  timeouts: { headersMs: number; requestMs: number },
): ProblemError {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return receiving
        ? new ProblemError(
            'request_timeout',
            `the request did not arrive whole within ${timeouts.requestMs / 1000} s (the request timeout)`,
          )
        : headersTimedOut(timeouts.headersMs);
    case 'HPE_HEADER_OVERFLOW':
      return urlOverflowed(err.rawPacket)
        ? uriTooLong()
        : new ProblemError(
            'headers_too_large',
            `the request line and headers must be at most ${MAX_HEAD_BYTES} bytes together`,
            { maxBytes: MAX_HEAD_BYTES },
          );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ProblemError('payload_too_large', 'the chunk extensions of the body are too large');
    default:
      return new ProblemError(
        'malformed_request',
        `the request is not valid HTTP/1.1: ${err.reason ?? err.code ?? 'unreadable'}`,
      );
  }
}

/**
 * Answers Node's client errors and the URL bound on `server`, and gives `listener` only the
 * requests that pass. Returns the listener to attach.
 */
export function answerClientErrors(
  server: Server,
  listener: RequestListener,
  timeouts: { headersMs: number; requestMs: number },
): RequestListener {
  /** The response of the request each connection is on, until it is finished. */
  const inFlight = new WeakMap<Socket, ServerResponse>();
  /** Connections already refused: later errors of theirs, and requests, are dropped. */
  const refused = new WeakSet<Socket>();

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    inFlight.set(socket, res);
    res.once('finish', () => {
      if (inFlight.get(socket) === res) inFlight.delete(socket);
    });
  });

  server.on('clientError', (err: Error & ClientErrorLike, socket: Socket) => {
    if (refused.has(socket)) return;
    refused.add(socket);
    const res = inFlight.get(socket);
    // An answer under way (begun, or to a request that arrived whole before this one went wrong)
    // owns the connection: bytes written now would be read as part of it.
    const answering = res !== undefined && (res.headersSent || res.req.complete);
    // A connection the client reset is destroyed already (Node destroys it before telling).
    if (socket.destroyed || answering) {
      socket.destroy();
      return;
    }
    socket.write(rawProblemResponse(problemFor(err, res !== undefined, timeouts)));
    if (res) {
      // A request whose body was arriving: cut off once the answer is out, so its handler never
      // sees the rest of the body.
      socket.end();
      socket.once('finish', () => socket.destroy());
      return;
    }
    linger(socket);
  });

  return (req, res) => {
    if (refused.has(req.socket)) return;
    if (req.url!.length > MAX_URL_BYTES) {
      sendProblem(res, uriTooLong(), { Connection: 'close' });
      return;
    }
    listener(req, res);
  };
}

/**
 * Ends the connection after the answer and reads (dropping) what still comes: the client's own
 * end then closes it (both sides have ended), and a client that never ends is let go after LINGER_MS.
 */
function linger(socket: Socket): void {
  socket.end();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
