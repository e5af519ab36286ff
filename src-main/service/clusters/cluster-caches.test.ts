/**
 * A cluster's set of watch caches (cluster-caches.ts) over a frozen cluster held in memory, so no
 * network is involved: which kinds run, the label index a pod list is filtered through, and the
 * idle sweep's exact edge on a clock the test sets.
 */
import { kubeconfigYaml } from '@skiff/kube-simulator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import { EventFeed } from '../events/feed';
import { DEFAULT_BACKOFF } from '../kube/backoff';
import { KubeClient } from '../kube/kube-client';
import { contextsFromYaml } from '../kube/kubeconfig';
import { silentLogger } from '../logger';
import { ClusterCaches } from './cluster-caches';
import { memoryFrozen } from './frozen.test-support';
import { tailoredKind } from './resolve-kind';

const pod = (name: string, app: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: 'ns', name, labels: { app } },
});

let caches: ClusterCaches | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await caches?.close();
  caches = undefined;
});

function open() {
  const source = contextsFromYaml(
    kubeconfigYaml({ server: 'http://frozen.invalid', user: { token: 't' } }),
  )[0]!;
  const client = new KubeClient(source.config, source.server, {});
  void client.close();
  const frozen = memoryFrozen(
    { context: 'snap', server: 'https://frozen.invalid', takenAt: '2026-01-01T00:00:00Z' },
    {
      pods: [pod('a', 'web'), pod('b', 'db'), pod('c', 'web')],
      services: [{ apiVersion: 'v1', kind: 'Service', metadata: { namespace: 'ns', name: 'svc' } }],
      events: [],
    },
  );
  caches = new ClusterCaches({
    clusterId: 'snap',
    client,
    frozen,
    timeoutMs: 5_000,
    fillWait: {},
    logger: silentLogger(),
    backoff: DEFAULT_BACKOFF,
    pins: { idleMs: 60_000, max: 4 },
    listChunk: 100,
    now: undefined,
    eventRecording: undefined,
    resourceRecording: undefined,
    eventFeed: new EventFeed({ capacity: 16 }),
  });
  return caches;
}

const POD = tailoredKind('pod')!;
const SERVICE = tailoredKind('service')!;

describe('ClusterCaches', () => {
  it('names the kinds whose caches run, and none once the sweep stopped them', async () => {
    const c = open();
    expect(c.runningKinds()).toEqual([]);
    await c.resources(POD).acquire();
    await c.resources(SERVICE).acquire();
    expect(c.runningKinds().map((k) => k.resourceType)).toEqual(['pod', 'service']);
    expect(c.running(POD)).toBe(c.resources(POD));
    await c.sweep(-1);
    expect(c.runningKinds()).toEqual([]);
    expect(c.running(POD)).toBeUndefined();
  });

  it('keeps a label index of each kind: the pods of one label pair, in order', async () => {
    const c = open();
    const cache = c.resources(POD);
    await cache.acquire();
    expect(
      cache
        .read()
        .view.by('label', 'app=web')
        .map((e) => e.name),
    ).toEqual(['a', 'c']);
  });

  it('stops a cache idle for longer than the idle time, not one idle for exactly that long', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const c = open();
    await c.resources(POD).acquire();
    await c.events().acquire();
    c.resources(POD).read();
    c.events().read();
    const events = c.events();
    vi.setSystemTime(1_001_000);
    await c.sweep(1_000);
    expect(c.runningKinds().map((k) => k.resourceType)).toEqual(['pod']);
    expect(c.events()).toBe(events);
    vi.setSystemTime(1_002_001);
    await c.sweep(1_000);
    expect(c.runningKinds()).toEqual([]);
    expect(c.events()).not.toBe(events);
  });
});
