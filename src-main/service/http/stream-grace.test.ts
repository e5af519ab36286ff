import { EventEmitter, getEventListeners } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STOP_GRACE_MS, sendStream } from './stream';

/**
 * A response to a client that reads at the test's pace: `write()` answers `writeReturns` (false:
 * the socket is full until `drain`), and `end()` finishes only when `finishesOnEnd` (false: the
 * last bytes still wait in the buffer). Destroying it closes it, as a ServerResponse does.
 */
class PacedResponse extends EventEmitter {
  written: string[] = [];
  destroyed = false;
  destroyCalls = 0;
  ended = false;
  writableFinished = false;
  constructor(
    public writeReturns: boolean,
    public finishesOnEnd: boolean,
  ) {
    super();
  }
  writeHead() {
    return this;
  }
  flushHeaders() {}
  write(chunk: string) {
    this.written.push(chunk);
    return this.writeReturns;
  }
  end() {
    this.ended = true;
    this.writableFinished = this.finishesOnEnd;
  }
  destroy() {
    this.destroyCalls++;
    this.destroyed = true;
    this.emit('close');
  }
  /** The client catches up: writes go through again and the socket drains. */
  catchUp() {
    this.writeReturns = true;
    this.finishesOnEnd = true;
    this.emit('drain');
  }
  /** The client read everything, last bytes included. */
  readAll() {
    this.writableFinished = true;
    this.emit('close');
  }
}

function start(res: PacedResponse, chunks: AsyncIterable<string>, stop?: AbortSignal) {
  return sendStream(
    res as unknown as ServerResponse,
    200,
    { contentType: 'text/plain', chunks, ...(stop ? { stop } : {}) },
    false,
    {},
  );
}

async function* lines(count: number) {
  for (let i = 0; i < count; i++) yield `line ${i}\n`;
}

/** A producer that gives up on its consumer: it ends with a last line once `stop` aborts. */
async function* untilStopped(stop: AbortSignal) {
  let i = 0;
  while (!stop.aborted) {
    yield `line ${i++}\n`;
    await Promise.resolve();
  }
  yield 'last words\n';
}

afterEach(() => {
  vi.useRealTimers();
});

/** From the moment a stream is given up on: not cut off 1 ms before the grace ends, cut off at its end. */
async function expectCutOffAtGrace(res: { destroyCalls: number }) {
  await vi.advanceTimersByTimeAsync(STOP_GRACE_MS - 1);
  expect(res.destroyCalls).toBe(0);
  await vi.advanceTimersByTimeAsync(1);
  expect(res.destroyCalls).toBe(1);
}
describe('sendStream and a consumer the producer gave up on', () => {
  it('a slow consumer not given up on is never cut off, neither while behind nor after the end', async () => {
    vi.useFakeTimers();
    for (const stop of [undefined, new AbortController().signal]) {
      const res = new PacedResponse(false, false);
      const done = start(res, lines(3), stop);
      await vi.advanceTimersByTimeAsync(STOP_GRACE_MS * 10);
      expect(res.written).toEqual(['line 0\n']);
      res.writeReturns = true;
      res.emit('drain');
      await done;
      expect(res.ended).toBe(true);
      expect(res.writableFinished).toBe(false);
      await vi.advanceTimersByTimeAsync(STOP_GRACE_MS * 10);
      expect(res.destroyCalls).toBe(0);
      expect(res.written).toEqual(['line 0\n', 'line 1\n', 'line 2\n']);
    }
  });

  it('a consumer given up on while it is behind is cut off once the grace has passed, not before', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const res = new PacedResponse(false, false);
    const done = start(res, untilStopped(stop.signal), stop.signal);
    await vi.advanceTimersByTimeAsync(STOP_GRACE_MS * 5);
    expect(res.written).toEqual(['line 0\n']);
    stop.abort();
    await expectCutOffAtGrace(res);
    await done;
    expect(res.written).toEqual(['line 0\n']);
  });

  it('a consumer given up on before it fell behind is cut off once the grace has passed', async () => {
    vi.useFakeTimers();
    const res = new PacedResponse(false, false);
    const done = start(res, lines(5), AbortSignal.abort());
    await expectCutOffAtGrace(res);
    await done;
    expect(res.written).toEqual(['line 0\n']);
  });

  it('a consumer given up on that catches up within the grace gets the last words and is not cut off', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const res = new PacedResponse(false, false);
    const done = start(res, untilStopped(stop.signal), stop.signal);
    await vi.advanceTimersByTimeAsync(10);
    stop.abort();
    await vi.advanceTimersByTimeAsync(STOP_GRACE_MS / 2);
    res.catchUp();
    await done;
    expect(res.written).toEqual(['line 0\n', 'last words\n']);
    expect(res.writableFinished).toBe(true);
    await vi.advanceTimersByTimeAsync(STOP_GRACE_MS * 10);
    expect(res.destroyCalls).toBe(0);
  });

  it('the last words of a consumer given up on may wait in the buffer for the grace, not longer', async () => {
    vi.useFakeTimers();
    const slow = new PacedResponse(true, false);
    await start(slow, lines(2), AbortSignal.abort());
    expect(slow.ended).toBe(true);
    await expectCutOffAtGrace(slow);

    // One that reads them within the grace is left alone.
    const reader = new PacedResponse(true, false);
    await start(reader, lines(2), AbortSignal.abort());
    await vi.advanceTimersByTimeAsync(STOP_GRACE_MS / 2);
    reader.readAll();
    await vi.advanceTimersByTimeAsync(STOP_GRACE_MS * 10);
    expect(reader.destroyCalls).toBe(0);
  });
});

describe('sendStream housekeeping', () => {
  it('waiting for the socket again and again leaves no listeners behind', async () => {
    const stop = new AbortController();
    const res = new PacedResponse(false, true);
    // The socket fills on every chunk and drains soon after.
    res.write = (chunk: string) => {
      res.written.push(chunk);
      setImmediate(() => res.emit('drain'));
      return false;
    };
    await start(res, lines(25), stop.signal);
    expect(res.written).toHaveLength(25);
    expect(res.listenerCount('drain')).toBe(0);
    expect(res.listenerCount('close')).toBe(0);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('a source whose iterator has no return() is streamed to its end', async () => {
    let i = 0;
    const chunks: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => ({
        next: async () =>
          i < 3 ? { done: false, value: `line ${i++}\n` } : { done: true, value: undefined },
      }),
    };
    const res = new PacedResponse(true, true);
    await start(res, chunks);
    expect(res.written).toEqual(['line 0\n', 'line 1\n', 'line 2\n']);
    expect(res.ended).toBe(true);
  });
});
