/**
 * Clusters that are down: before the first request, after the caches synced, and answering after
 * the timeout.
 */
import { describe, expect, it } from 'vitest';
import type { EventRecord, ResourceWrapper } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import { eventually } from '../test-support/eventually.test-support';
import {
  clusterRecord,
  eventsPath,
  expectClusterProblem,
  expectPodsEqualCluster,
  podsPath,
  QUICK_WATCH,
  relabel,
  STALE,
  scratchPod,
  staleSince,
  startProxiedStack,
} from '../test-support/faults.test-support';

describe('a cluster that is down before the first request', () => {
  it('answers 502 cluster_unreachable at once, survives, and serves fresh data once the cluster is up', async () => {
    // A request timeout longer than this test may run: a refused connection is known at once, so
    // the 502 comes without waiting for it, and an answer at all says so.
    const timeoutMs = 120_000;
    const { stack, proxy, close } = await startProxiedStack({ service: { timeoutMs } });
    try {
      await proxy.down();
      const refused = await stack.get(podsPath(stack));
      expectClusterProblem(refused, 502, 'cluster_unreachable');
      expect((refused.body as Problem).detail).toMatch(/connection refused \(ECONNREFUSED\)/);
      expectClusterProblem(await stack.get(podsPath(stack, 'shop')), 502, 'cluster_unreachable');
      const record = await clusterRecord(stack);
      expect(record.status).toBe('unreachable');
      // Nothing was ever synced, so there is no "data as of" to show.
      expect(record).not.toHaveProperty('lastSyncedAt');
      expect((await stack.get('/v1/workspaces')).status).toBe(200);

      await proxy.up();
      const res = await stack.get<ResourceWrapper[]>(podsPath(stack));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.headers.get(STALE)).toBeNull();
      expect(res.body.length).toBe(stack.sim.store.count('pods'));
    } finally {
      await close();
    }
  });
});

describe('a cluster that goes away after the caches synced', () => {
  it('serves the cached lists marked x-Stale-Since, reports unreachable, and converges on the cluster after it returns', async () => {
    const { stack, proxy, close } = await startProxiedStack({
      service: { timeoutMs: 2_000, watch: QUICK_WATCH },
    });
    const { store } = stack.sim;
    const lists = [podsPath(stack), podsPath(stack, 'shop'), eventsPath(stack)];
    try {
      const beforeSync = Date.now();
      for (const path of lists) {
        const res = await stack.get(path);
        expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.headers.get(STALE), path).toBeNull();
      }
      const live = await clusterRecord(stack);
      expect(live.status).toBe('connected');
      expect(live).not.toHaveProperty('lastSyncedAt');

      const cachedPods = (await stack.get<ResourceWrapper[]>(podsPath(stack))).body;
      await proxy.down();
      const brokeAt = Date.now();
      // RFC 3339 may drop the milliseconds, so the bounds allow a second either side.
      const aboutTheBreak = (t: number | undefined) => {
        expect(t).toBeGreaterThanOrEqual(beforeSync - 1_000);
        expect(t).toBeLessThanOrEqual(brokeAt + 1_000);
      };

      const stale = await eventually(async () => {
        const res = await stack.get<ResourceWrapper[]>(podsPath(stack));
        expect(res.status).toBe(200);
        expect(res.headers.get(STALE)).not.toBeNull();
        return res;
      });
      aboutTheBreak(staleSince(stale));
      // The last known data, not an empty or partial list.
      expect(stale.body).toEqual(cachedPods);
      for (const path of lists.slice(1)) {
        const res = await eventually(async () => {
          const r = await stack.get(path);
          expect(r.status).toBe(200);
          expect(r.headers.get(STALE)).not.toBeNull();
          return r;
        });
        aboutTheBreak(staleSince(res));
      }
      const down = await eventually(async () => {
        const r = await clusterRecord(stack);
        expect(r.status).toBe('unreachable');
        return r;
      });
      expect(down.lastSyncedAt).toMatch(/Z$/);
      aboutTheBreak(Date.parse(down.lastSyncedAt ?? ''));

      // The cluster changes while nobody can watch it.
      store.upsert(scratchPod('born-while-down-1'));
      store.upsert(scratchPod('born-while-down-2', 'shop'));
      const victim = store.list('pods', 'shop')[0]!;
      store.remove('pods', 'shop', victim.metadata.name);
      const edited = store.list('pods', 'default')[0]!;
      relabel(store, 'default', edited.metadata.name, 'edited-while-down');
      const message = `recorded while the watch was down ${Date.now()}`;
      store.addEvent({
        type: 'Warning',
        reason: 'BackOff',
        message,
        involvedObject: { kind: 'Pod', namespace: 'default', name: 'born-while-down-1' },
      });
      // Still the old data, still marked stale.
      const during = await stack.get<ResourceWrapper[]>(podsPath(stack));
      expect(during.headers.get(STALE)).not.toBeNull();
      expect(during.body.some((w) => w.resource.metadata.name === 'born-while-down-1')).toBe(false);

      await proxy.up();
      await eventually(() => expectPodsEqualCluster(stack, store), 10_000);
      const shop = await stack.get<ResourceWrapper[]>(podsPath(stack, 'shop'));
      expect(shop.headers.get(STALE)).toBeNull();
      expect(shop.body.map((w) => w.resource.metadata.name).sort()).toEqual(
        store
          .list('pods', 'shop')
          .map((p) => p.metadata.name)
          .sort(),
      );
      await eventually(async () => {
        const res = await stack.get<EventRecord[]>(eventsPath(stack));
        expect(res.headers.get(STALE)).toBeNull();
        expect(res.body.some((e) => e.message === message)).toBe(true);
      }, 10_000);
      // The status probe may hold its last answer for a few seconds; the record must still clear.
      await eventually(async () => {
        const r = await clusterRecord(stack);
        expect(r.status).toBe('connected');
        expect(r).not.toHaveProperty('lastSyncedAt');
      }, 15_000);
    } finally {
      await close();
    }
  }, 45_000);
});

describe('a cluster that answers after the timeout', () => {
  it('is a 504 cluster_timeout within the timeout, and recovers when it is quick again', async () => {
    const timeoutMs = 1_500;
    const { stack, proxy, close } = await startProxiedStack({ service: { timeoutMs, watch: QUICK_WATCH } });
    try {
      // Every answer would come 4 s late, with the data: only the 1.5 s deadline can make these
      // 504s naming it, and the status unreachable.
      proxy.slow(timeoutMs + 2_500);
      for (const path of [
        podsPath(stack),
        `${stack.cluster}/kubernetes-proxy/namespaces/default/deployment/x`,
        eventsPath(stack),
      ]) {
        const res = await stack.get(path);
        expectClusterProblem(res, 504, 'cluster_timeout');
        expect((res.body as Problem).detail, path).toBe('the cluster did not answer within 1.5 s');
      }
      expect((await clusterRecord(stack)).status).toBe('unreachable');

      proxy.slow(0);
      await eventually(() => expectPodsEqualCluster(stack, stack.sim.store), 10_000);
    } finally {
      await close();
    }
  }, 30_000);
});
