/**
 * A cluster connection against a stand-in apiserver: its status as the cluster list shows it (which
 * answers to a probe of /version mean connected, unauthorized or unreachable, and how long an answer
 * is kept), the metrics answers it makes pod usage of, and the watch backoff it uses when given none.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type KubeconfigUser, kubeconfigYaml } from '@skiff/kube-simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCE_KINDS } from '../../../src-shared/kube/kinds';
import { until } from '../cache/cache.test-support';
import { contextsFromYaml } from '../kube/kubeconfig';
import { silentLogger } from '../logger';
import { ClusterConnection } from './cluster';

let server: Server | undefined;
let cluster: ClusterConnection | undefined;
afterEach(async () => {
  await cluster?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  cluster = undefined;
});

/**
 * A cluster whose requests are answered by `answer`; `probes()` counts the /version requests and
 * `requests()` all of them.
 */
async function clusterAnswering(
  answer: (res: ServerResponse, req: IncomingMessage) => void,
  statusTtlMs?: number,
  user: KubeconfigUser = { token: 't' },
) {
  let probes = 0;
  let requests = 0;
  server = createServer((req, res) => {
    requests++;
    if (req.url?.startsWith('/version')) probes++;
    answer(res, req);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const source = contextsFromYaml(kubeconfigYaml({ server: url, user }))[0]!;
  cluster = new ClusterConnection('c', source, {
    timeoutMs: 2_000,
    logger: silentLogger(),
    ...(statusTtlMs === undefined ? {} : { statusTtlMs }),
  });
  return { cluster, probes: () => probes, requests: () => requests };
}

const json = (status: number, body: unknown) => (res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

describe('status', () => {
  it('a cluster that answers /version is connected, with its version', async () => {
    const { cluster } = await clusterAnswering(json(200, { gitVersion: 'v1.31.2', major: '1' }));
    expect(await cluster.status()).toEqual({ status: 'connected', version: 'v1.31.2' });
  });

  it('an answer without a version is connected, with no version made up', async () => {
    const { cluster } = await clusterAnswering(json(200, {}));
    expect(await cluster.status()).toEqual({ status: 'connected' });
  });

  it.each([401, 403])('a %i to the probe is unauthorized', async (code) => {
    const { cluster } = await clusterAnswering(json(code, { kind: 'Status', code, message: 'no' }));
    expect(await cluster.status()).toEqual({ status: 'unauthorized' });
  });

  it('any other refusal still proves the cluster is there: connected', async () => {
    const { cluster } = await clusterAnswering(json(500, { kind: 'Status', code: 500, message: 'etcd' }));
    expect(await cluster.status()).toEqual({ status: 'connected' });
  });

  it('a cluster nobody answers for is unreachable', async () => {
    const { cluster } = await clusterAnswering((res) => res.socket?.destroy());
    expect(await cluster.status()).toEqual({ status: 'unreachable' });
  });

  it('a credential plugin that fails is unauthorized: our credentials, not the network', async () => {
    const { cluster, probes } = await clusterAnswering(json(200, { gitVersion: 'v1' }), undefined, {
      exec: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
    });
    expect(await cluster.status()).toEqual({ status: 'unauthorized' });
    expect(probes()).toBe(0);
  });

  it('an answer is kept for 10 s by default', async () => {
    const { cluster, probes } = await clusterAnswering(json(200, { gitVersion: 'v1' }));
    await cluster.status();
    await cluster.status();
    expect(probes()).toBe(1);
  });

  it('past the status TTL the cluster is asked again', async () => {
    const { cluster, probes } = await clusterAnswering(json(200, { gitVersion: 'v1' }), 50);
    await cluster.status();
    await cluster.status();
    expect(probes()).toBe(1);
    await new Promise((r) => setTimeout(r, 80));
    await cluster.status();
    expect(probes()).toBe(2);
  });
});

describe('pod usage from the metrics API', () => {
  it('skips items without a name, and counts a pod without containers as using nothing', async () => {
    const { cluster } = await clusterAnswering(
      json(200, {
        items: [
          { containers: [{ usage: { cpu: '500m', memory: '64Mi' } }] },
          { metadata: {}, containers: [{ usage: { cpu: '1', memory: '1Gi' } }] },
          { metadata: { name: 'idle' } },
          { metadata: { name: 'busy' }, containers: [{ usage: { cpu: '250m', memory: '32Mi' } }] },
        ],
      }),
    );
    expect(await cluster.podUsage('ns', 'idle')).toEqual({ cpu: '0m', memory: '0Mi' });
    expect(await cluster.podUsage('ns', 'busy')).toEqual({ cpu: '250m', memory: '32Mi' });
    expect(await cluster.podUsage('ns', 'undefined')).toBeUndefined();
  });

  it('an answer without items is no usage for any pod', async () => {
    const { cluster } = await clusterAnswering(json(200, { kind: 'PodMetricsList' }));
    expect(await cluster.podUsage('ns', 'web')).toBeUndefined();
  });
});

describe('the watch backoff', () => {
  it('given no options, a failed watch waits the default half a second at least before the next list', async () => {
    const { cluster, requests } = await clusterAnswering((res, req) => {
      if (req.url?.includes('watch=')) return json(500, { kind: 'Status', code: 500, message: 'etcd' })(res);
      json(200, { kind: 'PodList', metadata: { resourceVersion: '7' }, items: [] })(res);
    });
    await cluster.resources(RESOURCE_KINDS.pod).acquire();
    await until(() => requests() >= 2, 'the watch was asked for');
    await new Promise((r) => setTimeout(r, 400));
    expect(requests()).toBe(2);
  });
});
