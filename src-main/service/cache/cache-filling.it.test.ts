/**
 * Over real HTTP: the first requests after start on a cluster whose lists take many pages. The
 * simulator adds latency to every answer, so the event and pod caches' first lists are still
 * arriving when the first requests come. While pages keep arriving a request waits, or answers
 * 503 cluster_syncing with Retry-After and the progress; never a 504 that blames a cluster that
 * is answering. A cluster that stops answering half-way still gets its own problem.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EventGroup, EventTimeline } from '../../../src-shared/contract/event-history-models';
import type { EventRecord, ResourceWrapper } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import { createService } from '../index';
import { loadContexts } from '../kube/kubeconfig';
import { silentLogger } from '../logger';
import { checkedBody } from '../test-support/contract-check.test-support';
import {
  eventsPath,
  expectClusterProblem,
  sleep,
  startProxiedStack,
} from '../test-support/faults.test-support';
import {
  type HttpResult,
  type Stack,
  type StackOptions,
  startStack,
} from '../test-support/harness.test-support';
import { login, TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import { SYNCING_RETRY_AFTER_S } from './first-list';

/** Each page of a first list takes at least this long: 3,000 events are 30 pages of 100. */
const PAGE_LATENCY_MS = 80;
const SCALE = { events: 3_000, pods: 1_000 };
/** Short retries so a refused attempt shows within a second; the defaults suit production. */
const QUICK_WATCH = { baseMs: 50, capMs: 200, stableAfterMs: 1_000 };

type Syncing = Problem & { progress: { items: number; remaining?: number }; retryAfterSeconds: number };

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function slowStack(opts: StackOptions) {
  const stack = await startStack(opts);
  closers.push(() => stack.close());
  // Nothing has listed yet (events are recorded from their first read): every first list is slow.
  stack.sim.faults.latencyMs = PAGE_LATENCY_MS;
  return stack;
}

/** A 503 cluster_syncing as the contract documents it: Retry-After, and how far the list got. */
function expectSyncing(res: HttpResult, total: number): Syncing {
  expectClusterProblem(res, 503, 'cluster_syncing');
  const body = res.body as Syncing;
  expect(res.headers.get('retry-after')).toBe(String(SYNCING_RETRY_AFTER_S));
  expect(body.retryAfterSeconds).toBe(SYNCING_RETRY_AFTER_S);
  expect(body.progress.items).toBeGreaterThan(0);
  expect(body.progress.items).toBeLessThan(total);
  // The simulator reports remainingItemCount with every page, as an apiserver does for a whole list.
  expect(body.progress.items + (body.progress.remaining ?? Number.NaN)).toBe(total);
  return body;
}

/** Asks `path` until it answers 200; any answer before must be a 503 cluster_syncing (a 504 fails at once). */
async function untilListed<T>(stack: Stack, path: string, total: number): Promise<HttpResult<T>> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await stack.get<T>(path);
    if (res.status === 200) return res;
    expectSyncing(res, total);
    if (Date.now() > deadline) throw new Error(`${path} was still filling after a minute`);
    await sleep(100);
  }
}

describe('the first requests while a cache is still filling', () => {
  it('answer 503 cluster_syncing with Retry-After and the progress, then the whole list; never 504', async () => {
    const stack = await slowStack({
      simulator: { scale: SCALE },
      service: { watch: { fillWaitMs: 300 } },
    });
    const events = stack.sim.store.count('events');
    const pods = stack.sim.store.count('pods');
    expect(events).toBeGreaterThanOrEqual(SCALE.events);

    const first = expectSyncing(await stack.get(eventsPath(stack)), events);
    // The timeline, the groups and the recorded history wait on the same cache, so they say the same.
    for (const path of ['/timeline', '/groups', '?includeExpired=true']) {
      const res = await stack.get(`${stack.cluster}/kubernetes-events${path}`);
      expect(expectSyncing(res, events).progress.items).toBeGreaterThanOrEqual(first.progress.items);
    }
    // Resource lists fill the same way.
    const podsPath = `${stack.cluster}/kubernetes-proxy/pod?limit=1000`;
    expectSyncing(await stack.get(podsPath), pods);

    const listed = await untilListed<EventRecord[]>(stack, eventsPath(stack), events);
    expect(listed.headers.get('x-total')).toBe(String(events));
    const podList = await untilListed<ResourceWrapper[]>(stack, podsPath, pods);
    expect(podList.headers.get('x-total')).toBe(String(pods));
  });

  it('wait past the request timeout for a list that keeps arriving, and answer it', async () => {
    // 30 pages of at least 80 ms each: the list takes well past the 1 s request timeout.
    const stack = await slowStack({
      simulator: { scale: { events: SCALE.events } },
      service: { timeoutMs: 1_000, watch: { fillWaitMs: 120_000 } },
    });
    const res = await stack.get<EventRecord[]>(eventsPath(stack));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('x-total')).toBe(String(stack.sim.store.count('events')));
  });

  it('a cluster that goes away half-way through the list gets its own 502, not a 503', async () => {
    const { stack, proxy, close } = await startProxiedStack({
      simulator: { scale: { events: SCALE.events } },
      service: { watch: { ...QUICK_WATCH, fillWaitMs: 300 } },
    });
    closers.push(close);
    stack.sim.faults.latencyMs = PAGE_LATENCY_MS;
    // Half-way: some pages arrived, more are to come.
    expectSyncing(await stack.get(eventsPath(stack)), stack.sim.store.count('events'));
    await proxy.down();
    expectClusterProblem(await stack.get(eventsPath(stack)), 502, 'cluster_unreachable');
  });

  it('with includeExpired=true and a recorded history, a list still filling is answered from the history, marked stale', async () => {
    const stack = await startStack({ simulator: { scale: { events: SCALE.events } } });
    closers.push(() => stack.close());
    const events = stack.sim.store.count('events');
    // The first run lists at full speed and records every event.
    const recorded = await stack.get(`${eventsPath(stack)}&includeExpired=true`);
    expect(recorded.status).toBe(200);
    expect(recorded.headers.get('x-total')).toBe(String(events));
    await stack.service.close();

    // The next run meets the same cluster slow: its first list is still arriving.
    stack.sim.faults.latencyMs = PAGE_LATENCY_MS;
    const service = createService({
      contexts: loadContexts([stack.kubeconfigPath]),
      dataDir: stack.dataDir,
      logger: silentLogger(),
      adminPassword: TEST_ADMIN_PASSWORD,
      watch: { fillWaitMs: 300 },
    });
    closers.unshift(() => service.close());
    const { url } = await service.listen(0, '127.0.0.1');
    const session = await login(url);
    const get = async <T>(path: string) => {
      const res = await fetch(url + path, { headers: session.headers });
      return {
        status: res.status,
        headers: res.headers,
        body: checkedBody<T>('GET', path, res, await res.text()),
      };
    };
    const base = `${stack.cluster}/kubernetes-events`;
    const timeline = await get<EventTimeline>(`${base}/timeline?includeExpired=true&buckets=10`);
    expect(timeline.status, JSON.stringify(timeline.body)).toBe(200);
    const stale = timeline.headers.get('x-stale-since');
    expect(stale).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(timeline.body.buckets.reduce((n, b) => n + b.normal + b.warning, 0)).toBe(events);
    const groups = await get<EventGroup[]>(`${base}/groups?includeExpired=true&limit=5`);
    expect(groups.status).toBe(200);
    expect(groups.headers.get('x-stale-since')).toBe(stale);
    const list = await get<EventRecord[]>(`${base}?includeExpired=true&limit=5`);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total')).toBe(String(events));
    expect(list.headers.get('x-stale-since')).toBe(stale);
  });
});
