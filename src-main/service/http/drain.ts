/**
 * Graceful shutdown of the HTTP side (SIGTERM in a pod): stop taking connections, let the
 * requests in flight finish within a grace period, then cut what is left. Rules:
 * - Every request is counted from its arrival to its answer's end (or its client leaving), so
 *   "in flight" is exact, not guessed from sockets.
 * - Once draining, idle keep-alive connections are closed at once, an answer whose headers are
 *   still to go tells its client `Connection: close`, and a connection kept alive by an answer
 *   already under way is closed as it ends, so a client's next request goes to another replica
 *   instead of racing the close. Node's server.close() does the first and the last itself.
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
  /** Told when the last answer in flight ends, while a drain waits. */
  private onEmpty: (() => void) | undefined;

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
        if (this.inFlight.size === 0) this.onEmpty?.();
      });
      listener(req, res);
    };
  }

  /**
   * Stops the servers taking connections, waits for the requests in flight up to `graceMs`, then
   * closes every connection left. 'finished' when all ended within the grace period.
   */
  async drain(servers: readonly Server[], graceMs: number): Promise<DrainOutcome> {
    // Node's close also closes the idle keep-alive connections, and each busy one as its answer ends.
    for (const server of servers) server.close();
    for (const [res, req] of this.inFlight) {
      if (!res.headersSent) res.shouldKeepAlive = false;
      else if (req.headers.accept?.includes('text/event-stream')) res.destroy();
    }
    const outcome = await this.settled(graceMs);
    for (const server of servers) server.closeAllConnections();
    return outcome;
  }

  private settled(graceMs: number): Promise<DrainOutcome> {
    if (this.inFlight.size === 0) return Promise.resolve('finished');
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve('cut'), graceMs);
      this.onEmpty = () => {
        clearTimeout(timer);
        resolve('finished');
      };
    });
  }
}
