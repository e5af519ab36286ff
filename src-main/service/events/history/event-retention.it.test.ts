/**
 * Retention of the event history over real HTTP: by age (recorded events whose lastTimestamp is
 * older than the retention go) and by the per-cluster cap (the oldest expired events go first).
 * Events the cluster still has are never pruned.
 */
import { rfc3339 } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRecord } from '../../../../src-shared/contract/models';
import { createService, type Service } from '../../index';
import { loadContexts } from '../../kube/kubeconfig';
import { silentLogger } from '../../logger';
import { checkedBody } from '../../test-support/contract-check.test-support';
import { eventually } from '../../test-support/eventually.test-support';
import { parseLinks, type Stack, startStack } from '../../test-support/harness.test-support';
import { login, TEST_ADMIN_PASSWORD } from '../../test-support/login.test-support';
import type { EventHistoryOptions } from './index';

const DAY = 86_400_000;
const HOUR = 3_600_000;
let stack: Stack;
const RETENTION: EventHistoryOptions = { retentionMs: 5 * DAY, flushMs: 20, pruneEveryMs: 100 };

type Get = (path: string) => Promise<{ status: number; headers: Headers; body: EventRecord[] }>;

async function history(get: Get, query = ''): Promise<{ rows: EventRecord[]; expired: Set<string> }> {
  const rows: EventRecord[] = [];
  const expired = new Set<string>();
  let next: string | undefined = `${stack.cluster}/kubernetes-events?includeExpired=true&limit=500${query}`;
  while (next) {
    const res = await get(next);
    expect(res.status).toBe(200);
    for (const part of (res.headers.get('x-expired-rows') ?? '').split(',').filter(Boolean)) {
      const [a, b] = part.split('-').map(Number) as [number, number | undefined];
      for (let i = a; i <= (b ?? a); i++) expired.add(res.body[i]!.eventId);
    }
    rows.push(...res.body);
    next = parseLinks(res.headers.get('link') ?? '').next;
  }
  return { rows, expired };
}

const stackGet: Get = (p) => stack.get<EventRecord[]>(p);

/** Adds events with the given ages (scrambled names, so their order is the service's doing). */
function addAged(prefix: string, agesMs: readonly number[]) {
  return agesMs.map((age, i) => {
    const at = rfc3339(Date.now() - age);
    return stack.sim.store.addEvent({
      involvedObject: {
        kind: 'Pod',
        name: `${prefix}-${(i * 7) % agesMs.length}`,
        namespace: 'shop',
        uid: `uid-${prefix}-${i}`,
      },
      reason: `Aged${prefix}`,
      message: `${prefix} ${i}`,
      firstTimestamp: at,
      lastTimestamp: at,
    });
  });
}

beforeAll(async () => {
  stack = await startStack({ simulator: { listOrder: 'scrambled' }, service: { eventHistory: RETENTION } });
});
afterAll(async () => stack?.close());

describe('event history retention', () => {
  it('prunes expired events older than the retention, keeps younger ones and every event the cluster has', async () => {
    const old = addAged('old', [9 * DAY, 6 * DAY, 12 * DAY, 7 * DAY]);
    const young = addAged('young', [3 * HOUR, 1 * HOUR, 4 * DAY, 2 * HOUR]);
    await eventually(async () => {
      const { rows } = await history(stackGet);
      expect(rows.filter((e) => e.reason.startsWith('Aged'))).toHaveLength(8);
    });
    // The old events are live and older than the retention: still kept while the cluster has them.
    await new Promise((r) => setTimeout(r, 300));
    expect((await history(stackGet, '&reason=Agedold')).rows).toHaveLength(4);

    for (const ev of [...old, ...young]) stack.sim.store.remove('events', 'shop', ev.metadata.name);
    await eventually(async () => {
      const { rows, expired } = await history(stackGet);
      expect(rows.filter((e) => e.reason === 'Agedold')).toEqual([]);
      const kept = rows.filter((e) => e.reason === 'Agedyoung');
      expect(kept.map((e) => e.message).sort()).toEqual(['young 0', 'young 1', 'young 2', 'young 3']);
      for (const e of kept) expect(expired.has(e.eventId)).toBe(true);
    });
    const live = (await stack.get<EventRecord[]>(`${stack.cluster}/kubernetes-events?limit=1000`)).body;
    const { rows } = await history(stackGet);
    const recorded = new Set(rows.map((e) => e.eventId));
    expect(live.length).toBeGreaterThan(20);
    for (const e of live) expect(recorded.has(e.eventId), e.eventId).toBe(true);
  });

  it('keeps at most the cap per cluster, pruning the oldest expired events first', async () => {
    const { rows, expired } = await history(stackGet);
    expect(expired.size).toBe(4);
    // Over the cap by three: the three oldest expired events go (young 2 at 4 days, then 3 h, then 2 h).
    const maxPerCluster = rows.length - 3;
    await stack.service.close();
    const service: Service = createService({
      contexts: loadContexts([stack.kubeconfigPath]),
      dataDir: stack.dataDir,
      logger: silentLogger(),
      adminPassword: TEST_ADMIN_PASSWORD,
      eventHistory: { ...RETENTION, maxPerCluster },
    });
    try {
      const { url } = await service.listen(0, '127.0.0.1');
      const session = await login(url);
      const get: Get = async (p) => {
        const res = await fetch(url + p, { headers: session.headers });
        return {
          status: res.status,
          headers: res.headers,
          body: checkedBody<EventRecord[]>('GET', p, res, await res.text()),
        };
      };
      await eventually(async () => {
        const after = await history(get);
        expect(after.rows.length).toBe(maxPerCluster);
        const kept = after.rows.filter((e) => after.expired.has(e.eventId)).map((e) => e.message);
        expect(kept).toEqual(['young 1']);
      });
    } finally {
      await service.close();
    }
  });
});
