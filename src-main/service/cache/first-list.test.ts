/**
 * The rules of a wait for a cache's first list, to the millisecond, on a fake clock: 503 at the
 * fill deadline only after a page in the wait, 504 after the timeout with no page (counted from
 * the last one), an immediate 503 for a page that comes past the deadline, and nothing left behind
 * (timers, listeners, waiters) once a wait is over. cache-filling.test.ts shows the same rules
 * with a real informer over HTTP.
 */
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProblemError } from '../errors';
import { DEFAULT_FILL_WAIT_MS, FirstListWaiters, SYNCING_RETRY_AFTER_S } from './first-list';

const PATH = '/api/v1/events';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** How a wait stands, read without awaiting it. */
function track(wait: Promise<void>) {
  const state: { done: boolean; ok: boolean; error: unknown } = { done: false, ok: false, error: undefined };
  wait.then(
    () => Object.assign(state, { done: true, ok: true }),
    (error: unknown) => Object.assign(state, { done: true, error }),
  );
  return state;
}

/** Moves the fake clock, running the timers due and the promise jobs they start. */
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

function problemOf(state: { done: boolean; error: unknown }): ProblemError {
  expect(state.done).toBe(true);
  expect(state.error).toBeInstanceOf(ProblemError);
  return state.error as ProblemError;
}

/** Nothing of a finished wait is left: no timer, no waiter. */
function expectNothingLeft(first: FirstListWaiters) {
  expect(first.waiting).toBe(0);
  expect(vi.getTimerCount()).toBe(0);
}

describe('FirstListWaiters', () => {
  it('answers 503 at the fill deadline once a page came during the wait, with the progress and Retry-After', async () => {
    const first = new FirstListWaiters({ path: PATH, timeoutMs: 10_000, fillWaitMs: 1_000 });
    const wait = track(first.wait());
    await advance(500);
    first.page(2, 8);
    await advance(499);
    expect(wait.done).toBe(false);
    await advance(1);
    const problem = problemOf(wait);
    expect(problem.code).toBe('cluster_syncing');
    expect(problem.message).toBe(
      `the first list of ${PATH} is still arriving from the cluster (2 objects so far, about 8 to come); ask again in 2 s`,
    );
    expect(problem.extensions).toStrictEqual({
      retryAfterSeconds: SYNCING_RETRY_AFTER_S,
      progress: { items: 2, remaining: 8 },
    });
    expect(problem.headers).toStrictEqual({ 'Retry-After': '2' });
    expect(first.progress).toStrictEqual({ items: 2, remaining: 8 });
    expectNothingLeft(first);
  });

  it('reports the objects so far alone when the cluster gave no estimate of the rest', async () => {
    const first = new FirstListWaiters({ path: PATH, timeoutMs: 10_000, fillWaitMs: 100 });
    const wait = track(first.wait());
    first.page(3, undefined);
    await advance(100);
    const problem = problemOf(wait);
    expect(problem.extensions.progress).toStrictEqual({ items: 3 });
    expect(first.progress).toStrictEqual({ items: 3 });
    expect(problem.message).toBe(
      `the first list of ${PATH} is still arriving from the cluster (3 objects so far); ask again in 2 s`,
    );
  });

  it('with no page during the wait, waits on past the deadline; a page then answers 503 at once', async () => {
    const first = new FirstListWaiters({ path: PATH, timeoutMs: 10_000, fillWaitMs: 1_000 });
    // An earlier page: progress the wait did not see.
    first.page(2, 8);
    const wait = track(first.wait());
    await advance(1_000);
    expect(wait.done).toBe(false);
    await advance(3_000);
    expect(wait.done).toBe(false);
    first.page(4, 6);
    await advance(0);
    expect(problemOf(wait).extensions.progress).toStrictEqual({ items: 4, remaining: 6 });
    expectNothingLeft(first);
  });

  it('a page at the very millisecond of the deadline, after its check, answers 503 at once', async () => {
    const first = new FirstListWaiters({ path: PATH, timeoutMs: 10_000, fillWaitMs: 1_000 });
    const wait = track(first.wait());
    await advance(1_000);
    expect(wait.done).toBe(false);
    first.page(2, 8);
    await advance(0);
    expect(problemOf(wait).code).toBe('cluster_syncing');
    expectNothingLeft(first);
  });

  it('a page before the deadline does not end the wait early', async () => {
    const first = new FirstListWaiters({ path: PATH, timeoutMs: 10_000, fillWaitMs: 1_000 });
    const wait = track(first.wait());
    first.page(2, 8);
    await advance(999);
    first.page(4, 6);
    await advance(0);
    expect(wait.done).toBe(false);
    // Each page still leaves exactly one timer: the one the deadline needs.
    expect(vi.getTimerCount()).toBe(1);
    await advance(1);
    expect(problemOf(wait).extensions.progress).toStrictEqual({ items: 4, remaining: 6 });
  });

  it('answers 504 at exactly the timeout without a page, counted from the last page', async () => {
    const first = new FirstListWaiters({ path: PATH, timeoutMs: 1_500, fillWaitMs: 60_000 });
    const silent = track(first.wait());
    await advance(1_499);
    expect(silent.done).toBe(false);
    await advance(1);
    const problem = problemOf(silent);
    expect(problem.code).toBe('cluster_timeout');
    expect(problem.message).toBe('the cluster did not answer within 1.5 s');
    expectNothingLeft(first);

    const slow = track(first.wait());
    await advance(1_000);
    first.page(2, undefined);
    await advance(1_499);
    expect(slow.done).toBe(false);
    await advance(1);
    expect(problemOf(slow).code).toBe('cluster_timeout');
    expectNothingLeft(first);
  });

  it('waits 5 s by default for a list making progress', async () => {
    expect(DEFAULT_FILL_WAIT_MS).toBe(5_000);
    const first = new FirstListWaiters({ path: PATH, timeoutMs: 60_000 });
    const wait = track(first.wait());
    await advance(100);
    first.page(1, 1);
    await advance(4_899);
    expect(wait.done).toBe(false);
    await advance(1);
    expect(problemOf(wait).code).toBe('cluster_syncing');
  });

  it('a completed list resolves every waiter; a failed one rejects them all with its problem; neither leaves progress', async () => {
    const first = new FirstListWaiters({ path: PATH, timeoutMs: 10_000, fillWaitMs: 1_000 });
    const both = [track(first.wait()), track(first.wait())];
    expect(first.waiting).toBe(2);
    first.page(2, 8);
    first.listed();
    await advance(0);
    expect(both.map((w) => w.ok)).toEqual([true, true]);
    expect(first.progress).toBeUndefined();
    expectNothingLeft(first);

    const again = [track(first.wait()), track(first.wait())];
    first.page(2, 8);
    const refused = new ProblemError('cluster_unreachable', 'refused');
    first.failed(refused);
    await advance(0);
    expect(again.map((w) => w.error)).toEqual([refused, refused]);
    expect(first.progress).toBeUndefined();
    expectNothingLeft(first);
  });

  it('a caller that gives up ends its wait with its own reason, and the signal keeps no listener of it', async () => {
    const first = new FirstListWaiters({ path: PATH, timeoutMs: 10_000, fillWaitMs: 1_000 });
    const caller = new AbortController();
    const reason = new Error('the caller went away');
    const gaveUp = track(first.wait(caller.signal));
    const other = track(first.wait());
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    caller.abort(reason);
    await advance(0);
    expect(gaveUp.error).toBe(reason);
    expect(other.done).toBe(false);
    expect(first.waiting).toBe(1);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);

    const done = new AbortController();
    const listed = track(first.wait(done.signal));
    first.listed();
    await advance(0);
    expect(listed.ok).toBe(true);
    expect(other.ok).toBe(true);
    expect(getEventListeners(done.signal, 'abort')).toHaveLength(0);
    expectNothingLeft(first);
  });
});
