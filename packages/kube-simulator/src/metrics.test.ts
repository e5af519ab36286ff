import { ApiException, type KubeConfig, Metrics } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, harness } from './harness.test-support';
import { DEMO_PODS, type Simulator } from './index';

let sim: Simulator;
let kc: KubeConfig;

beforeAll(async () => {
  ({ sim, kc } = await harness());
});
afterAll(() => sim.close());

describe('metrics.k8s.io', () => {
  it('lists pod metrics cluster-wide and per namespace in metrics-server units', async () => {
    const metrics = new Metrics(kc);
    const all = await metrics.getPodMetrics();
    expect(all.kind).toBe('PodMetricsList');
    expect(all.items.length).toBeGreaterThan(15);
    for (const item of all.items) {
      for (const c of item.containers) {
        expect(c.usage.cpu).toMatch(/^\d+n$/);
        expect(c.usage.memory).toMatch(/^\d+Ki$/);
      }
    }
    const names = all.items.map((i) => i.metadata.name);
    // Not running (or on the NotReady node): no metrics, like metrics-server.
    expect(names).not.toContain(DEMO_PODS.unschedulable.name);
    expect(names).not.toContain(DEMO_PODS.crashLoop.name);
    expect(names).not.toContain(DEMO_PODS.kubeProxyOnNotReadyNode.name);
    const shop = await metrics.getPodMetrics('shop');
    expect(shop.items.every((i) => i.metadata.namespace === 'shop')).toBe(true);
    const checkout = shop.items.find((i) => i.metadata.name === DEMO_PODS.checkout.name);
    expect(checkout?.containers.map((c) => c.name).sort()).toEqual(['checkout', 'envoy']);
  });

  it('reports the OOM-killed container close to its memory limit', async () => {
    const res = await fetch(
      `${sim.url}/apis/metrics.k8s.io/v1beta1/namespaces/demo-broken/pods/${DEMO_PODS.oomKilled.name}`,
      { headers: authHeaders() },
    );
    const body = await res.json();
    expect(body.kind).toBe('PodMetrics');
    const ki = Number.parseInt(body.containers[0].usage.memory, 10);
    expect(ki).toBeGreaterThan(0.85 * 256 * 1024);
  });

  it('lists node metrics for Ready nodes only and 404s the NotReady one', async () => {
    const nodes = await new Metrics(kc).getNodeMetrics();
    expect(nodes.items.map((n) => n.metadata.name).sort()).toEqual(['worker-1', 'worker-2']);
    const res = await fetch(`${sim.url}/apis/metrics.k8s.io/v1beta1/nodes/worker-3`, {
      headers: authHeaders(),
    });
    expect(res.status).toBe(404);
    expect((await res.json()).message).toBe('nodemetrics.metrics.k8s.io "worker-3" not found');
  });

  it('filters pod metrics by label selector', async () => {
    const res = await fetch(`${sim.url}/apis/metrics.k8s.io/v1beta1/pods?labelSelector=app%3Dfrontend`, {
      headers: authHeaders(),
    });
    expect((await res.json()).items).toHaveLength(3);
  });

  it('drifts with the ticker and is stable without it', async () => {
    const metrics = new Metrics(kc);
    const a = await metrics.getPodMetrics('shop');
    const b = await metrics.getPodMetrics('shop');
    expect(b.items.map((i) => i.containers)).toEqual(a.items.map((i) => i.containers));
    sim.tick();
    const c = await metrics.getPodMetrics('shop');
    expect(c.items.map((i) => i.containers)).not.toEqual(a.items.map((i) => i.containers));
  });

  it('goes down (503 from the aggregator) and missing (404) on demand', async () => {
    sim.faults.metricsDown = true;
    try {
      const raw = await fetch(`${sim.url}/apis/metrics.k8s.io/v1beta1/pods`, { headers: authHeaders() });
      expect(raw.status).toBe(503);
      expect(await raw.text()).toBe('service unavailable\n');
      // client-node's Metrics parses every body as JSON, so the aggregator's text becomes a 500.
      await expect(new Metrics(kc).getPodMetrics()).rejects.toBeInstanceOf(ApiException);
    } finally {
      sim.faults.metricsDown = false;
    }
    sim.faults.metricsMissing = true;
    try {
      const groups = await (await fetch(`${sim.url}/apis`, { headers: authHeaders() })).json();
      expect(groups.groups.map((g: { name: string }) => g.name)).not.toContain('metrics.k8s.io');
      const err = await new Metrics(kc).getNodeMetrics().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiException);
      expect((err as ApiException<unknown>).code).toBe(404);
    } finally {
      sim.faults.metricsMissing = false;
    }
  });
});
