/**
 * The service's connections to a cluster, counted at a loopback proxy and at the simulator: pool
 * bounds, reuse, streams kept apart from short requests, deadlines. Every check is a state (how many
 * connections, which answer): where concurrency matters the proxy holds the cluster's answers, so
 * nothing depends on how fast the machine is.
 */

import { createPki, DEMO_PODS, type SimPki, type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../test-support/eventually.test-support';
import { type FaultProxy, portOf, startFaultProxy } from '../test-support/fault-proxy.test-support';
import { type Stack, startStack } from '../test-support/harness.test-support';
import { KubeClient } from './kube-client';
import { contextsFromYaml } from './kubeconfig';
import { SHORT_CONNECTIONS } from './transport';

const { payments } = DEMO_PODS;

let pki: SimPki;
beforeAll(async () => {
  pki = await createPki();
});

describe('connections through the service', () => {
  let stack: Stack;
  // The cluster is reached through a loopback proxy, which counts the service's connections and
  // can hold the cluster's answers (and TLS handshakes) while the test looks at what is in flight.
  let proxy: FaultProxy;
  beforeAll(async () => {
    stack = await startStack({
      simulator: { tls: { pki } },
      // Longer than any hold below: the held requests are answered, not timed out.
      service: { timeoutMs: 30_000 },
      clusterServer: async (sim) => {
        proxy = await startFaultProxy(portOf(sim.url));
        return `https://127.0.0.1:${proxy.port}`;
      },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
  });

  const pod = () => `${stack.cluster}/kubernetes-proxy/namespaces/${payments.namespace}/pod/${payments.name}`;

  it('sequential single-pod GETs reuse their connections: the count does not grow with N', async () => {
    const before = proxy.accepted;
    for (let i = 0; i < 20; i++) expect((await stack.get(pod())).status).toBe(200);
    const first = proxy.accepted - before;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(2);
    for (let i = 0; i < 100; i++) expect((await stack.get(pod())).status).toBe(200);
    expect(proxy.accepted - before).toBe(first);
  });

  it(`50 concurrent single-pod GETs open at most ${SHORT_CONNECTIONS} connections, and reuse them`, async () => {
    // The cluster's first contact is over: what opens from here on is the pool's doing.
    expect((await stack.get(pod())).status).toBe(200);
    const fifty = () => Promise.all(Array.from({ length: 50 }, () => stack.get(pod())));
    // Nothing the cluster sends reaches the service until released, so no connection frees up
    // whatever the machine's speed: each of the fifty wants one, and only the bound stops the
    // pool at SHORT_CONNECTIONS (the rest wait in its queue).
    proxy.hold();
    let held: ReturnType<typeof fifty>;
    try {
      held = fifty();
      await eventually(async () => expect(proxy.open).toBeGreaterThanOrEqual(SHORT_CONNECTIONS), 10_000);
    } finally {
      proxy.release();
    }
    expect((await held).map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(proxy.maxOpen).toBeLessThanOrEqual(SHORT_CONNECTIONS);

    // The pool is full and every connection in it alive: as many again open none.
    const opened = proxy.accepted;
    expect((await fifty()).map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(proxy.accepted).toBe(opened);
    expect(proxy.maxOpen).toBeLessThanOrEqual(SHORT_CONNECTIONS);
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
      // Were the watches holding the short requests' sockets, this would wait in the queue until
      // its deadline and fail with cluster_timeout: that it is answered at all is the check.
      const one = await kube.getJson<{ metadata: { name: string } }>(
        `/api/v1/namespaces/${payments.namespace}/pods/${payments.name}`,
        { timeoutMs: 10_000 },
      );
      expect(one.metadata.name).toBe(payments.name);
      await kube.close();
      await eventually(async () => expect(sim.connections().open).toBe(0), 10_000);
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
      // The cluster never answers: only the deadline can end the request, and its problem says so
      // (this test's own timeout guards a hang).
      sim.faults.hang = true;
      await expect(kube.getJson('/api/v1/namespaces', { timeoutMs: 300 })).rejects.toMatchObject({
        code: 'cluster_timeout',
        status: 504,
        message: 'the cluster did not answer within 0.3 s',
      });
      sim.faults.hang = false;
      const list = await kube.getJson<{ items: unknown[] }>('/api/v1/namespaces', { timeoutMs: 10_000 });
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
