import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPki, DEMO_PODS, type SimPki, type Simulator, startSimulator } from '../../simulator/index';
import { KubeClient } from '../clusters/kube-client';
import { contextsFromYaml } from '../clusters/kubeconfig';
import { SHORT_CONNECTIONS } from '../clusters/transport';
import { eventually } from './eventually';
import { type Stack, startStack } from './harness';

const { payments } = DEMO_PODS;

let pki: SimPki;
beforeAll(async () => {
  pki = await createPki();
});

describe('connections through the service', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ simulator: { tls: { pki } } });
  });
  afterAll(async () => stack?.close());

  const pod = () => `${stack.cluster}/kubernetes-proxy/namespaces/${payments.namespace}/pod/${payments.name}`;
  const accepted = () => stack.sim.connections().accepted;

  it('sequential single-pod GETs reuse their connections: the count does not grow with N', async () => {
    const before = accepted();
    for (let i = 0; i < 20; i++) expect((await stack.get(pod())).status).toBe(200);
    const first = accepted() - before;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(2);
    for (let i = 0; i < 100; i++) expect((await stack.get(pod())).status).toBe(200);
    expect(accepted() - before).toBe(first);
  });

  it(`50 concurrent single-pod GETs open at most ${SHORT_CONNECTIONS} connections, and reuse them`, async () => {
    // Slow answers keep all fifty in flight at once, so the bound is what limits the sockets.
    stack.sim.faults.latencyMs = 100;
    try {
      const before = accepted();
      const burst = async () => {
        const answers = await Promise.all(Array.from({ length: 50 }, () => stack.get(pod())));
        expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
      };
      await burst();
      const opened = accepted() - before;
      expect(opened).toBeGreaterThan(2);
      expect(opened).toBeLessThanOrEqual(SHORT_CONNECTIONS);
      expect(stack.sim.connections().open).toBeLessThanOrEqual(SHORT_CONNECTIONS + 2);
      await burst();
      expect(accepted() - before).toBe(opened);
    } finally {
      stack.sim.faults.latencyMs = 0;
    }
  });
});

describe('KubeClient streams', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ tickMs: false, tls: { pki } });
  });
  afterAll(async () => sim?.close());

  function client(): KubeClient {
    return new KubeClient(contextsFromYaml(sim.kubeconfigYaml('streams'))[0]!.config, sim.url);
  }

  it('watches beyond the short-request bound do not block short requests, and close() ends them all', async () => {
    const kube = client();
    const stop = new AbortController();
    try {
      const watches = await Promise.all(
        Array.from({ length: SHORT_CONNECTIONS + 8 }, () =>
          kube.open('/api/v1/pods', {
            query: { watch: '1', allowWatchBookmarks: 'true' },
            stream: true,
            timeoutMs: 5_000,
            signal: stop.signal,
          }),
        ),
      );
      expect(watches.every((w) => w.response.ok)).toBe(true);
      expect(sim.connections().open).toBeGreaterThanOrEqual(SHORT_CONNECTIONS + 8);
      const started = Date.now();
      const one = await kube.getJson<{ metadata: { name: string } }>(
        `/api/v1/namespaces/${payments.namespace}/pods/${payments.name}`,
        { timeoutMs: 2_000 },
      );
      expect(one.metadata.name).toBe(payments.name);
      expect(Date.now() - started).toBeLessThan(1_000);
      await kube.close();
      await eventually(async () => expect(sim.connections().open).toBe(0), 3_000);
      await expect(kube.getJson('/version', { timeoutMs: 1_000 })).rejects.toMatchObject({
        code: 'cluster_unreachable',
      });
    } finally {
      stop.abort();
      await kube.close();
    }
  });

  it('a stream outlives its timeoutMs: the deadline bounds only the wait for headers', async () => {
    const kube = client();
    const stop = new AbortController();
    try {
      const { response } = await kube.open('/api/v1/namespaces', {
        query: { watch: '1' },
        stream: true,
        timeoutMs: 300,
        signal: stop.signal,
      });
      const reader = response.body!.getReader();
      await new Promise((r) => setTimeout(r, 600));
      sim.store.upsert({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'late-arrival' } });
      const text = new TextDecoder();
      let seen = '';
      while (!seen.includes('late-arrival')) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error('the watch ended');
        seen += text.decode(chunk.value);
      }
      expect(seen).toContain('"ADDED"');
    } finally {
      stop.abort();
      await kube.close();
    }
  });

  it('a short request past its timeoutMs is a 504 cluster_timeout, and the client keeps working', async () => {
    const kube = client();
    try {
      sim.faults.hang = true;
      const started = Date.now();
      await expect(kube.getJson('/api/v1/namespaces', { timeoutMs: 300 })).rejects.toMatchObject({
        code: 'cluster_timeout',
        status: 504,
      });
      expect(Date.now() - started).toBeLessThan(1_000);
      sim.faults.hang = false;
      const list = await kube.getJson<{ items: unknown[] }>('/api/v1/namespaces', { timeoutMs: 2_000 });
      expect(list.items.length).toBeGreaterThan(0);
    } finally {
      sim.faults.hang = false;
      await kube.close();
    }
  });

  it('a cluster that is gone is a 502 cluster_unreachable naming the refused connection', async () => {
    const gone = await startSimulator({ tickMs: false });
    const kube = new KubeClient(contextsFromYaml(gone.kubeconfigYaml('gone'))[0]!.config, gone.url);
    await gone.close();
    try {
      await expect(kube.getJson('/version', { timeoutMs: 2_000 })).rejects.toMatchObject({
        code: 'cluster_unreachable',
        message: expect.stringMatching(/connection refused \(ECONNREFUSED\)/),
      });
    } finally {
      await kube.close();
    }
  });

  it('plain http without insecure-skip-tls-verify is refused, as client-node refuses it', async () => {
    const kube = new KubeClient(
      {
        cluster: { name: 'c', server: 'http://127.0.0.1:1', skipTLSVerify: false },
        user: { name: 'u', token: 't' },
        context: { name: 'x', cluster: 'c', user: 'u' },
      },
      'http://127.0.0.1:1',
    );
    await expect(kube.getJson('/version', { timeoutMs: 1_000 })).rejects.toMatchObject({
      code: 'cluster_unreachable',
      message: expect.stringMatching(/plain http; that needs insecure-skip-tls-verify/),
    });
    await kube.close();
  });
});
