/**
 * On a snapshot cluster every relative duration counts back from when the snapshot was taken, not
 * from now: `since=15m` on a snapshot taken months ago shows its last 15 minutes. Absolute instants
 * stay as they are. Over real HTTP; the fixture is captured from a demo simulator whose clock
 * stands at TAKEN, so its events lie in the hours before TAKEN and none in the months since.
 */
import { join } from 'node:path';
import { DEMO_PODS, type KubeObject, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventGroup, EventTimeline } from '../../../src-shared/contract/event-history-models';
import { type EventWatchRecord, NDJSON_WATCH } from '../../../src-shared/contract/event-watch-operations';
import type { EventRecord } from '../../../src-shared/contract/models';
import { checkRecordText } from '../test-support/contract-check.test-support';
import { writeSnapshotFixture } from './open-fixture.test-support';
import {
  type Cluster,
  isExpired,
  LOG_PODS,
  type OpenStack,
  startOpenStack,
} from './snapshot-open.test-support';

const TAKEN_AT = '2026-03-01T12:00:00Z';
const TAKEN = Date.parse(TAKEN_AT);
const MIN = 60_000;

let stack: OpenStack;
let cluster: Cluster;
let base: string;
/** Every captured event's uid and when it was last seen, and whether the file holds it as expired. */
let captured: Array<{ uid: string; lastMs: number; expired: boolean }>;

const lastSeen = (e: KubeObject) =>
  Date.parse(String(e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp));

beforeAll(async () => {
  stack = await startOpenStack();
  const file = join(stack.dir, 'yesterday.skiff');
  const sim = await startSimulator({ tickMs: false, now: () => TAKEN });
  try {
    await writeSnapshotFixture(sim, file, {
      context: 'prod-eu',
      takenAt: TAKEN_AT,
      expired: isExpired,
      logPods: LOG_PODS,
    });
    captured = sim.store.list('events').map((e) => ({
      uid: e.metadata.uid,
      lastMs: lastSeen(e),
      expired: isExpired(e),
    }));
  } finally {
    await sim.close();
  }
  cluster = await stack.service.snapshots.open(file);
  base = `/v1/workspaces/default/observability/${cluster.clusterId}/kubernetes-events`;
});
afterAll(() => stack?.close());

/** The uids of the captured events last seen in [from, until] (either end open), live only unless `expired`. */
function expected(range: { from?: number; until?: number }, opts: { expired?: boolean } = {}): string[] {
  return captured
    .filter((e) => opts.expired || !e.expired)
    .filter(
      (e) =>
        (range.from === undefined || e.lastMs >= range.from) &&
        (range.until === undefined || e.lastMs <= range.until),
    )
    .map((e) => e.uid)
    .sort();
}

async function listIds(query: string): Promise<string[]> {
  const res = await stack.call<EventRecord[]>('GET', `${base}?limit=500&${query}`);
  expect(res.status, res.text).toBe(200);
  // One page holds them all, so the page is the whole answer.
  expect(res.headers.get('x-total')).toBe(String(res.body.length));
  return res.body.map((e) => e.eventId).sort();
}

describe('relative durations on a snapshot count back from its takenAt', () => {
  it('the fixture has events both inside and outside the windows, and none near now', () => {
    // Otherwise a window that counted from now, or no filter at all, could pass these tests.
    const live = expected({});
    expect(expected({ from: TAKEN - 15 * MIN }).length).toBeGreaterThan(0);
    expect(expected({ from: TAKEN - 15 * MIN }).length).toBeLessThan(live.length);
    expect(expected({ until: TAKEN - 60 * MIN }).length).toBeGreaterThan(0);
    expect(captured.every((e) => e.lastMs <= TAKEN)).toBe(true);
    expect(Date.now() - TAKEN).toBeGreaterThan(24 * 60 * MIN);
  });

  it('the events list: since=15m is the last 15 minutes before takenAt', async () => {
    expect(await listIds('since=15m')).toEqual(expected({ from: TAKEN - 15 * MIN }));
  });

  it('the events list: until=1h is everything up to an hour before takenAt', async () => {
    expect(await listIds('until=1h')).toEqual(expected({ until: TAKEN - 60 * MIN }));
  });

  it('the events list with includeExpired=true: since=1h covers the recorded history of that hour too', async () => {
    const ids = await listIds('since=1h&includeExpired=true');
    expect(ids).toEqual(expected({ from: TAKEN - 60 * MIN }, { expired: true }));
    expect(ids.length).toBeGreaterThan(expected({ from: TAKEN - 60 * MIN }).length);
  });

  it('absolute instants are not moved: since=<instant> means that instant', async () => {
    const from = TAKEN - 25 * MIN;
    const ids = await listIds(`since=${new Date(from).toISOString()}`);
    expect(ids).toEqual(expected({ from }));
    // The same window as a duration of 25m counts from takenAt, so it lands on the same instant.
    expect(await listIds('since=25m')).toEqual(ids);
    // And an instant after takenAt leaves nothing, as it would on any cluster.
    expect(await listIds(`since=${new Date(TAKEN + MIN).toISOString()}`)).toEqual([]);
  });

  it('the timeline: since=1h spans the hour before takenAt and counts its events', async () => {
    for (const includeExpired of [false, true]) {
      const res = await stack.call<EventTimeline>(
        'GET',
        `${base}/timeline?since=1h&buckets=12${includeExpired ? '&includeExpired=true' : ''}`,
      );
      expect(res.status, res.text).toBe(200);
      expect(Date.parse(res.body.from)).toBe(TAKEN - 60 * MIN);
      expect(Date.parse(res.body.until)).toBe(TAKEN);
      const counted = res.body.buckets.reduce((n, b) => n + b.normal + b.warning, 0);
      expect(counted).toBe(expected({ from: TAKEN - 60 * MIN }, { expired: includeExpired }).length);
    }
  });

  it('the timeline with no range ends at takenAt, not now', async () => {
    const res = await stack.call<EventTimeline>('GET', `${base}/timeline?buckets=10`);
    expect(res.status, res.text).toBe(200);
    expect(Date.parse(res.body.until)).toBe(TAKEN);
    expect(Date.parse(res.body.from)).toBe(
      Math.min(...captured.filter((e) => !e.expired).map((e) => e.lastMs)),
    );
  });

  it('the groups: since=15m groups the last 15 minutes before takenAt', async () => {
    for (const includeExpired of [false, true]) {
      const res = await stack.call<EventGroup[]>(
        'GET',
        `${base}/groups?since=15m&limit=500${includeExpired ? '&includeExpired=true' : ''}`,
      );
      expect(res.status, res.text).toBe(200);
      const events = res.body.reduce((n, g) => n + g.events, 0);
      expect(events).toBe(expected({ from: TAKEN - 15 * MIN }, { expired: includeExpired }).length);
      for (const g of res.body) expect(Date.parse(g.lastTimestamp)).toBeGreaterThanOrEqual(TAKEN - 15 * MIN);
    }
  });

  it('the event watch: since=15m replays the last 15 minutes before takenAt', async () => {
    const abort = new AbortController();
    const res = await fetch(`${stack.url}${base}?watch=true&since=15m`, {
      headers: { ...stack.admin.headers, accept: 'application/x-ndjson' },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    const added: string[] = [];
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    try {
      synced: for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the watch ended before SYNCED');
        buffered += value;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines.filter((l) => l.trim() !== '')) {
          const record = checkRecordText<EventWatchRecord>('watchEvents', NDJSON_WATCH, line);
          if (record.type === 'SYNCED') break synced;
          if (record.type === 'ADDED') added.push(record.event.eventId);
        }
      }
    } finally {
      abort.abort();
      await reader.cancel().catch(() => undefined);
    }
    expect(added.sort()).toEqual(expected({ from: TAKEN - 15 * MIN }));
  });

  it('the logs: since=10m and until=20m count back from takenAt too', async () => {
    const { namespace, name, container } = DEMO_PODS.checkout;
    const logs = `/v1/workspaces/default/observability/${cluster.clusterId}/kubernetes-proxy/namespaces/${namespace}/pod/${name}/logs?container=${container}&timestamps=true`;
    const timesOf = async (query: string) => {
      const res = await stack.call('GET', `${logs}${query}`);
      expect(res.status, res.text).toBe(200);
      return res.text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => Date.parse(l.slice(0, l.indexOf(' '))));
    };
    const all = await timesOf('');
    const recent = all.filter((t) => t >= TAKEN - 10 * MIN);
    const older = all.filter((t) => t <= TAKEN - 20 * MIN);
    // The captured log has lines on both sides of each cut, all before takenAt.
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.length).toBeLessThan(all.length);
    expect(older.length).toBeGreaterThan(0);
    expect(Math.max(...all)).toBeLessThanOrEqual(TAKEN);
    expect(await timesOf('&since=10m')).toEqual(recent);
    expect(await timesOf('&until=20m')).toEqual(older);
  });
});
