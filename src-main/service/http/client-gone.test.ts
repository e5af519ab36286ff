/**
 * Clients that go away (client-gone.ts, and how request-handler.ts uses it): the work they started stops,
 * their departure is no failure of the service, and a real failure is never hidden behind one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../test-support/eventually.test-support';
import { clientWentAway } from './client-gone';
import { type Edge, type EdgeOptions, startEdge } from './edge.test-support';
import { LEVEL } from './recording-logger.test-support';

/** The state of one exchange, as clientWentAway reads it. */
function exchange(
  state: { res?: boolean; req?: boolean; socket?: boolean; ended?: boolean } = {},
): [IncomingMessage, ServerResponse] {
  const req = { destroyed: state.req ?? false, socket: { destroyed: state.socket ?? false } };
  const res = { destroyed: state.res ?? false, writableEnded: state.ended ?? false };
  return [req as unknown as IncomingMessage, res as unknown as ServerResponse];
}
const withCode = (code: string) => Object.assign(new Error(code), { code });

const DISCONNECTS = [
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_DESTROYED',
  'ERR_HTTP_REQUEST_TIMEOUT',
  'UND_ERR_ABORTED',
];

describe('clientWentAway', () => {
  it('is true for a disconnect error once the connection closed before the answer ended', () => {
    for (const closed of [{ res: true }, { req: true }, { socket: true }]) {
      for (const code of DISCONNECTS)
        expect(clientWentAway(withCode(code), ...exchange(closed)), `${code} ${Object.keys(closed)}`).toBe(
          true,
        );
    }
  });

  it('knows an abort by its name, whatever its code', () => {
    const abort = new DOMException('the client went away', 'AbortError');
    expect(clientWentAway(abort, ...exchange({ res: true }))).toBe(true);
  });

  it('looks through the causes a failure was wrapped in', () => {
    const wrapped = new Error('fetch failed', {
      cause: new Error('socket', { cause: withCode('ECONNRESET') }),
    });
    expect(clientWentAway(wrapped, ...exchange({ socket: true }))).toBe(true);
  });

  it('ends on a chain of causes that loops', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    a.cause = new Error('b', { cause: a });
    expect(clientWentAway(a, ...exchange({ res: true }))).toBe(false);
  });

  it("is false for any other failure, even when the client has gone: that is the service's own", () => {
    for (const err of [
      new TypeError('a bug'),
      withCode('ENOENT'),
      { code: 42 },
      'ECONNRESET',
      null,
      undefined,
    ])
      expect(clientWentAway(err, ...exchange({ res: true, req: true, socket: true })), String(err)).toBe(
        false,
      );
  });

  it('is false while the connection is open, and once the answer was sent whole', () => {
    expect(clientWentAway(withCode('ECONNRESET'), ...exchange())).toBe(false);
    expect(clientWentAway(withCode('EPIPE'), ...exchange({ res: true, socket: true, ended: true }))).toBe(
      false,
    );
  });
});

describe('work of a client that goes away', () => {
  let edge: Edge | undefined;
  afterEach(async () => {
    await edge?.close();
    edge = undefined;
  });

  /** An operation that waits for its signal and then does what `then` says. */
  async function waitingEdge(then: (reason: unknown) => never, opts: EdgeOptions = {}) {
    const reasons: unknown[] = [];
    edge = await startEdge({
      ...opts,
      answer: ({ ctx }) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            reasons.push(ctx.signal.reason);
            try {
              then(ctx.signal.reason);
            } catch (err) {
              reject(err);
            }
          });
        }),
    });
    return { edge, reasons };
  }

  /** Sends a GET on a connection of its own and closes it once the operation is running. */
  async function leaveWhileWorking(e: Edge, path: string) {
    const socket = connect(Number(new URL(e.url).port), '127.0.0.1');
    socket.on('error', () => {});
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
    await eventually(async () => expect(e.calls).toHaveLength(1));
    socket.destroy();
  }

  it("aborts the operation's signal when the client leaves, logging no failure", async () => {
    const { edge: e, reasons } = await waitingEdge((reason) => {
      throw reason;
    });
    await leaveWhileWorking(e, '/v1/workspaces?limit=1');
    await eventually(async () => expect(e.entries.some((l) => l.msg === 'request')).toBe(true));
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatchObject({ name: 'AbortError', message: expect.stringMatching(/went away/) });
    expect(e.entries.filter((l) => l.level >= LEVEL.warn)).toEqual([]);
    expect(e.entries.find((l) => l.msg === 'request')).toMatchObject({
      path: '/v1/workspaces',
      clientGone: true,
    });
  });

  it('still logs a failure that is not the disconnect, though the client left', async () => {
    const { edge: e } = await waitingEdge(() => {
      throw new TypeError('a bug after the client left');
    });
    await leaveWhileWorking(e, '/v1/workspaces');
    await eventually(async () =>
      expect(e.entries.filter((l) => l.level >= LEVEL.error)).toMatchObject([
        { msg: 'unhandled error', err: { message: 'a bug after the client left' } },
      ]),
    );
  });

  it('aborts the signal of an answered request too, with a reason of its own', async () => {
    edge = await startEdge();
    await (await fetch(`${edge.url}/v1/health`)).text();
    const { signal } = edge.calls[0]!.ctx;
    await eventually(async () => expect(signal.aborted).toBe(true));
    expect(signal.reason).toMatchObject({ name: 'AbortError', message: expect.stringMatching(/complete/) });
  });
});
