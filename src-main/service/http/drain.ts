/**
 * Graceful shutdown of the HTTP side (SIGTERM in a pod): stop taking connections, let the
 * requests in flight finish within a grace period, then cut what is left. Rules:
 * - Every request is counted from its arrival to its answer's end (or its client leaving), so
 *   "in flight" is exact, not guessed from sockets.
 * - Once draining, idle keep-alive connections are closed at once, an answer whose headers are
 *   still to go tells its client `Connection: close`, and a connection kept alive by an answer
 *   already under way is closed as it ends, so a client's next request goes to another replica
 *   instead of racing the close. (Node itself no longer hands a closed server new requests.)
 * - An event watch never ends by itself and its client reconnects on its own (EventSource,
 *   resuming with Last-Event-ID), so it is closed at once rather than held for the whole grace
 *   period. It is told by its request's Accept (text/event-stream, which EventSource always
 *   sends), since headers given to writeHead cannot be read back. Every other answer, a log follow or a snapshot download included, gets the
 *   grace period: a download cut short is lost work.
 * - The grace period is a bound, never a wait for its own sake: drain resolves as soon as the
 *   last request ends.
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

export type DrainOutcome = 'finished' | 'cut';

export class Drain {
  /** Each answer not yet ended, with its request. */
  private readonly inFlight = new Map<ServerResponse, IncomingMessage>();
  private servers: readonly Server[] = [];
  private draining = false;
  private readonly emptied = new Set<() => void>();

  /** Requests whose answer has not ended yet. */
  get pending(): number {
    return this.inFlight.size;
  }

  /** The listener, counting its requests in flight. */
  wrap(listener: RequestListener): RequestListener {
    return (req, res) => {
      this.inFlight.set(res, req);
      res.once('close', () => {
        this.inFlight.delete(res);
        // The connection it leaves idle is closed too, once Node has marked it so.
        if (this.draining) setImmediate(() => this.closeIdle());
        if (this.inFlight.size === 0) for (const resolve of this.emptied) resolve();
      });
      listener(req, res);
    };
  }

  /**
   * Stops the servers taking connections, waits for the requests in flight up to `graceMs`, then
   * closes every connection left. 'finished' when all ended within the grace period.
   */
  async drain(servers: readonly Server[], graceMs: number): Promise<DrainOutcome> {
    this.draining = true;
    this.servers = servers;
    for (const server of servers) server.close();
    this.closeIdle();
    for (const [res, req] of this.inFlight) {
      if (!res.headersSent) res.shouldKeepAlive = false;
      else if (req.headers.accept?.includes('text/event-stream')) res.destroy();
    }
    const outcome = await this.settled(graceMs);
    for (const server of servers) server.closeAllConnections();
    return outcome;
  }

  private closeIdle(): void {
    for (const server of this.servers) server.closeIdleConnections();
  }

  private settled(graceMs: number): Promise<DrainOutcome> {
    if (this.inFlight.size === 0) return Promise.resolve('finished');
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.emptied.delete(done);
        resolve('finished');
      };
      const timer = setTimeout(() => {
        this.emptied.delete(done);
        resolve('cut');
      }, graceMs);
      this.emptied.add(done);
    });
  }
}
