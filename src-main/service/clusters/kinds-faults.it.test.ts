/**
 * Kind names when discovery cannot be read (the cluster down, or only its discovery documents
 * failing), and a kind beyond the nine when its cluster goes away:
 * the nine's own names never wait for discovery, a refusal the nine alone can tell stays a 400, a
 * name only discovery can tell is the cluster's 502, and a kind whose cache synced is served as the
 * nine are, marked x-Stale-Since. A snapshot cluster serves the kinds its file holds. States only:
 * the fault proxy is down or up, and what follows from it is polled for.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResourceWrapper } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import { captureFixture, startOpenStack } from '../snapshots/snapshot-open.test-support';
import { eventually } from '../test-support/eventually.test-support';
import {
  expectClusterProblem,
  QUICK_WATCH,
  STALE,
  staleSince,
  startProxiedStack,
} from '../test-support/faults.test-support';
import { startStack } from '../test-support/harness.test-support';

describe('a cluster whose discovery cannot be read', () => {
  it("serves the nine's names, refuses what the nine alone can tell, and answers 502 for any other name", async () => {
    const { stack, proxy, close } = await startProxiedStack({ service: { timeoutMs: 120_000 } });
    const proxyPath = `${stack.cluster}/kubernetes-proxy`;
    try {
      await proxy.down();
      // A tailored kind goes straight to its cache: the cluster's own 502, as before.
      expectClusterProblem(await stack.get(`${proxyPath}/pod`), 502, 'cluster_unreachable');
      for (const [path, hint] of [
        [`${proxyPath}/pods`, 'did you mean pod?'],
        [`${proxyPath}/namespaces/shop/deploy`, 'did you mean deployment?'],
        [`${proxyPath}/nodes/x`, 'did you mean node?'],
      ] as const) {
        const res = await stack.get<Problem & { hint?: string }>(path);
        expect(res.status, path).toBe(400);
        expect([res.body.code, res.body.hint]).toEqual(['invalid_resource_type', hint]);
      }
      const scoped = await stack.get<Problem>(`${proxyPath}/namespaces/shop/node`);
      expect([scoped.status, scoped.body.code]).toEqual([400, 'invalid_resource_type']);
      expect(scoped.body.detail).toContain('cluster-scoped');
      // Only discovery can say whether the cluster serves these.
      for (const t of ['configmap', 'gizmo', 'certificate.cert-manager.io'])
        expectClusterProblem(await stack.get(`${proxyPath}/${t}`), 502, 'cluster_unreachable');

      await proxy.up();
      const res = await stack.get<ResourceWrapper[]>(`${proxyPath}/configmap?limit=1000`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.length).toBe(stack.sim.store.count('configmaps'));
    } finally {
      await close();
    }
  });
});

/**
 * A loopback proxy to the simulator that answers 503 for the discovery documents only (`/api`,
 * `/apis`), as an apiserver whose aggregation layer is broken might: every list and watch passes.
 */
async function discoveryBlocker(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/api' || path === '/apis') {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', status: 'Failure', code: 503, message: 'discovery is down' }));
      return;
    }
    const upstream = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('a cluster that serves lists but not its discovery documents', () => {
  it('serves the nine from their caches, and answers the cluster’s problem for any other kind', async () => {
    let blocker: Awaited<ReturnType<typeof discoveryBlocker>> | undefined;
    const stack = await startStack({
      clusterServer: async (sim) => {
        blocker = await discoveryBlocker(sim.url);
        return blocker.url;
      },
    });
    try {
      const proxyPath = `${stack.cluster}/kubernetes-proxy`;
      const pods = await stack.get<ResourceWrapper[]>(`${proxyPath}/pod?limit=1000`);
      expect(pods.status, JSON.stringify(pods.body)).toBe(200);
      expect(pods.body.length).toBe(stack.sim.store.count('pods'));
      const deployment = await stack.get<ResourceWrapper[]>(`${proxyPath}/namespaces/shop/deployment.apps`);
      expect(deployment.status).toBe(200);
      const other = await stack.get<Problem>(`${proxyPath}/configmap`);
      expect(other.status, JSON.stringify(other.body)).toBeGreaterThanOrEqual(500);
      expect(other.body.code).toMatch(/^cluster_/);
    } finally {
      await stack.close();
      await blocker?.close();
    }
  });
});

describe('a cluster that goes away after a kind beyond the nine synced', () => {
  it('serves the last list of that kind marked x-Stale-Since, as it does the nine', async () => {
    const { stack, proxy, close } = await startProxiedStack({
      service: { timeoutMs: 2_000, watch: QUICK_WATCH },
    });
    const paths = [
      `${stack.cluster}/kubernetes-proxy/configmap?limit=1000`,
      `${stack.cluster}/kubernetes-proxy/namespaces/shop/certificate.cert-manager.io?limit=1000`,
    ];
    try {
      const before: ResourceWrapper[][] = [];
      for (const path of paths) {
        const res = await stack.get<ResourceWrapper[]>(path);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.headers.get(STALE)).toBeNull();
        before.push(res.body);
      }
      await proxy.down();
      for (const [i, path] of paths.entries()) {
        const stale = await eventually(async () => {
          const res = await stack.get<ResourceWrapper[]>(path);
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          expect(res.headers.get(STALE)).not.toBeNull();
          return res;
        }, 15_000);
        expect(staleSince(stale)).toBeGreaterThan(0);
        expect(stale.body).toEqual(before[i]);
      }
      await proxy.up();
      await eventually(async () => {
        const res = await stack.get(paths[0]!);
        expect(res.headers.get(STALE)).toBeNull();
      }, 15_000);
    } finally {
      await close();
    }
  });
});

describe('a snapshot cluster', () => {
  it('serves the nine kinds its file holds, and refuses the others', async () => {
    const open = await startOpenStack();
    try {
      const file = join(open.dir, 'cluster.skiff');
      await captureFixture(file);
      const cluster = await open.service.snapshots.open(file);
      const base = `/v1/workspaces/default/observability/${cluster.clusterId}/kubernetes-proxy`;
      const pods = await open.call<ResourceWrapper[]>('GET', `${base}/pod?limit=1`);
      expect(pods.status).toBe(200);
      const deploy = await open.call<ResourceWrapper[]>('GET', `${base}/deployment.apps?limit=1`);
      expect(deploy.status).toBe(200);
      const other = await open.call<Problem & { accepted: string[] }>('GET', `${base}/configmap`);
      expect([other.status, other.body.code]).toEqual([400, 'invalid_resource_type']);
      expect(other.body.accepted).toEqual([
        'node',
        'namespace',
        'deployment',
        'statefulset',
        'daemonset',
        'job',
        'cronjob',
        'pod',
        'service',
      ]);
      const plural = await open.call<Problem & { hint: string }>('GET', `${base}/pods`);
      expect(plural.body.hint).toBe('did you mean pod?');
    } finally {
      await open.close();
    }
  });
});
