/**
 * Caches on demand, for every kind and for snapshot clusters too: a kind's cache starts when it is
 * first read, and the idle sweep stops it (its watch ends) once nobody read it for the idle time;
 * the next read starts a new one. Kinds nobody reads are never listed. Against the embedded
 * simulator for a live cluster (a kind beyond the nine and a custom resource), and a frozen
 * cluster held in memory for a snapshot.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCE_KINDS } from '../../../src-shared/kube/kinds';
import { ClusterConnection, type ClusterOptions } from '../clusters/cluster';
import { memoryFrozen, NINE_ROWS } from '../clusters/frozen.test-support';
import { kindOfDiscovered } from '../clusters/kind-info';
import type { SnapshotKindRow } from '../clusters/source-frozen';
import { contextsFromYaml } from '../kube/kubeconfig';
import { silentLogger } from '../logger';
import { simPerFile, sleep, until } from './cache.test-support';

const env = simPerFile();
let cluster: ClusterConnection | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

const NO_RETRY = { baseMs: 60_000, capMs: 60_000, stableAfterMs: 60_000 };
/** Every event cache is one the history would keep watching, were it recorded. */
const RECORDING: ClusterOptions['eventRecording'] = { observer: () => undefined, keepsWatching: () => true };

describe('a live cluster', () => {
  it('starts a cache for any kind on its first read and stops it, watch and all, once idle', async () => {
    const source = contextsFromYaml(env.sim.kubeconfigYaml('sweep'))[0]!;
    cluster = new ClusterConnection('sweep', source, {
      timeoutMs: 5_000,
      logger: silentLogger(),
      watch: NO_RETRY,
    });
    const configmap = await cluster.kind('configmap');
    const certificate = await cluster.kind('certificate');
    const maps = cluster.resources(configmap);
    const certs = cluster.resources(certificate);
    await Promise.all([maps.acquire(), certs.acquire()]);
    expect(maps.read().view.all.length).toBeGreaterThan(0);
    expect(certs.read().view.all.length).toBeGreaterThan(0);
    await until(() => maps.liveEntry(maps.read().view.all[0]!.key) !== undefined, 'the caches are live');
    await sleep(30);

    await cluster.sweep(60_000);
    expect(cluster.resources(configmap)).toBe(maps);

    await cluster.sweep(10);
    // Both caches stopped: they vouch for nothing, and a change no longer reaches them.
    expect(maps.liveEntry(maps.read().view.all[0]!.key)).toBeUndefined();
    expect(certs.liveEntry(certs.read().view.all[0]!.key)).toBeUndefined();
    const before = maps.read().view.all.length;
    const again = cluster.resources(configmap);
    expect(again).not.toBe(maps);
    await again.acquire();
    expect(again.read().view.all.map((e) => e.key)).toEqual(maps.read().view.all.map((e) => e.key));
    env.sim.store.upsert({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'after-sweep', namespace: 'default' },
    });
    await until(() => again.liveEntry('default/after-sweep') !== undefined, 'the new cache sees the change');
    expect(maps.read().view.all).toHaveLength(before);
  });
});

describe('a snapshot cluster', () => {
  const CONFIGMAP: SnapshotKindRow = {
    resourceType: 'configmap',
    singular: 'configmap',
    plural: 'configmaps',
    kind: 'ConfigMap',
    group: '',
    version: 'v1',
    namespaced: true,
    shortNames: ['cm'],
    categories: [],
    verbs: ['get', 'list', 'watch'],
  };
  const WIDGET: SnapshotKindRow = {
    resourceType: 'widget',
    singular: 'widget',
    plural: 'widgets',
    kind: 'Widget',
    group: 'example.com',
    version: 'v1',
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: ['get', 'list', 'watch'],
  };
  const obj = (kind: string, name: string) => ({
    apiVersion: 'v1',
    kind,
    metadata: { namespace: 'ns', name },
  });

  function open() {
    const frozen = memoryFrozen(
      { context: 'prod', server: 'https://prod.invalid', takenAt: '2026-01-01T00:00:00Z' },
      {
        pods: [obj('Pod', 'p')],
        configmaps: [obj('ConfigMap', 'c')],
        widgets: [obj('Widget', 'w')],
        events: [{ ...obj('Event', 'e'), metadata: { namespace: 'ns', name: 'e', uid: 'u-e' } }],
      },
      [...NINE_ROWS, CONFIGMAP, WIDGET],
    );
    cluster = new ClusterConnection('snap', contextsFromYaml(env.sim.kubeconfigYaml('snap'))[0]!, {
      timeoutMs: 5_000,
      logger: silentLogger(),
      watch: NO_RETRY,
      eventRecording: RECORDING,
      kinds: frozen.kindRows.map((k) => kindOfDiscovered({ ...k, resource: k.plural })),
      frozen,
    });
    return { frozen, c: cluster };
  }

  it('lists a kind only when it is first read: the kinds nobody opens cost nothing', async () => {
    const { frozen, c } = open();
    expect(frozen.pages.size).toBe(0);
    await c.resources(await c.kind('configmap')).acquire();
    expect([...frozen.pages.keys()]).toEqual(['configmaps']);
  });

  it('stops every idle cache, events included (a snapshot’s are never recorded), and starts afresh on the next read', async () => {
    const { frozen, c } = open();
    const widget = await c.kind('widget.example.com');
    const caches = [
      c.resources(RESOURCE_KINDS.pod),
      c.resources(await c.kind('configmap')),
      c.resources(widget),
    ];
    const events = c.events();
    await Promise.all([...caches.map((x) => x.acquire()), events.acquire()]);
    expect([...frozen.pages.keys()].sort()).toEqual(['configmaps', 'events', 'pods', 'widgets']);
    expect(caches.every((x) => x.liveEntry(x.read().view.all[0]!.key) !== undefined)).toBe(true);
    await sleep(30);

    await c.sweep(60_000);
    expect(c.resources(widget)).toBe(caches[2]);
    expect(c.events()).toBe(events);

    await c.sweep(10);
    for (const x of caches) expect(x.liveEntry(x.read().view.all[0]!.key)).toBeUndefined();
    expect(c.events()).not.toBe(events);
    const again = c.resources(widget);
    expect(again).not.toBe(caches[2]);
    await again.acquire();
    expect(frozen.pages.get('widgets')).toEqual([100, 100]);
    expect(again.read().view.all.map((e) => e.name)).toEqual(['w']);
  });
});
