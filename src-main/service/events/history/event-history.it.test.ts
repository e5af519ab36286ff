/**
 * The event history over real HTTP: recording, expiry, restart, includeExpired paging,
 * X-Expired-Rows, filters, the timeline and groups, and bad input. It runs past 300 lines
 * because these rules share one recorded cluster, set up once.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import type { EventInput } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventGroup, EventTimeline } from '../../../../src-shared/contract/event-history-models';
import type { EventRecord } from '../../../../src-shared/contract/models';
import type { Problem } from '../../../../src-shared/contract/problem';
import type { Principal } from '../../context';
import { createService, type Service } from '../../index';
import { loadContexts } from '../../kube/kubeconfig';
import { silentLogger } from '../../logger';
import { checkedBody } from '../../test-support/contract-check.test-support';
import { eventually } from '../../test-support/eventually.test-support';
import {
  CLUSTER_ID,
  type HttpResult,
  parseLinks,
  type Stack,
  startStack,
} from '../../test-support/harness.test-support';
import { type LoggedIn, login, TEST_ADMIN_PASSWORD } from '../../test-support/login.test-support';

/**
 * The event history over real HTTP: the simulator's clock starts 400 days back so the demo data
 * is 400 days old; the clock then moves to today and the simulator's event TTL (365 days) deletes
 * every demo event, as an apiserver with --event-ttl does. The fresh events the tests add stay.
 */

const DAY = 86_400_000;
const TTL_MS = 365 * DAY;
let simNow = Date.now() - 400 * DAY;
let stack: Stack;
/** The records the live list served before the TTL ran, by eventId. */
const before = new Map<string, EventRecord>();
const HISTORY = { retentionMs: 1_000 * DAY, flushMs: 20 };

/** The in-process caller (IPC) the desktop window is: an administrator. */
const ADMIN: Principal = { accountId: 'admin', admin: true, workspaces: 'all' };
const events = (query = '') => `${stack.cluster}/kubernetes-events${query ? `?${query}` : ''}`;

async function walk(base: string, get = (p: string) => stack.get<EventRecord[]>(p)) {
  const rows: EventRecord[] = [];
  const expired = new Set<string>();
  let next: string | undefined = base;
  let totals = new Set<string>();
  while (next) {
    const res: HttpResult<EventRecord[]> = await get(next);
    expect(res.status).toBe(200);
    for (const i of expandRanges(res.headers.get('x-expired-rows') ?? '')) expired.add(res.body[i]!.eventId);
    rows.push(...res.body);
    totals = totals.add(res.headers.get('x-total') ?? '');
    next = parseLinks(res.headers.get('link') ?? '').next;
  }
  expect(totals.size).toBe(1);
  expect(Number([...totals][0])).toBe(rows.length);
  return { rows, expired };
}

function expandRanges(text: string): number[] {
  if (text === '') return [];
  return text.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number) as [number, number | undefined];
    return Array.from({ length: (b ?? a) - a + 1 }, (_, i) => a + i);
  });
}

function addFresh(input: Partial<EventInput> & { reason: string }, namespace = 'shop') {
  return stack.sim.store.addEvent({
    involvedObject: {
      kind: 'Pod',
      name: `hist-${input.reason.toLowerCase()}`,
      namespace,
      uid: `uid-${input.reason}`,
    },
    message: `fresh ${input.reason}`,
    ...input,
  });
}

function expectOrdered(rows: readonly EventRecord[]) {
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1]!, rows[i]!];
    const [ta, tb] = [Date.parse(a.lastTimestamp), Date.parse(b.lastTimestamp)];
    expect(ta > tb || (ta === tb && a.eventId < b.eventId), `${a.eventId} before ${b.eventId}`).toBe(true);
  }
}

beforeAll(async () => {
  stack = await startStack({
    simulator: { listOrder: 'scrambled', now: () => simNow, eventTtlMs: TTL_MS },
    service: { eventHistory: HISTORY },
  });
  for (const e of (await walk(events('limit=1000'))).rows) before.set(e.eventId, e);
  // Today: fresh events, two of them tied on lastTimestamp so eventId decides their order.
  simNow = Date.now();
  addFresh({ reason: 'FreshA', type: 'Warning' });
  addFresh({ reason: 'FreshB' });
  addFresh({ reason: 'FreshC', involvedObject: { kind: 'Node', name: 'hist-node', uid: 'uid-node' } });
  await eventually(async () => expect((await stack.get(events('reason=FreshC'))).body).toHaveLength(1));
  // Expire now rather than at the TTL timer's next second; on a loaded machine that timer may have
  // run already, so count what is gone instead of what this call removed.
  stack.sim.expireEvents();
  expect(before.size + 3 - stack.sim.store.list('events').length).toBeGreaterThan(20);
  await eventually(async () => expect((await stack.get(events())).headers.get('x-total')).toBe('3'));
});
afterAll(async () => stack?.close());

describe('event history: recording and includeExpired', () => {
  it('keeps the events the apiserver expired, with the same records, listed only with includeExpired=true', async () => {
    const live = await walk(events('limit=100'));
    expect(live.rows.map((e) => e.reason).sort()).toEqual(['FreshA', 'FreshB', 'FreshC']);
    expect(live.expired.size).toBe(0);

    const all = await walk(events('includeExpired=true&limit=7'));
    expect(all.rows).toHaveLength(before.size + 3);
    for (const e of all.rows) {
      if (e.reason.startsWith('Fresh')) {
        expect(all.expired.has(e.eventId)).toBe(false);
        continue;
      }
      expect(all.expired.has(e.eventId), `${e.eventId} expired`).toBe(true);
      expect(e).toEqual(before.get(e.eventId));
    }
    expect(all.expired.size).toBe(before.size);
    expectOrdered(all.rows);
  });

  it('marks expired rows as ranges of positions on the page (X-Expired-Rows)', async () => {
    // Newest first: the three fresh events lead, the expired ones follow.
    const res = await stack.get<EventRecord[]>(events('includeExpired=true&limit=10'));
    expect(res.headers.get('x-expired-rows')).toBe('3-9');
    const second = await stack.get<EventRecord[]>(events('includeExpired=true&limit=10&offset=10'));
    expect(second.headers.get('x-expired-rows')).toBe('0-9');
    const fresh = await stack.get<EventRecord[]>(events('includeExpired=true&reason=FreshA'));
    expect(fresh.headers.get('x-expired-rows')).toBeNull();
    const plain = await stack.get<EventRecord[]>(events('limit=10'));
    expect(plain.headers.get('x-expired-rows')).toBeNull();
  });

  it('says the same over IPC: PageInfo.expiredRows, and no such field on a page without expired rows', async () => {
    const list = (query: Record<string, string>) =>
      stack.service.invoke(
        'listEvents',
        { params: { workspaceId: 'default', clusterId: CLUSTER_ID }, query, body: undefined },
        { principal: ADMIN, client: { via: 'ipc' }, signal: new AbortController().signal },
      );
    expect((await list({ includeExpired: 'true', limit: '10' })).page).toMatchObject({ expiredRows: '3-9' });
    const fresh = await list({ includeExpired: 'true', reason: 'FreshA' });
    expect(fresh.page).toMatchObject({ total: 1 });
    expect(fresh.page).not.toHaveProperty('expiredRows');
    // IPC reads the records as data, not as the JSON text HTTP sends.
    expect((fresh.data as EventRecord[]).map((e) => e.reason)).toEqual(['FreshA']);
  });

  it('pages with totals that are exact multiples of the limit', async () => {
    const all = (await walk(events('includeExpired=true&limit=1000'))).rows;
    const warnings = all.filter((e) => e.type === 'WARNING');
    // A limit that divides the total: the last page is full and has no next.
    const limit = [5, 4, 3, 2].find((l) => warnings.length % l === 0 && warnings.length / l >= 2)!;
    expect(limit).toBeDefined();
    const last = warnings.length - limit;
    const res = await stack.get<EventRecord[]>(
      events(`includeExpired=true&type=WARNING&limit=${limit}&offset=${last}`),
    );
    expect(res.body.map((e) => e.eventId)).toEqual(warnings.slice(last).map((e) => e.eventId));
    const links = parseLinks(res.headers.get('link') ?? '');
    expect(links.next).toBeUndefined();
    expect(links.last).toContain(`offset=${last}`);
    expect(res.headers.get('x-total')).toBe(String(warnings.length));
    const walked = await walk(events(`includeExpired=true&type=WARNING&limit=${limit}`));
    expect(walked.rows.map((e) => e.eventId)).toEqual(warnings.map((e) => e.eventId));
  });

  it('applies every filter, and since/until bound lastTimestamp in both modes', async () => {
    const all = (await walk(events('includeExpired=true&limit=1000'))).rows;
    const times = [...new Set(all.map((e) => Date.parse(e.lastTimestamp)))].sort((a, b) => a - b);
    const mid = new Date(times[Math.floor(times.length / 2)]!).toISOString();
    const sample = all.find((e) => !e.reason.startsWith('Fresh') && e.involvedObject.namespace !== '')!;
    const cases: Array<[string, (e: EventRecord) => boolean]> = [
      ['type=warning', (e) => e.type === 'WARNING'],
      [`reason=${sample.reason}`, (e) => e.reason === sample.reason],
      [
        `namespace=${sample.involvedObject.namespace}`,
        (e) => e.involvedObject.namespace === sample.involvedObject.namespace,
      ],
      ['kind=node', (e) => e.involvedObject.kind.toLowerCase() === 'node'],
      [`name=${sample.involvedObject.name}`, (e) => e.involvedObject.name === sample.involvedObject.name],
      [`until=${mid}`, (e) => Date.parse(e.lastTimestamp) <= Date.parse(mid)],
      [`since=${mid}`, (e) => Date.parse(e.lastTimestamp) >= Date.parse(mid)],
      [`since=${mid}&until=${mid}`, (e) => Date.parse(e.lastTimestamp) === Date.parse(mid)],
    ];
    for (const [q, keep] of cases) {
      const expected = all.filter(keep).map((e) => e.eventId);
      expect(expected.length, q).toBeGreaterThan(0);
      const got = (await walk(events(`includeExpired=true&limit=50&${q}`))).rows.map((e) => e.eventId);
      expect(got, q).toEqual(expected);
    }
    // The live list takes `until` too: the fresh events are today, so a bound a day back leaves none.
    const dayBack = new Date(Date.now() - DAY).toISOString();
    expect((await stack.get(events(`until=${dayBack}`))).headers.get('x-total')).toBe('0');
    expect(
      (await stack.get(events(`until=${new Date(Date.now() + DAY).toISOString()}`))).headers.get('x-total'),
    ).toBe('3');
  });

  it('sees an event the moment the cache has it, before the recorder flushed on its own', async () => {
    addFresh({ reason: 'Instant' });
    await eventually(
      async () => expect((await stack.get(events('reason=Instant'))).body).toHaveLength(1),
      5_000,
    );
    const res = await stack.get<EventRecord[]>(events('includeExpired=true&reason=Instant'));
    expect(res.body).toHaveLength(1);
    stack.sim.store.remove(
      'events',
      'shop',
      (await stack.direct().listNamespacedEvent({ namespace: 'shop' })).items.find(
        (e) => e.reason === 'Instant',
      )!.metadata!.name!,
    );
    await eventually(async () => expect((await stack.get(events('reason=Instant'))).body).toHaveLength(0));
    const after = await stack.get<EventRecord[]>(events('includeExpired=true&reason=Instant'));
    expect(after.body).toHaveLength(1);
    expect(after.headers.get('x-expired-rows')).toBe('0');
  });
});

describe('event history: timeline and groups', () => {
  for (const mode of ['', 'includeExpired=true&'] as const) {
    it(`timeline buckets sum to the list's total, split by type (${mode || 'live'})`, async () => {
      const list = (await walk(events(`${mode}limit=1000`))).rows;
      // With includeExpired the expired demo events count too; live, only today's few.
      expect(list.length > 20).toBe(mode !== '');
      const res = await stack.get<EventTimeline>(`${events()}/timeline?${mode}buckets=25`);
      expect(res.status).toBe(200);
      const t = res.body;
      expect(t.buckets.length).toBeLessThanOrEqual(25);
      expect(t.bucketMs % 1000).toBe(0);
      expect(t.bucketMs).toBeGreaterThanOrEqual(Math.ceil((Date.parse(t.until) - Date.parse(t.from)) / 25));
      const sum = (k: 'normal' | 'warning') => t.buckets.reduce((n, b) => n + b[k], 0);
      expect(sum('warning')).toBe(list.filter((e) => e.type === 'WARNING').length);
      expect(sum('normal')).toBe(list.filter((e) => e.type === 'NORMAL').length);
      // Each event lies in its bucket.
      const from = Date.parse(t.from);
      for (const e of list) {
        const i = Math.min(
          t.buckets.length - 1,
          Math.floor((Date.parse(e.lastTimestamp) - from) / t.bucketMs),
        );
        expect(t.buckets[i]![e.type === 'WARNING' ? 'warning' : 'normal']).toBeGreaterThan(0);
      }
    });

    it(`groups sum the counts of their events (${mode || 'live'})`, async () => {
      const list = (await walk(events(`${mode}limit=1000`))).rows;
      // With includeExpired the expired demo events count too; live, only today's few.
      expect(list.length > 20).toBe(mode !== '');
      const groups: EventGroup[] = [];
      let next: string | undefined = `${events()}/groups?${mode}limit=4`;
      while (next) {
        const res: HttpResult<EventGroup[]> = await stack.get<EventGroup[]>(next);
        expect(res.status).toBe(200);
        groups.push(...res.body);
        next = parseLinks(res.headers.get('link') ?? '').next;
      }
      expect(groups.reduce((n, g) => n + g.count, 0)).toBe(list.reduce((n, e) => n + e.count, 0));
      expect(groups.reduce((n, g) => n + g.events, 0)).toBe(list.length);
      for (const g of groups) {
        const members = list.filter(
          (e) =>
            e.involvedObject.uid === g.involvedObject.uid &&
            e.involvedObject.name === g.involvedObject.name &&
            e.involvedObject.kind === g.involvedObject.kind &&
            e.involvedObject.namespace === g.involvedObject.namespace &&
            e.reason === g.reason &&
            e.type === g.type,
        );
        expect(members.length).toBe(g.events);
        expect(g.lastTimestamp).toBe(members[0]!.lastTimestamp);
        expect(g.message).toBe(members[0]!.message);
      }
      for (let i = 1; i < groups.length; i++)
        expect(Date.parse(groups[i - 1]!.lastTimestamp)).toBeGreaterThanOrEqual(
          Date.parse(groups[i]!.lastTimestamp),
        );
    });
  }
});

describe('event history: bad input', () => {
  it.each([
    ['until=yesterday', 'list'],
    ['includeExpired=yes', 'list'],
    ['buckets=0', 'timeline'],
    ['buckets=501', 'timeline'],
    ['until=2026-13-45T00:00:00Z', 'timeline'],
    ['includeExpired=1', 'groups'],
  ])('%s on the %s is a 400 problem', async (q, where) => {
    const path = where === 'list' ? events(q) : `${events()}/${where}?${q}`;
    const res = await stack.get<Problem>(path);
    expect(res.status).toBe(400);
    expect(res.contentType).toContain('application/problem+json');
    expect(res.body.code).toBe('invalid_query');
  });
});

describe('event history: monitoring flags', () => {
  const patch = (monitoring: Record<string, boolean>) =>
    stack.send('PATCH', '/v1/workspaces/default/clusters/sim-test', { clusterAgent: { monitoring } });

  for (const [flag, namespace, kind] of [
    ['resourceEventsEnabled', 'shop', 'Pod'],
    ['systemEventsEnabled', undefined, 'Node'],
  ] as const) {
    it(`a disabled category (${flag}) is neither shown nor recorded`, async () => {
      const category = (e: EventRecord) =>
        namespace ? e.involvedObject.namespace !== '' : e.involvedObject.namespace === '';
      const history = await walk(events('includeExpired=true&limit=1000'));
      const recorded = history.rows.filter(category);
      expect(recorded.filter((e) => history.expired.has(e.eventId)).length).toBeGreaterThan(0);
      expect((await patch({ [flag]: false })).status).toBe(200);
      try {
        const hidden = (await walk(events('includeExpired=true&limit=1000'))).rows;
        expect(hidden.filter(category)).toEqual([]);
        expect(hidden.length).toBeGreaterThan(0);
        // Seen and dropped by the cluster while the flag is off: never recorded.
        const reason = `Unrecorded${kind}`;
        const ev = stack.sim.store.addEvent({
          involvedObject: {
            kind,
            name: `quiet-${kind.toLowerCase()}`,
            uid: `uid-quiet-${kind}`,
            ...(namespace ? { namespace } : {}),
          },
          reason,
          message: 'while the flag is off',
          ...(namespace ? {} : { metadata: { namespace: 'default' } }),
        });
        await new Promise((r) => setTimeout(r, 300));
        stack.sim.store.remove('events', ev.metadata.namespace ?? '', ev.metadata.name);
        await new Promise((r) => setTimeout(r, 300));
        expect((await stack.get(events(`includeExpired=true&reason=${reason}`))).headers.get('x-total')).toBe(
          '0',
        );
        expect((await patch({ [flag]: true })).status).toBe(200);
        expect((await stack.get(events(`includeExpired=true&reason=${reason}`))).headers.get('x-total')).toBe(
          '0',
        );
        const back = (await walk(events('includeExpired=true&limit=1000'))).rows.filter(category);
        expect(back.map((e) => e.eventId)).toEqual(recorded.map((e) => e.eventId));
      } finally {
        await patch({ resourceEventsEnabled: true, systemEventsEnabled: true });
      }
    });
  }
});

/** A new service on the stack's data dir, reading `kubeconfig`, logged in as the admin. */
async function restarted(kubeconfig: string) {
  const service: Service = createService({
    contexts: loadContexts([kubeconfig]),
    dataDir: stack.dataDir,
    logger: silentLogger(),
    adminPassword: TEST_ADMIN_PASSWORD,
    eventHistory: HISTORY,
  });
  const { url } = await service.listen(0, '127.0.0.1');
  const session: LoggedIn = await login(url, 'admin', TEST_ADMIN_PASSWORD);
  const get = async <T = EventRecord[]>(p: string) => {
    const res = await fetch(url + p, { headers: session.headers });
    return {
      status: res.status,
      headers: res.headers,
      body: checkedBody<T>('GET', p, res, await res.text()),
      contentType: '',
    };
  };
  return { service, get };
}

/** A kubeconfig naming a port that was just freed: it refuses at once, gone from the start of a run. */
async function unreachableKubeconfig(): Promise<string> {
  const kubeconfig = join(stack.dataDir, 'unreachable.kubeconfig');
  const gone = createServer();
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
  const { port } = gone.address() as AddressInfo;
  await new Promise((resolve) => gone.close(resolve));
  await writeFile(
    kubeconfig,
    (await readFile(stack.kubeconfigPath, 'utf8')).replace(
      JSON.stringify(stack.sim.url),
      JSON.stringify(`http://127.0.0.1:${port}`),
    ),
  );
  return kubeconfig;
}

async function allGroups(get: (p: string) => Promise<HttpResult<EventGroup[]>>, query: string) {
  const groups: EventGroup[] = [];
  let next: string | undefined = `${events()}/groups?${query}`;
  while (next) {
    const res: HttpResult<EventGroup[]> = await get(next);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    groups.push(...res.body);
    next = parseLinks(res.headers.get('link') ?? '').next;
  }
  return groups;
}

describe('event history: restart', () => {
  /** The history as the first service answered it, for the services started after it. */
  let first: Awaited<ReturnType<typeof walk>>;
  let firstGroups: EventGroup[];

  it('lists the expired events after the service restarts on the same data dir', async () => {
    first = await walk(events('includeExpired=true&limit=1000'));
    firstGroups = await allGroups((p) => stack.get<EventGroup[]>(p), 'includeExpired=true&limit=7');
    await stack.service.close();
    const { service, get } = await restarted(stack.kubeconfigPath);
    try {
      const again = await walk(events('includeExpired=true&limit=9'), get);
      expect(first.expired.size).toBeGreaterThan(20);
      expect(again.rows).toEqual(first.rows);
      expect([...again.expired].sort()).toEqual([...first.expired].sort());
      const live = await walk(events('limit=100'), get);
      expect(live.rows.length).toBe(first.rows.length - first.expired.size);
    } finally {
      await service.close();
    }
  });

  it('answers includeExpired=true from the history when the cluster cannot be reached, marked stale', async () => {
    expect(first.expired.size).toBeGreaterThan(20);
    const { service, get } = await restarted(await unreachableKubeconfig());
    try {
      const live = await get(events());
      expect(live.status).toBe(502);
      const page = await get(events('includeExpired=true&limit=5'));
      expect(page.status).toBe(200);
      const stale = page.headers.get('x-stale-since');
      expect(stale).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(Date.parse(stale!)).toBeLessThanOrEqual(Date.now());
      const offline = await walk(events('includeExpired=true&limit=7'), get);
      expect(offline.rows).toEqual(first.rows);
      expect([...offline.expired].sort()).toEqual([...first.expired].sort());
      const warnings = await get(events('includeExpired=true&type=WARNING&limit=1000'));
      expect(warnings.body.length).toBeGreaterThan(0);
      expect(warnings.body.every((e) => e.type === 'WARNING')).toBe(true);
    } finally {
      await service.close();
    }
  });

  it('answers the timeline and the groups with includeExpired=true from the history too, marked stale, as the list', async () => {
    expect(firstGroups.length).toBeGreaterThan(5);
    const { service, get } = await restarted(await unreachableKubeconfig());
    try {
      // The timeline is this run's first read: no earlier request found the cluster down for it.
      const timeline = await get<EventTimeline>(`${events()}/timeline?includeExpired=true&buckets=25`);
      expect(timeline.status, JSON.stringify(timeline.body)).toBe(200);
      const stale = timeline.headers.get('x-stale-since');
      expect(stale).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(Date.parse(stale!)).toBeLessThanOrEqual(Date.now());
      const sum = (k: 'normal' | 'warning') => timeline.body.buckets.reduce((n, b) => n + b[k], 0);
      expect(sum('warning')).toBe(first.rows.filter((e) => e.type === 'WARNING').length);
      expect(sum('normal')).toBe(first.rows.filter((e) => e.type === 'NORMAL').length);

      const page = await get<EventGroup[]>(`${events()}/groups?includeExpired=true&limit=7`);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      expect(page.headers.get('x-stale-since')).toBe(stale);
      expect(await allGroups(get<EventGroup[]>, 'includeExpired=true&limit=7')).toEqual(firstGroups);

      // Without includeExpired there is nothing to answer from: the cluster's own problem.
      for (const path of [`${events()}/timeline`, `${events()}/groups`]) {
        const live = await get<Problem>(path);
        expect(live.status).toBe(502);
        expect(live.body.code).toBe('cluster_unreachable');
      }
    } finally {
      await service.close();
    }
  });
});
