/**
 * A cluster's discovery over its lifetime, against the simulator through the real cluster client:
 * the first read, the reads CRD and APIService changes and the timer start, a read that fails
 * (stale, then fresh again), a first read that fails, and stopping when idle.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../simulator/index';
import { ProblemError } from '../../errors';
import { silentLogger } from '../../logger';
import { eventually } from '../../test/eventually';
import { DEFAULT_BACKOFF } from '../backoff';
import { KubeClient, KubeRequestError } from '../kube-client';
import { contextsFromYaml } from '../kubeconfig';
import {
  ClusterDiscovery,
  DEBOUNCE_MS,
  type DiscoveryOptions,
  discoveryProblem,
  REFRESH_MS,
  RETRY_MS,
} from './cluster-discovery';

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

function discovery(opts: Partial<DiscoveryOptions> = {}): ClusterDiscovery {
  const [source] = contextsFromYaml(sim.kubeconfigYaml('sim'));
  if (!source) throw new Error('no context');
  const client = new KubeClient(source.config, source.server);
  clients.push(client);
  const d = new ClusterDiscovery({
    client,
    timeoutMs: 5_000,
    logger: silentLogger(),
    backoff: { ...DEFAULT_BACKOFF, baseMs: 20, capMs: 100 },
    pins: { idleMs: 60_000, max: 4 },
    debounceMs: 20,
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

describe('discoveryProblem', () => {
  it('makes a 404 of a discovery path the cluster’s error, and anything else the usual problem', () => {
    const missing = discoveryProblem(
      new KubeRequestError(404, undefined, 'page not found'),
      '/apis',
    ) as ProblemError;
    expect(missing.code).toBe('cluster_error');
    expect(missing.message).toBe('the cluster answered 404 for /apis: page not found');
    expect((discoveryProblem(new KubeRequestError(403, undefined, 'no'), '/api') as ProblemError).code).toBe(
      'cluster_unauthorized',
    );
    expect(
      (discoveryProblem(new KubeRequestError(503, undefined, 'down'), '/api') as ProblemError).code,
    ).toBe('cluster_error');
  });
});
