/**
 * The timeline and groups of the live events (no includeExpired), over real HTTP: the range the
 * timeline covers, paging of the groups, how often a snapshot's events are grouped, and the stale
 * mark once the cluster cannot be reached. Each test adds events of its own namespace.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventGroup, EventTimeline } from '../../../../src-shared/contract/event-history-models';
import type { EventRecord } from '../../../../src-shared/contract/models';
import { eventually } from '../../test-support/eventually.test-support';
import { type ProxiedStack, STALE, startProxiedStack } from '../../test-support/faults.test-support';
import type { Stack } from '../../test-support/harness.test-support';

/** Every grouping of live events, counted: the real function, called through. */
const grouped = vi.hoisted(() => ({ calls: 0 }));
vi.mock('./aggregate', async (importOriginal) => {
  const real = await importOriginal<typeof import('./aggregate')>();
  return {
    ...real,
    liveGroups: (...args: Parameters<typeof real.liveGroups>) => {
      grouped.calls++;
      return real.liveGroups(...args);
    },
  };
});

let proxied: ProxiedStack;
let stack: Stack;
beforeAll(async () => {
  // Frozen simulator: the grouping-cache test counts regroupings of one unchanging event snapshot.
  proxied = await startProxiedStack({ simulator: { listOrder: 'scrambled', tickMs: false } });
  stack = proxied.stack;
});
afterAll(async () => proxied?.close());

const HOUR = 3_600_000;
/** Whole seconds, so an instant reads back as the same ISO text. */
const NOW = Math.floor(Date.now() / 1_000) * 1_000;
const iso = (ms: number) => new Date(ms).toISOString();
const base = (path: string, query: string) => `${stack.cluster}/kubernetes-events${path}?${query}`;

/** Adds events to `namespace` (one per name, `hoursAgo` each) and waits until the list has them all. */
async function added(namespace: string, events: ReadonlyArray<{ name: string; hoursAgo: number }>) {
  for (const e of events) {
    const at = iso(NOW - e.hoursAgo * HOUR);
    stack.sim.store.addEvent({
      involvedObject: { kind: 'Pod', name: e.name, namespace, uid: `uid-${e.name}` },
      metadata: { namespace },
      reason: 'Started',
      message: `${e.name} started`,
      firstTimestamp: at,
      lastTimestamp: at,
    });
  }
  await eventually(async () => {
    const res = await stack.get<EventRecord[]>(base('', `namespace=${namespace}&limit=100`));
    expect(res.body).toHaveLength(events.length);
  });
}

describe('the live timeline', () => {
  it('covers exactly since to until when they are given, not the span of the events', async () => {
    await added('timeline-range', [
      { name: 'b', hoursAgo: 2 },
      { name: 'c', hoursAgo: 1 },
      { name: 'a', hoursAgo: 3 },
    ]);
    const [since, until] = [iso(NOW - 5 * HOUR), iso(NOW - HOUR / 2)];
    const res = await stack.get<EventTimeline>(
      base('/timeline', `namespace=timeline-range&since=${since}&until=${until}&buckets=9`),
    );
    expect(res.status).toBe(200);
    expect([res.body.from, res.body.until]).toEqual([since, until]);
    expect(res.body.buckets.reduce((n, b) => n + b.normal, 0)).toBe(3);
  });
});

describe('the live groups', () => {
  it('a page holds limit groups from offset, of the whole grouped list', async () => {
    const names = ['g-4', 'g-1', 'g-5', 'g-3', 'g-2'];
    await added(
      'groups-paging',
      names.map((name, i) => ({ name, hoursAgo: i + 1 })),
    );
    const all = await stack.get<EventGroup[]>(base('/groups', 'namespace=groups-paging&limit=100'));
    expect(all.body.map((g) => g.involvedObject.name)).toEqual(names);
    const page = await stack.get<EventGroup[]>(base('/groups', 'namespace=groups-paging&limit=2&offset=1'));
    expect(page.body).toEqual(all.body.slice(1, 3));
    expect(page.headers.get('x-total')).toBe('5');
  });

  it('the events of one snapshot are grouped once per filter, and the last 8 filters are kept', async () => {
    await added('groups-memo', [
      { name: 'm-2', hoursAgo: 2 },
      { name: 'm-1', hoursAgo: 1 },
      { name: 'm-3', hoursAgo: 3 },
    ]);
    const groups = (query: string) =>
      stack.get<EventGroup[]>(base('/groups', `namespace=groups-memo&${query}`));
    const before = grouped.calls;
    // Every page of one filter: one grouping.
    const pages = [
      await groups('limit=1&offset=0'),
      await groups('limit=1&offset=1'),
      await groups('limit=1&offset=2'),
    ];
    expect(pages.map((p) => p.body[0]!.involvedObject.name)).toEqual(['m-1', 'm-2', 'm-3']);
    expect(grouped.calls - before).toBe(1);
    // Eight more filters: the first one is dropped, the others kept.
    for (let i = 1; i <= 8; i++) await groups(`reason=Reason${i}`);
    expect(grouped.calls - before).toBe(9);
    await groups('reason=Reason1');
    expect(grouped.calls - before).toBe(9);
    await groups('limit=1');
    expect(grouped.calls - before).toBe(10);
  });
});

describe('a cluster that cannot be reached any more', () => {
  it('its live timeline and groups are answered from the cache, marked stale', async () => {
    await added('stale-views', [{ name: 's-1', hoursAgo: 1 }]);
    const paths = [base('/timeline', 'namespace=stale-views'), base('/groups', 'namespace=stale-views')];
    for (const path of paths) expect((await stack.get(path)).headers.get(STALE)).toBeNull();
    await proxied.proxy.down();
    try {
      for (const path of paths) {
        await eventually(async () => {
          const res = await stack.get(path);
          expect(res.status).toBe(200);
          expect(res.headers.get(STALE)).not.toBeNull();
        });
      }
    } finally {
      await proxied.proxy.up();
    }
  });
});
