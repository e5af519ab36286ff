/**
 * One cluster's connection against the embedded simulator: single objects read from the apiserver
 * and from a live cache, which cache's staleness the cluster reports, pod usage's own timeout, the
 * event history's hook, and which idle caches a sweep stops.
 */

import { DEMO_NODES, type Pod } from '@skiff/kube-simulator';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_KINDS } from '../../../src-shared/kube/kinds';
import { addPod, freshNamespace, simPerFile, sleep, until } from '../cache/cache.test-support';
import type { EventEntry } from '../events/entries';
import { contextsFromYaml } from '../kube/kubeconfig';
import { silentLogger } from '../logger';
import { problemOf } from '../test-support/rejections.test-support';
import { type ClusterConnection as Cluster, ClusterConnection, type ClusterOptions } from './cluster';

const env = simPerFile();
let cluster: Cluster | undefined;
afterEach(async () => {
  env.sim.faults.unauthorized = false;
  env.sim.faults.latencyMs = 0;
  await cluster?.close();
  cluster = undefined;
});

/** No retry comes within a test: a stale cache stays stale until the test says otherwise. */
const NO_RETRY = { baseMs: 60_000, capMs: 60_000, stableAfterMs: 60_000 };

function connect(over: Partial<ClusterOptions> = {}): Cluster {
  const source = contextsFromYaml(env.sim.kubeconfigYaml('objects'))[0]!;
  cluster = new ClusterConnection('objects', source, {
    timeoutMs: 5_000,
    logger: silentLogger(),
    watch: NO_RETRY,
    ...over,
  });
  return cluster;
}

const signal = () => new AbortController().signal;

describe('getObject', () => {
  let ns = '';
  beforeAll(() => {
    ns = freshNamespace(env.sim, 'get');
    addPod(env.sim, ns, 'web');
  });

  it('reads a namespaced object from its namespace', async () => {
    const pod = await connect().getObject(RESOURCE_KINDS.pod, 'web', ns, signal());
    expect(pod.metadata?.name).toBe('web');
    expect(pod.metadata?.namespace).toBe(ns);
  });

  it('reads a cluster-scoped object whatever namespace the caller names', async () => {
    const c = connect();
    expect(
      (await c.getObject(RESOURCE_KINDS.node, DEMO_NODES.healthy, 'default', signal())).metadata?.name,
    ).toBe(DEMO_NODES.healthy);
    expect((await c.getObject(RESOURCE_KINDS.node, DEMO_NODES.healthy, undefined, signal())).kind).toBe(
      'Node',
    );
  });

  it('a missing object is resource_not_found, named with its namespace when it has one', async () => {
    const c = connect();
    const pod = await problemOf(c.getObject(RESOURCE_KINDS.pod, 'gone', ns, signal()));
    expect(pod.code).toBe('resource_not_found');
    expect(pod.message).toBe(`pod "gone" in namespace ${ns} not found`);
    const node = await problemOf(c.getObject(RESOURCE_KINDS.node, 'gone', undefined, signal()));
    expect(node.code).toBe('resource_not_found');
    expect(node.message).toBe('node "gone" not found');
  });
});

describe('cachedObject', () => {
  it('answers from a live cache, under the namespace for namespaced kinds and under none for cluster-scoped ones', async () => {
    const ns = freshNamespace(env.sim, 'cached');
    addPod(env.sim, ns, 'web');
    const c = connect();
    expect(c.cachedObject(RESOURCE_KINDS.pod, 'web', ns)).toBeUndefined();
    await c.resources(RESOURCE_KINDS.pod).acquire();
    await c.resources(RESOURCE_KINDS.node).acquire();

    expect(JSON.parse(c.cachedObject(RESOURCE_KINDS.pod, 'web', ns)!).metadata.namespace).toBe(ns);
    expect(c.cachedObject(RESOURCE_KINDS.pod, 'web', 'default')).toBeUndefined();
    expect(c.cachedObject(RESOURCE_KINDS.pod, 'web', undefined)).toBeUndefined();
    for (const namespace of [undefined, 'default']) {
      expect(
        JSON.parse(c.cachedObject(RESOURCE_KINDS.node, DEMO_NODES.healthy, namespace)!).metadata.name,
      ).toBe(DEMO_NODES.healthy);
    }
  });
});

describe('staleness', () => {
  /** Refuses the cluster's credentials at `at`, ends the open watches, and waits for `stale`. */
  async function breakAt(setClock: (t: number) => void, at: number, stale: () => boolean, what: string) {
    setClock(at);
    env.sim.faults.unauthorized = true;
    env.sim.store.endWatches();
    await until(stale, what);
    env.sim.faults.unauthorized = false;
  }

  it('is the earliest time any cache of the cluster, events included, was last known good', async () => {
    let clock = Date.UTC(2026, 0, 1, 12);
    const setClock = (t: number) => {
      clock = t;
    };
    const c = connect({ now: () => clock });
    const events = c.events();
    await events.acquire();
    expect(c.staleness()).toBeUndefined();

    // The event cache alone is stale: the cluster is stale since then.
    const eventsBroke = Date.UTC(2026, 0, 1, 12, 30);
    await breakAt(setClock, eventsBroke, () => events.staleSince !== undefined, 'events are stale');
    expect(c.staleness()?.since).toBe(new Date(eventsBroke).toISOString());
    expect(c.staleness()?.cause?.code).toBe('cluster_unauthorized');

    // Nodes (iterated first) break later than events, pods (iterated second) earlier than both.
    const nodes = c.resources(RESOURCE_KINDS.node);
    await nodes.acquire();
    await breakAt(setClock, Date.UTC(2026, 0, 1, 12, 20), () => nodes.staleSince !== undefined, 'nodes');
    expect(c.staleness()?.since).toBe(new Date(Date.UTC(2026, 0, 1, 12, 20)).toISOString());
    const pods = c.resources(RESOURCE_KINDS.pod);
    await pods.acquire();
    const podsBroke = Date.UTC(2026, 0, 1, 12, 10);
    await breakAt(setClock, podsBroke, () => pods.staleSince !== undefined, 'pods are stale');

    expect(events.staleSince).toBe(new Date(eventsBroke).toISOString());
    expect(c.staleness()).toEqual({ since: new Date(podsBroke).toISOString(), cause: pods.staleCause });
    expect(c.staleness()?.cause?.code).toBe('cluster_unauthorized');
  });
});

/** A pod the simulator reports usage for. */
const runningPod = () => (env.sim.store.list('pods') as Pod[]).find((p) => p.status.phase === 'Running')!;

describe('podUsage', () => {
  it('reads a pod’s usage from the metrics API', async () => {
    const pod = runningPod();
    const usage = await connect().podUsage(pod.metadata.namespace!, pod.metadata.name);
    expect(usage?.cpu).toMatch(/^\d+m$/);
    expect(usage?.memory).toMatch(/^\d+Mi$/);
  });

  it('waits at most 3 s for the metrics API, however long the cluster timeout is', async () => {
    const pod = runningPod();
    const c = connect({ timeoutMs: 20_000 });
    // The metrics answer comes after 4 s, well within the cluster's 20 s: only the 3 s bound of
    // its own makes the usage missing rather than the figures.
    env.sim.faults.latencyMs = 4_000;
    expect(await c.podUsage(pod.metadata.namespace!, pod.metadata.name)).toBeUndefined();
  });
});

describe('events and the event history', () => {
  it('gives the history an observer whose current entries are the event cache’s', async () => {
    let current: (() => readonly EventEntry[]) | undefined;
    const c = connect({
      eventRecording: {
        observer: (clusterId, read) => {
          expect(clusterId).toBe('objects');
          current = read;
          return undefined;
        },
        keepsWatching: () => false,
      },
    });
    await c.events().acquire();
    expect(current?.().length).toBe(c.events().read().view.all.length);
    expect(current?.().length).toBeGreaterThan(0);
  });
});

describe('sweep', () => {
  it('stops the caches nobody read for the idle time, and keeps the others', async () => {
    const c = connect();
    const pods = c.resources(RESOURCE_KINDS.pod);
    await pods.acquire();
    const events = c.events();
    await events.acquire();
    await sleep(30);

    await c.sweep(60_000);
    expect(c.resources(RESOURCE_KINDS.pod)).toBe(pods);
    expect(c.events()).toBe(events);

    await c.sweep(10);
    expect(c.resources(RESOURCE_KINDS.pod)).not.toBe(pods);
    expect(c.events()).not.toBe(events);
    // The swept caches hold no watch: a stopped cache vouches for nothing.
    expect(pods.liveEntry('any')).toBeUndefined();
  });

  it('keeps a recorded cluster’s event watch however long nobody reads it', async () => {
    let recorded = true;
    const c = connect({
      eventRecording: { observer: () => undefined, keepsWatching: (id) => id === 'objects' && recorded },
    });
    const events = c.events();
    await events.acquire();
    await sleep(30);
    await c.sweep(10);
    expect(c.events()).toBe(events);
    recorded = false;
    await c.sweep(10);
    expect(c.events()).not.toBe(events);
  });
});

describe('close', () => {
  it('stops every cache, events included, and leaves no connection to the cluster open', async () => {
    let eventsStopped = 0;
    const c = connect({
      eventRecording: {
        observer: () => ({
          upserted: () => {},
          removed: () => {},
          listed: () => {},
          stopped: () => eventsStopped++,
        }),
        keepsWatching: () => false,
      },
    });
    const pods = c.resources(RESOURCE_KINDS.pod);
    await pods.acquire();
    await c.resources(RESOURCE_KINDS.node).acquire();
    await c.events().acquire();
    expect(env.sim.connections().open).toBeGreaterThanOrEqual(3);

    await c.close();
    cluster = undefined;
    await until(() => env.sim.connections().open === 0, 'every connection closed');
    expect(eventsStopped).toBe(1);
    // A stopped cache takes its watch ending as the end, not as a failure to retry after.
    await sleep(100);
    expect(pods.staleSince).toBeUndefined();
    expect(pods.liveEntry('any')).toBeUndefined();
    // A closed cluster starts afresh if asked again: the stopped caches are gone.
    expect(c.resources(RESOURCE_KINDS.pod)).not.toBe(pods);
  });
});
