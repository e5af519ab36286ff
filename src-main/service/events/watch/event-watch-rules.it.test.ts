/**
 * The event watch's resume and bounds over real HTTP: where a Last-Event-ID can resume from (and
 * the RESET when it cannot), the per-session limit and its slots given back, and the ERROR a watch
 * ends with when the service stops watching the cluster's events.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventWatchRecord } from '../../../../src-shared/contract/event-watch-operations';
import type { Problem } from '../../../../src-shared/contract/problem';
import { SseParser } from '../../../../src-shared/streams/sse';
import { eventually } from '../../test-support/eventually.test-support';
import { type Stack, startStack } from '../../test-support/harness.test-support';
import { addEvent, changeOf, openWatch, type WatchClient } from './event-watch.test-support';

/** Changes the feed keeps for a resume. */
const CAPACITY = 6;
const RETRY_MS = 1_234;

let stack: Stack;
const open: WatchClient[] = [];
beforeAll(async () => {
  stack = await startStack({
    simulator: { listOrder: 'scrambled' },
    service: {
      // The default limit of watches per session; no history, so an idle event cache can stop.
      eventWatch: { retryMs: RETRY_MS },
      watch: { feedCapacity: CAPACITY },
      eventHistory: { record: 'off' },
    },
  });
});
afterEach(async () => {
  for (const c of open.splice(0)) c.close();
  await eventually(async () => expect(stack.service.openEventWatches()).toBe(0));
});
afterAll(async () => stack?.close());

async function watch(...args: Parameters<typeof openWatch> extends [Stack, ...infer R] ? R : never) {
  const c = await openWatch(stack, ...args);
  open.push(c);
  return c;
}

const feed = () => stack.service.registry.allClusters()[0]!.eventFeed;
const synced = (r: EventWatchRecord) => r.type === 'SYNCED';
const changes = (c: WatchClient) => c.records.map((r) => changeOf(r.record)).filter((x) => x !== undefined);

/** Adds `count` events with this reason, more than the feed keeps, and waits until the feed numbered them all. */
async function overflowFeed(reason: string, count: number): Promise<{ ids: string[]; head: number }> {
  // The event cache runs (and numbers changes) once someone reads it.
  await watch({ query: 'sendInitialEvents=false&reason=Nothing' }).then((c) => c.until(synced));
  const before = feed().head;
  const ids = Array.from({ length: count }, () => addEvent(stack, { reason }));
  await eventually(async () => expect(feed().head).toBe(before + count));
  return { ids, head: feed().head };
}

describe('event watch: where a resume can start', () => {
  it('a resume from just before the oldest change kept gets every kept change, and no RESET', async () => {
    const { ids, head } = await overflowFeed('ResumeOldest', CAPACITY + 3);
    const c = await watch({
      query: 'reason=ResumeOldest',
      headers: { 'last-event-id': String(head - CAPACITY) },
    });
    await c.until(synced);
    expect(c.records.some((r) => r.record.type === 'RESET')).toBe(false);
    expect(changes(c).map((x) => [x.type, x.id, x.event.eventId])).toEqual(
      ids.slice(3).map((id, i) => ['ADDED', String(head - CAPACITY + 1 + i), id]),
    );
  });

  it('a resume from one change older than that gets RESET, then the whole current state, then SYNCED', async () => {
    const { ids, head } = await overflowFeed('ResumeTooOld', CAPACITY + 3);
    const c = await watch({
      query: 'reason=ResumeTooOld',
      headers: { 'last-event-id': String(head - CAPACITY - 1) },
    });
    await c.until(synced);
    const types = c.records.map((r) => r.record.type);
    expect(types[0]).toBe('RESET');
    expect(types.at(-1)).toBe('SYNCED');
    const state = changes(c);
    expect(state.every((x) => x.type === 'ADDED' && x.id === undefined)).toBe(true);
    expect(state.map((x) => x.event.eventId).sort()).toEqual([...ids].sort());
  });

  it('a RESET sends the current state even when the watch asked for no initial state', async () => {
    const other = addEvent(stack, { reason: 'ResetOther' });
    const wanted = [addEvent(stack, { reason: 'ResetState' }), addEvent(stack, { reason: 'ResetState' })];
    await eventually(async () =>
      expect(
        (await stack.get<unknown[]>(`${stack.cluster}/kubernetes-events?reason=ResetState`)).body,
      ).toHaveLength(2),
    );
    const c = await watch({
      query: 'reason=ResetState&sendInitialEvents=false',
      headers: { 'last-event-id': '1' },
    });
    await c.until(synced);
    expect(c.records[0]!.record.type).toBe('RESET');
    expect(
      changes(c)
        .map((x) => x.event.eventId)
        .sort(),
    ).toEqual([...wanted].sort());
    expect(changes(c).some((x) => x.event.eventId === other)).toBe(false);
  });

  it('the changes a resume replays pass the filter like live ones: others left out, an event entering it ADDED', async () => {
    const since = new Date(Date.now() - 600_000).toISOString();
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const first = await watch({ query: `reason=ResumeFilter&since=${since}&sendInitialEvents=false` });
    const mark = await first.until(synced);
    first.close();
    // Away: an event of another reason, one that starts outside the range and then enters it, and one inside.
    addEvent(stack, { reason: 'ResumeFilterOther' });
    const entering = addEvent(stack, {
      reason: 'ResumeFilter',
      firstTimestamp: hourAgo,
      lastTimestamp: hourAgo,
    });
    const inside = addEvent(stack, { reason: 'ResumeFilter' });
    await eventually(async () => expect(feed().head).toBe(Number(mark.lastEventId) + 3));
    const raw = stack.sim.store.list('events').find((e) => e.metadata.uid === entering)!;
    stack.sim.store.bumpEvent(raw.metadata.namespace!, raw.metadata.name);
    await eventually(async () => expect(feed().head).toBe(Number(mark.lastEventId) + 4));

    const again = await watch({
      query: `reason=ResumeFilter&since=${since}`,
      headers: { 'last-event-id': mark.lastEventId! },
    });
    await again.until(synced);
    expect(changes(again).map((x) => [x.type, x.event.eventId])).toEqual([
      ['ADDED', inside],
      ['ADDED', entering],
    ]);
  });
});

describe('event watch: bounds and ends', () => {
  it('SSE opens with the retry delay the service is configured with', async () => {
    const abort = new AbortController();
    const res = await fetch(
      `${stack.url}${stack.cluster}/kubernetes-events?watch=true&sendInitialEvents=false`,
      {
        headers: { ...stack.session.headers, accept: 'text/event-stream' },
        signal: abort.signal,
      },
    );
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const sse = new SseParser();
    let text = '';
    try {
      while (!text.includes('event: synced')) {
        const { value } = await reader.read();
        text += value;
        sse.push(value ?? '');
      }
    } finally {
      abort.abort();
    }
    expect(text.startsWith(`retry: ${RETRY_MS}\n\n`)).toBe(true);
    expect(sse.retryMs).toBe(RETRY_MS);
  });

  it('eight watches of one session are allowed; a ninth is refused until one of the eight ends', async () => {
    const eight = [];
    for (let i = 0; i < 8; i++) eight.push(await watch({ query: 'sendInitialEvents=false' }));
    expect(eight.map((c) => c.status)).toEqual(Array(8).fill(200));
    const ninth = await stack.get<Problem>(`${stack.cluster}/kubernetes-events?watch=true`);
    expect(ninth.status).toBe(429);
    expect(ninth.body.limit).toBe(8);
    eight[5]!.close();
    await eventually(async () => expect(stack.service.openEventWatches()).toBe(7));
    const again = await watch({ query: 'sendInitialEvents=false' });
    expect(again.status).toBe(200);
    await again.until(synced);
  });

  it('a watch refused for a cluster that does not exist gives its slot back', async () => {
    const path = '/v1/workspaces/default/observability/no-such-cluster/kubernetes-events?watch=true';
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await stack.get<Problem>(path)).status);
    expect(statuses).toEqual(Array(10).fill(404));
    expect(stack.service.openEventWatches()).toBe(0);
  });

  it("a watch ends with ERROR cluster_unreachable when the service stops watching the cluster's events", async () => {
    const c = await watch({ query: 'sendInitialEvents=false' });
    await c.until(synced);
    // Nobody else read the events: the sweep of idle caches stops the event cache under the watch.
    await stack.service.registry.allClusters()[0]!.sweep(-1);
    const error = await c.until((r) => r.type === 'ERROR');
    expect(error.event).toBe('error');
    expect((error.record as { problem: Problem }).problem.code).toBe('cluster_unreachable');
    await c.ended;
  });

  it('an id from before the service stopped watching the events cannot be resumed: RESET', async () => {
    const c = await watch({ query: 'sendInitialEvents=false&reason=AfterGap' });
    const mark = await c.until(synced);
    await stack.service.registry.allClusters()[0]!.sweep(-1);
    await c.until((r) => r.type === 'ERROR');
    const kept = addEvent(stack, { reason: 'AfterGap' });
    const again = await watch({ query: 'reason=AfterGap', headers: { 'last-event-id': mark.lastEventId! } });
    await again.until(synced);
    expect(again.records[0]!.record.type).toBe('RESET');
    expect(changes(again).map((x) => x.event.eventId)).toEqual([kept]);
  });
});
