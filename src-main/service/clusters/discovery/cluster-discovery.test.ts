/**
 * A cluster's discovery over its lifetime, against the simulator through the real cluster client:
 * the first read, the reads CRD and APIService changes and the timer start, a read that fails
 * (stale, then fresh again), a first read that fails, and stopping when idle.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProblemError } from '../../errors';
import { LEVEL, recordingLogger } from '../../http/recording-logger.test-support';
import { DEFAULT_BACKOFF } from '../../kube/backoff';
import { KubeClient, KubeRequestError } from '../../kube/kube-client';
import { contextsFromYaml } from '../../kube/kubeconfig';
import { silentLogger } from '../../logger';
import { eventually } from '../../test-support/eventually.test-support';
import {
  ClusterDiscovery,
  DEBOUNCE_MS,
  type DiscoveryOptions,
  discoveryProblem,
  REFRESH_MS,
  RETRY_MS,
} from './cluster-discovery';
import { type CountingProxy, countingProxy } from './proxy.test-support';

let sim: Simulator;
const open: ClusterDiscovery[] = [];
const clients: KubeClient[] = [];

beforeAll(async () => {
  sim = await startSimulator();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((d) => d.stop()));
  await Promise.all(clients.splice(0).map((c) => c.close()));
  sim.faults.unauthorized = false;
  sim.faults.metricsDown = false;
});
afterAll(() => sim.close());

function discovery(opts: Partial<DiscoveryOptions> = {}, yaml = sim.kubeconfigYaml('sim')): ClusterDiscovery {
  const [source] = contextsFromYaml(yaml);
  if (!source) throw new Error('no context');
  const client = new KubeClient(source.config, source.server);
  clients.push(client);
  const d = new ClusterDiscovery({
    client,
    timeoutMs: 5_000,
    logger: silentLogger(),
    backoff: { ...DEFAULT_BACKOFF, baseMs: 20, capMs: 100 },
    pins: { idleMs: 60_000, max: 4 },
    ...opts,
  });
  open.push(d);
  return d;
}

const crd = (plural: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.lab.example.dev` },
  spec: {
    group: 'lab.example.dev',
    names: { plural, kind: plural[0]?.toUpperCase() + plural.slice(1, -1) },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        additionalPrinterColumns: [{ name: 'X', type: 'string', jsonPath: '.x' }],
      },
    ],
  },
});

function metricsApiService(available: boolean) {
  sim.store.upsert({
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: 'v1beta1.metrics.k8s.io' },
    spec: { group: 'metrics.k8s.io', version: 'v1beta1' },
    status: { conditions: [{ type: 'Available', status: available ? 'True' : 'False' }] },
  });
}

describe('ClusterDiscovery', () => {
  it('keeps its defaults: five minutes between reads, 30 s after a failure', () => {
    expect(REFRESH_MS).toBe(300_000);
    expect(RETRY_MS).toBe(30_000);
    expect(DEBOUNCE_MS).toBe(300);
  });

  it('reads on first need, with the CRDs the watch holds', async () => {
    let clock = 1_000;
    const d = discovery({ now: () => clock });
    const view = await d.current();
    expect(view.readAt).toBe(1_000);
    expect(view.gaps).toEqual([]);
    expect(view.staleSince).toBeUndefined();
    expect(view.kinds.find((k) => k.resourceType === 'certificate')?.group).toBe('cert-manager.io');
    expect(view.crds.map((c) => c.key)).toEqual([
      'certificates.cert-manager.io',
      'clusterissuers.cert-manager.io',
    ]);
    // Nothing changed and no timer is due: the next answer is the same read.
    clock = 2_000;
    await new Promise((r) => setTimeout(r, 200));
    expect((await d.current()).readAt).toBe(1_000);
  });

  it('reads again when a CRD is created or deleted', async () => {
    const d = discovery();
    await d.current();
    sim.store.upsert(crd('beakers'));
    try {
      await eventually(async () => {
        const view = await d.current();
        expect(view.kinds.map((k) => k.resourceType)).toContain('beaker');
        expect(view.crds.map((c) => c.key)).toContain('beakers.lab.example.dev');
      }, 10_000);
    } finally {
      sim.store.remove('customresourcedefinitions', 'beakers.lab.example.dev');
    }
    await eventually(
      async () => expect((await d.current()).kinds.map((k) => k.resourceType)).not.toContain('beaker'),
      10_000,
    );
  });

  it('reads again when an APIService changes', async () => {
    const d = discovery();
    expect((await d.current()).gaps).toEqual([]);
    sim.faults.metricsDown = true;
    metricsApiService(false);
    await eventually(
      async () =>
        expect((await d.current()).gaps.map((g) => g.groupVersion)).toEqual(['metrics.k8s.io/v1beta1']),
      10_000,
    );
    sim.faults.metricsDown = false;
    metricsApiService(true);
    await eventually(async () => expect((await d.current()).gaps).toEqual([]), 10_000);
  });

  it('reads again on its timer, with nothing else changing', async () => {
    const d = discovery({ refreshMs: 50 });
    expect((await d.current()).gaps).toEqual([]);
    sim.faults.metricsDown = true;
    await eventually(async () => expect((await d.current()).gaps).toHaveLength(1), 10_000);
  });

  it('serves its last read as stale while reads fail, and fresh once one succeeds', async () => {
    const d = discovery({ refreshMs: 30, retryMs: 30, now: () => Date.parse('2026-05-01T10:00:00Z') });
    const first = await d.current();
    sim.faults.unauthorized = true;
    const stale = await eventually(async () => {
      const view = await d.current();
      expect(view.staleSince).toBe('2026-05-01T10:00:00.000Z');
      return view;
    }, 10_000);
    expect(stale.kinds).toEqual(first.kinds);
    sim.faults.unauthorized = false;
    await eventually(async () => expect((await d.current()).staleSince).toBeUndefined(), 10_000);
  });

  it('resolves a read that fails with the last discovery, and rejects one only before any succeeded', async () => {
    let clock = 1;
    const d = discovery({ now: () => clock });
    sim.faults.unauthorized = true;
    await expect(d.refresh()).rejects.toMatchObject({ code: 'cluster_unauthorized' });
    sim.faults.unauthorized = false;
    expect((await d.refresh()).at).toBe(1);
    clock = 2;
    sim.faults.unauthorized = true;
    expect((await d.refresh()).at).toBe(1);
    sim.faults.unauthorized = false;
    expect((await d.refresh()).at).toBe(2);
  });

  it('answers the cluster’s problem when the first read fails, and reads at the next need', async () => {
    const d = discovery();
    sim.faults.unauthorized = true;
    const err = await d.current().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProblemError);
    expect((err as ProblemError).code).toBe('cluster_unauthorized');
    sim.faults.unauthorized = false;
    expect((await d.current()).kinds.length).toBeGreaterThan(40);
  });

  it('makes one read of callers that come together, and one more for a change during it', async () => {
    const d = discovery();
    const first = d.refresh();
    expect(d.refresh()).toBe(first);
    await first;
    const views = await Promise.all([d.current(), d.current()]);
    expect(views[0].readAt).toBe(views[1].readAt);
  });

  it('stops when unused for the idle time, and reads afresh at the next need', async () => {
    let clock = 1;
    const d = discovery({ now: () => clock });
    await d.current();
    await d.sweep(60_000);
    clock = 2;
    expect((await d.current()).readAt).toBe(1);
    d.lastUsed = Date.now() - 120_000;
    await d.sweep(60_000);
    await d.sweep(60_000);
    expect((await d.current()).readAt).toBe(2);
  });
});

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const API_SERVICES = '/apis/apiregistration.k8s.io/v1/apiservices';
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the requests it makes', () => {
  let proxy: CountingProxy;
  beforeAll(async () => {
    proxy = await countingProxy(sim.url);
  });
  afterEach(() => proxy.deny.clear());
  afterAll(() => proxy.close());
  const viaProxy = (opts: Partial<DiscoveryOptions> = {}) =>
    discovery(opts, sim.kubeconfigYaml('sim').replace(sim.url, proxy.url));

  it('starts its watches once and reads once however often asked; their first lists start no read', async () => {
    const base = { api: proxy.count('/api'), apis: proxy.count('/apis'), crds: proxy.count(CRDS) };
    const d = viaProxy();
    await Promise.all([d.current(), d.current()]);
    await d.current();
    await eventually(async () => {
      expect(proxy.count(CRDS, true)).toBeGreaterThan(0);
      expect(proxy.count(API_SERVICES, true)).toBeGreaterThan(0);
    }, 10_000);
    await pause(600); // past the debounce: a read the first lists started would have begun
    expect(proxy.count('/api') - base.api).toBe(1);
    expect(proxy.count('/apis') - base.apis).toBe(1);
    expect(proxy.count(CRDS) - base.crds).toBe(1);
  });

  it('reads once more for a change during a read, and no more', async () => {
    const d = viaProxy();
    await d.current();
    const base = proxy.count('/api');
    const first = d.refresh();
    void d.refresh();
    await first;
    await eventually(async () => expect(proxy.count('/api')).toBe(base + 2), 10_000);
    await pause(600);
    expect(proxy.count('/api')).toBe(base + 2);
  });

  it('ends its watches and its timer when stopped', async () => {
    const d = viaProxy({ refreshMs: 30 });
    await d.current();
    await eventually(async () => {
      expect(proxy.open(CRDS)).toBeGreaterThan(0);
      expect(proxy.open(API_SERVICES)).toBeGreaterThan(0);
    }, 10_000);
    await d.stop();
    await eventually(async () => {
      expect(proxy.open(CRDS)).toBe(0);
      expect(proxy.open(API_SERVICES)).toBe(0);
    }, 10_000);
    const reads = proxy.count('/api');
    const watches = proxy.count(CRDS, true) + proxy.count(API_SERVICES, true);
    await pause(300);
    // No read from a timer, and no watch started again (a watch left running would re-watch).
    expect(proxy.count('/api')).toBe(reads);
    expect(proxy.count(CRDS, true) + proxy.count(API_SERVICES, true)).toBe(watches);
    expect(proxy.open(CRDS) + proxy.open(API_SERVICES)).toBe(0);
  });

  it('answers without printer columns from a cluster that will not list CRDs, and says why', async () => {
    proxy.deny.add(CRDS);
    const { logger, entries } = recordingLogger();
    const view = await viaProxy({ logger }).current();
    expect(view.kinds.map((k) => k.resourceType)).toContain('certificate');
    expect(view.crds).toEqual([]);
    expect(
      entries.find((e) => e.msg === 'discovery: the CustomResourceDefinitions could not be listed'),
    ).toMatchObject({
      level: LEVEL.warn,
      err: expect.stringContaining('forbidden'),
    });
  });
});

describe('what it logs', () => {
  it('warns of gaps and of failed reads, and says when reads succeed again', async () => {
    const { logger, entries } = recordingLogger();
    const d = discovery({ logger, refreshMs: 30, retryMs: 30 });
    sim.faults.metricsDown = true;
    await d.current();
    const gaps = entries.find((e) => e.msg === 'discovery: some group versions could not be read');
    expect(entries.filter((e) => e.msg === 'discovery: read again after failures')).toEqual([]);
    expect(gaps).toMatchObject({ level: LEVEL.warn, gaps: [{ groupVersion: 'metrics.k8s.io/v1beta1' }] });
    sim.faults.metricsDown = false;
    sim.faults.unauthorized = true;
    await eventually(async () => {
      expect(entries.find((e) => e.msg === 'discovery failed; retrying')).toMatchObject({
        level: LEVEL.warn,
        err: expect.stringContaining('Unauthorized'),
      });
    }, 10_000);
    sim.faults.unauthorized = false;
    await eventually(async () => {
      expect(entries.find((e) => e.msg === 'discovery: read again after failures')?.level).toBe(LEVEL.info);
    }, 10_000);
    const before = entries.length;
    await new Promise((r) => setTimeout(r, 150));
    // Reads that find every group are not logged.
    expect(entries.slice(before).filter((e) => e.msg?.startsWith('discovery'))).toEqual([]);
  });
});

describe('a server that answers no discovery', () => {
  it('is the cluster’s error, named for the document it answered', async () => {
    const fake = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"kind":"Nope"}');
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
      const d = discovery({}, sim.kubeconfigYaml('sim').replace(sim.url, url));
      const err = (await d.current().catch((e: unknown) => e)) as ProblemError;
      expect(err).toBeInstanceOf(ProblemError);
      expect(err.code).toBe('cluster_error');
      expect(err.message).toBe('the cluster answered /api with something that is not a discovery document');
    } finally {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      fake.closeAllConnections();
      await new Promise((resolve) => fake.close(resolve));
    }
  });
});

describe('discoveryProblem', () => {
  it('makes a 404 of a discovery path the cluster’s error, and anything else the usual problem', () => {
    const missing = discoveryProblem(
      new KubeRequestError(404, undefined, 'page not found'),
      '/apis',
    ) as ProblemError;
    expect(missing.code).toBe('cluster_error');
    expect(missing.message).toBe('the cluster answered 404 for /apis: page not found');
    expect(missing.extensions).toEqual({ clusterStatus: 404 });
    expect((discoveryProblem(new KubeRequestError(403, undefined, 'no'), '/api') as ProblemError).code).toBe(
      'cluster_unauthorized',
    );
    expect(
      (discoveryProblem(new KubeRequestError(503, undefined, 'down'), '/api') as ProblemError).code,
    ).toBe('cluster_error');
  });
});
