/**
 * The event watch over real HTTP: framing (SSE and NDJSON) and the initial state, changes as they
 * happen, resume with Last-Event-ID, liveness and bounds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventChange, EventWatchRecord } from '../../../../src-shared/contract/event-watch-operations';
import type { EventRecord } from '../../../../src-shared/contract/models';
import type { Problem } from '../../../../src-shared/contract/problem';
import { eventually } from '../../test-support/eventually.test-support';
import { collectAll, type Stack, startStack } from '../../test-support/harness.test-support';
import { login } from '../../test-support/login.test-support';
import { addEvent, changeOf, openWatch, type WatchClient } from './event-watch.test-support';

const MAX_WATCHES = 3;
const FEED_CAPACITY = 40;

let stack: Stack;
const open: WatchClient[] = [];
beforeAll(async () => {
  stack = await startStack({
    service: {
      eventWatch: { heartbeatMs: 200, maxPerCredential: MAX_WATCHES, credentialCheckMs: 100 },
      watch: { feedCapacity: FEED_CAPACITY },
    },
  });
});
afterAll(async () => {
  for (const c of open) c.close();
  await stack?.close();
});

async function watch(...args: Parameters<typeof openWatch> extends [Stack, ...infer R] ? R : never) {
  const c = await openWatch(stack, ...args);
  open.push(c);
  return c;
}

const synced = (r: EventWatchRecord) => r.type === 'SYNCED';
const about = (eventId: string, type?: EventChange['type']) => (r: EventWatchRecord) => {
  const c = changeOf(r);
  return c !== undefined && c.event.eventId === eventId && (type === undefined || c.type === type);
};
const changes = (c: WatchClient) => c.records.map((r) => changeOf(r.record)).filter((x) => x !== undefined);
const feed = () => stack.service.registry.allClusters()[0]!.eventFeed;

/** Closes a client and waits until the service let go of it. */
async function closed(c: WatchClient) {
  c.close();
  await eventually(async () => expect(stack.service.openEventWatches()).toBe(0));
}

describe('event watch: framing and the initial state', () => {
  it('answers text/event-stream: the current state as ADDED records without ids, then SYNCED with an id', async () => {
    const listed = await collectAll<EventRecord>(stack, `${stack.cluster}/kubernetes-events?limit=1000`);
    const c = await watch();
    expect(c.status).toBe(200);
    expect(c.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(c.headers.get('cache-control')).toBe('no-store');
    const done = await c.until(synced);
    expect(done.event).toBe('synced');
    expect(done.lastEventId).toMatch(/^\d+$/);
    const replay = c.records.filter((r) => r.record.type === 'ADDED');
    for (const r of replay) {
      expect(r.event).toBe('message');
      expect('id' in r.record).toBe(false);
    }
    expect(new Set(replay.map((r) => (r.record as EventChange).event.eventId))).toEqual(
      new Set(listed.map((e) => e.eventId)),
    );
    // The records are the list's records, field for field.
    const byId = new Map(listed.map((e) => [e.eventId, e]));
    for (const r of replay.slice(0, 20)) {
      const e = (r.record as EventChange).event;
      expect(e).toEqual(byId.get(e.eventId));
    }
    await closed(c);
  });

  it('answers application/x-ndjson when Accept asks for it, one JSON record per line', async () => {
    const c = await watch({ ndjson: true, query: 'type=WARNING' });
    expect(c.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    await c.until(synced);
    const added = changes(c);
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((a) => a.type === 'ADDED' && a.event.type === 'WARNING')).toBe(true);
    await closed(c);
  });

  it('sendInitialEvents=false starts at the end of the feed, with no replay', async () => {
    const c = await watch({ query: 'sendInitialEvents=false' });
    await c.until(synced);
    expect(changes(c)).toEqual([]);
    await closed(c);
  });

  it('refuses an Accept it cannot answer (406) and includeExpired (400)', async () => {
    const bad = await stack.get<Problem>(`${stack.cluster}/kubernetes-events?watch=true`, {
      accept: 'application/json',
    });
    expect(bad.status).toBe(406);
    expect(bad.body.code).toBe('not_acceptable');
    const expired = await stack.get<Problem>(
      `${stack.cluster}/kubernetes-events?watch=true&includeExpired=true`,
    );
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('invalid_query');
    const flag = await stack.get<Problem>(`${stack.cluster}/kubernetes-events?watch=yes`);
    expect(flag.status).toBe(400);
    expect(flag.body.detail).toMatch(/watch must be true or false/);
    // watch=false is the list.
    const list = await stack.get<EventRecord[]>(`${stack.cluster}/kubernetes-events?watch=false&limit=1`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(stack.service.openEventWatches()).toBe(0);
  });
});

describe('event watch: changes', () => {
  it('sends ADDED, MODIFIED and DELETED with increasing ids, filtered like the list', async () => {
    const c = await watch({ query: 'reason=WatchChange&sendInitialEvents=false' });
    await c.until(synced);
    const other = addEvent(stack, { reason: 'WatchOther' });
    const id = addEvent(stack, { reason: 'WatchChange' });
    const added = await c.until(about(id, 'ADDED'));
    const raw = stack.sim.store.list('events').find((e) => e.metadata.uid === id)!;
    stack.sim.store.bumpEvent(raw.metadata.namespace!, raw.metadata.name, { message: 'again' });
    const modified = await c.until(about(id, 'MODIFIED'));
    expect((modified.record as EventChange).event.count).toBe(2);
    expect((modified.record as EventChange).event.message).toBe('again');
    stack.sim.store.remove('events', raw.metadata.namespace!, raw.metadata.name);
    const deleted = await c.until(about(id, 'DELETED'));
    const ids = [added, modified, deleted].map((r) => Number(r.lastEventId));
    expect(ids[0]! < ids[1]! && ids[1]! < ids[2]!).toBe(true);
    expect((deleted.record as EventChange).id).toBe(deleted.lastEventId);
    expect(changes(c).some((x) => x.event.eventId === other)).toBe(false);
    await closed(c);
  });

  it('turns a change that moves an event into or out of the filter into ADDED or DELETED', async () => {
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const id = addEvent(stack, { reason: 'WatchEnter', firstTimestamp: hourAgo, lastTimestamp: hourAgo });
    await eventually(async () =>
      expect(
        (await stack.get<EventRecord[]>(`${stack.cluster}/kubernetes-events?reason=WatchEnter`)).body,
      ).toHaveLength(1),
    );
    const since = new Date(Date.now() - 600_000).toISOString();
    const inRange = await watch({ query: `reason=WatchEnter&since=${since}` });
    const outOfRange = await watch({ query: `reason=WatchEnter&until=${since}` });
    await Promise.all([inRange.until(synced), outOfRange.until(synced)]);
    expect(changes(inRange)).toEqual([]);
    expect(changes(outOfRange).map((x) => x.event.eventId)).toEqual([id]);
    const raw = stack.sim.store.list('events').find((e) => e.metadata.uid === id)!;
    // One more occurrence now: its lastTimestamp moves into the one range and out of the other.
    stack.sim.store.bumpEvent(raw.metadata.namespace!, raw.metadata.name);
    await inRange.until(about(id, 'ADDED'));
    await outOfRange.until(about(id, 'DELETED'));
    inRange.close();
    await closed(outOfRange);
  });

  it('leaves out what a disabled monitoring flag covers, as the list does', async () => {
    const path = '/v1/workspaces/default/clusters/sim-test';
    const patch = (resourceEventsEnabled: boolean) =>
      stack.send('PATCH', path, { clusterAgent: { monitoring: { resourceEventsEnabled } } });
    const c = await watch({ query: 'sendInitialEvents=false&reason=WatchFlag' });
    await c.until(synced);
    expect((await patch(false)).status).toBe(200);
    try {
      const hidden = addEvent(stack, { reason: 'WatchFlag' });
      await eventually(async () =>
        expect(stack.sim.store.list('events').some((e) => e.metadata.uid === hidden)).toBe(true),
      );
      expect((await patch(true)).status).toBe(200);
      const shown = addEvent(stack, { reason: 'WatchFlag' });
      await c.until(about(shown, 'ADDED'));
      expect(changes(c).map((x) => x.event.eventId)).toEqual([shown]);
    } finally {
      await patch(true);
    }
    await closed(c);
  });
});

describe('event watch: resume with Last-Event-ID', () => {
  it('resumes after the id given with exactly the changes missed: no duplicates, no gaps, no replay', async () => {
    const first = await watch({ query: 'reason=WatchResume' });
    const mark = await first.until(synced);
    const a = addEvent(stack, { reason: 'WatchResume' });
    const seenA = await first.until(about(a));
    await closed(first);
    const b = addEvent(stack, { reason: 'WatchResume' });
    const c2 = addEvent(stack, { reason: 'WatchResume' });
    await eventually(async () =>
      expect(feed().since(Number(seenA.lastEventId))?.length).toBeGreaterThanOrEqual(2),
    );

    const again = await watch({
      query: 'reason=WatchResume',
      headers: { 'last-event-id': seenA.lastEventId! },
    });
    await again.until(synced);
    expect(changes(again).map((x) => [x.type, x.event.eventId])).toEqual([
      ['ADDED', b],
      ['ADDED', c2],
    ]);
    expect(again.records.some((r) => r.record.type === 'RESET')).toBe(false);
    await closed(again);

    // The same resume point as a query parameter; from the mark, a's change comes too.
    const fromMark = await watch({ query: `reason=WatchResume&lastEventId=${mark.lastEventId}` });
    await fromMark.until(synced);
    expect(changes(fromMark).map((x) => x.event.eventId)).toEqual([a, b, c2]);
    await closed(fromMark);
  });

  it('answers an id too old to resume with RESET, then the current state, then SYNCED', async () => {
    const c = await watch({ query: 'reason=WatchReset' });
    const mark = await c.until(synced);
    await closed(c);
    const kept = addEvent(stack, { reason: 'WatchReset' });
    // More changes than the feed keeps push the mark out of it.
    for (let i = 0; i < FEED_CAPACITY + 5; i++) addEvent(stack, { reason: 'WatchFiller' });
    await eventually(async () => expect(feed().since(Number(mark.lastEventId))).toBeUndefined());
    const again = await watch({
      headers: { 'last-event-id': mark.lastEventId! },
      query: 'reason=WatchReset',
    });
    await again.until(synced);
    const types = again.records.map((r) => r.record.type);
    expect(types[0]).toBe('RESET');
    expect(again.records[0]!.event).toBe('reset');
    expect(types.at(-1)).toBe('SYNCED');
    expect(changes(again).map((x) => [x.type, x.event.eventId])).toEqual([['ADDED', kept]]);
    await closed(again);
  });

  it('answers an id that is no id at all with RESET, the current state and SYNCED, as EventSource expects', async () => {
    const kept = addEvent(stack, { reason: 'WatchGarbageId' });
    for (const [how, id] of [
      ['header', 'abc'],
      ['header', '-1'],
      ['header', '1e9'],
      ['query', 'not%20an%20id'],
    ] as const) {
      const c = await watch(
        how === 'header'
          ? { headers: { 'last-event-id': id }, query: 'reason=WatchGarbageId' }
          : { query: `reason=WatchGarbageId&lastEventId=${id}` },
      );
      expect(c.status, id).toBe(200);
      await c.until(synced);
      const first = c.records[0]!.record;
      expect(first.type, id).toBe('RESET');
      expect(first.type === 'RESET' && first.reason).toContain('not an id this watch sends');
      expect(changes(c).map((x) => [x.type, x.event.eventId])).toEqual([['ADDED', kept]]);
      await closed(c);
    }
  });

  it('takes an empty lastEventId for none: the state, with no RESET', async () => {
    const c = await watch({ query: 'reason=WatchGarbageId&lastEventId=' });
    await c.until(synced);
    expect(c.records.map((r) => r.record.type)).not.toContain('RESET');
    await closed(c);
  });

  it('answers an id from another run (ahead of the feed) with RESET', async () => {
    const c = await watch({ headers: { 'last-event-id': '99999999999999999' }, query: 'reason=None' });
    await c.until(synced);
    expect(c.records[0]!.record.type).toBe('RESET');
    await closed(c);
  });
});

describe('event watch: liveness and bounds', () => {
  it('sends heartbeats while nothing changes, and a BOOKMARK when only filtered-out changes moved the feed', async () => {
    const c = await watch({ query: 'reason=WatchQuiet&sendInitialEvents=false' });
    await c.until(synced);
    await eventually(async () => expect(c.heartbeats).toBeGreaterThanOrEqual(2));
    addEvent(stack, { reason: 'WatchNoise' });
    const bookmark = await c.until((r) => r.type === 'BOOKMARK');
    expect(bookmark.event).toBe('bookmark');
    expect(Number(bookmark.lastEventId)).toBe(feed().head);
    await closed(c);
  });

  it('heartbeats over NDJSON are HEARTBEAT lines', async () => {
    const c = await watch({ ndjson: true, query: 'reason=WatchQuiet&sendInitialEvents=false' });
    await eventually(async () => expect(c.heartbeats).toBeGreaterThanOrEqual(2));
    await closed(c);
  });

  it('a client that goes away ends the server side: no listener and no slot left behind', async () => {
    const before = feed().listenerCount;
    const clients = [await watch(), await watch({ ndjson: true })];
    await Promise.all(clients.map((c) => c.until(synced)));
    expect(feed().listenerCount).toBe(before + 2);
    for (const c of clients) c.close();
    await eventually(async () => {
      expect(feed().listenerCount).toBe(before);
      expect(stack.service.openEventWatches()).toBe(0);
    });
  });

  it(`refuses watch ${MAX_WATCHES + 1} of one session with 429 rate_limited and Retry-After; another session is not affected`, async () => {
    const clients = [];
    for (let i = 0; i < MAX_WATCHES; i++) clients.push(await watch({ query: 'sendInitialEvents=false' }));
    expect(clients.map((c) => c.status)).toEqual(Array(MAX_WATCHES).fill(200));
    const refused = await stack.get<Problem>(`${stack.cluster}/kubernetes-events?watch=true`);
    expect(refused.status).toBe(429);
    expect(refused.contentType).toMatch(/^application\/problem\+json/);
    expect(refused.body.code).toBe('rate_limited');
    expect(refused.body.limit).toBe(MAX_WATCHES);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await login(stack.url);
    const elsewhere = await watch({ headers: other.headers, query: 'sendInitialEvents=false' });
    expect(elsewhere.status).toBe(200);
    clients[0]!.close();
    await eventually(async () => expect(stack.service.openEventWatches()).toBe(MAX_WATCHES));
    const next = await watch({ query: 'sendInitialEvents=false' });
    expect(next.status).toBe(200);
    for (const c of [...clients, elsewhere, next]) c.close();
    await eventually(async () => expect(stack.service.openEventWatches()).toBe(0));
  });

  it('ends with an ERROR event (invalid_token) once its session is logged out', async () => {
    const other = await login(stack.url);
    const c = await watch({ headers: other.headers, query: 'sendInitialEvents=false' });
    await c.until(synced);
    const out = await stack.send(
      'POST',
      `/v1/auth/sessions/${other.sessionId}/logout`,
      undefined,
      other.headers,
    );
    expect(out.status).toBeLessThan(300);
    const error = await c.until((r) => r.type === 'ERROR');
    expect(error.event).toBe('error');
    expect((error.record as { problem: Problem }).problem.code).toBe('invalid_token');
    await c.ended;
    await eventually(async () => expect(stack.service.openEventWatches()).toBe(0));
  });
});
