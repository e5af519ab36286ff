/**
 * The long fault test on its own file, so Vitest runs it beside the others: a cluster that is up
 * 3 s and down 3 s for a minute while a client keeps listing and the cluster keeps changing.
 */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import type { Problem } from '../../../src-shared/contract/problem';
import { eventually } from '../test-support/eventually.test-support';
import {
  eventsPath,
  expectPodsEqualCluster,
  podsPath,
  relabel,
  STALE,
  scratchPod,
  sleep,
  startProxiedStack,
} from '../test-support/faults.test-support';

const FLAP_MS = 3_000;
const RUN_MS = 60_000;

/** A full collection the test can force; Vitest's workers do not run with --expose-gc. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function heapAfterGc(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

it(
  'a cluster flapping up 3 s and down 3 s for 60 s: the service answers 200 or 502 throughout, sockets and memory stay bounded, and the cache ends equal to the cluster',
  async () => {
    const { stack, proxy, close } = await startProxiedStack({
      service: { timeoutMs: 2_000, watch: { baseMs: 200, capMs: 2_000, stableAfterMs: 2_000 } },
    });
    const { store } = stack.sim;
    const gc = collector();
    try {
      for (const path of [podsPath(stack), eventsPath(stack)]) {
        expect((await stack.get(path)).status).toBe(200);
      }
      const baselineHeap = heapAfterGc(gc);
      const deadline = Date.now() + RUN_MS;
      const statuses = new Map<string, number>();
      const unexpected: string[] = [];
      let maxHeap = baselineHeap;

      const client = (async () => {
        for (let i = 0; Date.now() < deadline; i++) {
          const path = i % 3 === 2 ? eventsPath(stack) : podsPath(stack, i % 3 === 1 ? 'shop' : undefined);
          const res = await stack.get(path);
          const stale = res.headers.get(STALE) !== null;
          const key =
            res.status === 200
              ? `200${stale ? ' stale' : ''}`
              : `${res.status} ${(res.body as Problem).code}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          const ok =
            res.status === 200 ||
            (res.status === 502 &&
              res.contentType.startsWith('application/problem+json') &&
              (res.body as Problem).code === 'cluster_unreachable');
          if (!ok) unexpected.push(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
          await sleep(100);
        }
      })();

      const mutator = (async () => {
        for (let n = 0; Date.now() < deadline; n++) {
          // Pods come and go and change, and the count stays about the same.
          store.upsert(scratchPod(`flap-${n}`, n % 2 === 0 ? 'default' : 'shop'));
          if (n >= 5) store.remove('pods', (n - 5) % 2 === 0 ? 'default' : 'shop', `flap-${n - 5}`);
          if (n % 3 === 0) relabel(store, 'monitoring', 'prometheus-0', `flap-${n}`);
          if (n % 10 === 0) {
            store.addEvent({
              type: 'Normal',
              reason: 'Pulled',
              message: `flap ${n}`,
              involvedObject: { kind: 'Pod', namespace: 'monitoring', name: 'prometheus-0' },
            });
          }
          await sleep(200);
        }
      })();

      const flapper = (async () => {
        while (Date.now() < deadline) {
          await sleep(Math.min(FLAP_MS, Math.max(0, deadline - Date.now())));
          if (proxy.state === 'up') await proxy.down();
          else await proxy.up();
          maxHeap = Math.max(maxHeap, process.memoryUsage().heapUsed);
        }
        await proxy.up();
      })();

      await Promise.all([client, mutator, flapper]);
      const maxOpen = proxy.maxOpen;
      // Each cache recovers on its own schedule: wait for both to be fresh.
      const finalHeap = await eventually(async () => {
        await expectPodsEqualCluster(stack, store);
        const events = await stack.get(eventsPath(stack));
        expect(events.status).toBe(200);
        expect(events.headers.get(STALE)).toBeNull();
        return heapAfterGc(gc);
      }, 15_000);
      const mib = (n: number) => Math.round(n / 2 ** 20);
      console.log(
        `flapping: answers ${JSON.stringify(Object.fromEntries(statuses))}, max open cluster connections ${maxOpen}, ` +
          `heap after GC ${mib(baselineHeap)} MiB → ${mib(finalHeap)} MiB (max sampled ${mib(maxHeap)} MiB), ` +
          `${store.count('pods')} pods`,
      );

      expect(unexpected).toEqual([]);
      // Staleness was visible: some answers during the outages came from the cache, marked so.
      expect(statuses.get('200 stale') ?? 0).toBeGreaterThan(0);
      // A watch per cached collection and a few requests, not one socket per retry left behind.
      expect(maxOpen).toBeLessThanOrEqual(16);
      expect(finalHeap - baselineHeap).toBeLessThan(40 * 2 ** 20);
    } finally {
      await close();
    }
  },
  RUN_MS + 45_000,
);
