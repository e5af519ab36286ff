import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import { ProblemError } from '../errors';
import { headersTimedOut, rawProblemResponse } from './client-error';

export interface ConnectionGuardOptions {
  /** How many connections may wait at once without a complete request in hand. */
  maxWaiting: number;
  /** A connection that has not sent a single request within this long is closed. */
  firstRequestTimeoutMs: number;
  /** How often connections are checked against firstRequestTimeoutMs. */
  checkIntervalMs: number;
  /** Told each time a connection is closed, with why. */
  onClose?: (reason: 'evicted' | 'no-request') => void;
}

type State = 'fresh' | 'receiving' | 'busy' | 'idle';

interface Tracked {
  state: State;
  /** The request the socket is on, so a late 'end' of an earlier one changes nothing. */
  req: IncomingMessage | null;
  /** Set when this guard closed the socket, so its close is reported once. */
  closedHere: boolean;
}

/** What a silent connection closed here is told: the 408 a headers timeout gets (client-error.ts). */
function timeoutResponse(reason: 'evicted' | 'no-request', waitedMs: number): Buffer {
  return rawProblemResponse(
    reason === 'evicted'
      ? new ProblemError(
          'request_timeout',
          'too many connections are waiting on their clients; this one, with no request yet, waited longest',
        )
      : headersTimedOut(waitedMs),
  );
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Bounds what slow or silent clients can hold. Node's headersTimeout and requestTimeout close a
 * connection that is slow to send a request, but only after the time runs out. So a flood of such connections could still hold every file descriptor in
 * the meantime. This guard counts the connections that are waiting on their client (connected or
 * kept alive but with no request yet, or still sending a body) and, past `maxWaiting`, closes the
 * one that has waited longest. A client that is sending requests moves out of the waiting set
 * with each one, so it is never the longest waiting; a connection that says nothing is closed
 * after `firstRequestTimeoutMs`. Connections whose request is fully received (being answered, a
 * log follow) are never touched here.
 */
export class ConnectionGuard {
  private readonly tracked = new Map<Socket, Tracked>();
  /** Waiting connections in the order they began to wait: the first is the oldest. */
  private readonly waiting = new Map<Socket, number>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    server: Server,
    private readonly opts: ConnectionGuardOptions,
    private readonly now: () => number = Date.now,
  ) {
    // Over TLS the request's socket is the TLSSocket of 'secureConnection', not the raw one.
    server.on(server instanceof TlsServer ? 'secureConnection' : 'connection', (socket: Socket) =>
      this.onConnection(socket),
    );
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.onRequest(req, res));
    this.sweeper = setInterval(() => this.sweep(), opts.checkIntervalMs);
    this.sweeper.unref();
    server.once('close', () => clearInterval(this.sweeper));
  }

  private onConnection(socket: Socket): void {
    const t: Tracked = { state: 'fresh', req: null, closedHere: false };
    this.tracked.set(socket, t);
    this.wait(socket);
    socket.once('close', () => {
      this.tracked.delete(socket);
      this.waiting.delete(socket);
      // Node 24's own headersTimeout also closes a silent connection, with a 408 (client-error.ts
      // words it), and its check may run before the sweep. A socket that has not sent a whole
      // request is written to only to refuse it (that 408, or a 400, 414 or 431), so bytes written
      // there mean it was refused: reported the same as the sweep, whichever came first.
      if (t.state === 'fresh' && !t.closedHere && socket.bytesWritten > 0) this.opts.onClose?.('no-request');
    });
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    const t = this.tracked.get(socket);
    if (!t) return;
    t.req = req;
    if (hasBody(req) && !req.complete) {
      // Keeps its place in the queue: sending a body slowly is still waiting on the client.
      if (t.state !== 'fresh' && t.state !== 'idle') this.wait(socket);
      t.state = 'receiving';
      req.once('end', () => {
        if (t.req === req && t.state === 'receiving') this.busy(socket, t);
      });
    } else {
      this.busy(socket, t);
    }
    res.once('finish', () => {
      if (t.req !== req || socket.destroyed) return;
      t.state = 'idle';
      t.req = null;
      this.wait(socket);
    });
  }

  private busy(socket: Socket, t: Tracked): void {
    t.state = 'busy';
    this.waiting.delete(socket);
  }

  private wait(socket: Socket): void {
    this.waiting.delete(socket);
    this.waiting.set(socket, this.now());
    while (this.waiting.size > this.opts.maxWaiting) {
      const oldest = this.waiting.keys().next().value as Socket;
      this.close(oldest, 'evicted');
    }
  }

  /** Closes fresh connections that never sent a request; the oldest come first, so it stops early. */
  private sweep(): void {
    const cutoff = this.now() - this.opts.firstRequestTimeoutMs;
    for (const [socket, since] of this.waiting) {
      if (since > cutoff) break;
      if (this.tracked.get(socket)?.state === 'fresh') this.close(socket, 'no-request');
    }
  }

  private close(socket: Socket, reason: 'evicted' | 'no-request'): void {
    this.waiting.delete(socket);
    const t = this.tracked.get(socket);
    if (t) t.closedHere = true;
    // Only a connection that never sent a request is told why. A kept-alive one may have a request
    // in flight that would take the 408 for its answer; closing it unannounced is what lets the
    // client retry on a new connection.
    if (socket.writable && t?.state === 'fresh')
      socket.write(timeoutResponse(reason, this.opts.firstRequestTimeoutMs));
    socket.destroy();
    this.opts.onClose?.(reason);
  }
}
