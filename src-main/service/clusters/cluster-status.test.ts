/**
 * A cluster's status as the cluster list shows it, from a probe of /version against a stand-in
 * apiserver: which answers mean connected, unauthorized or unreachable, and how long an answer
 * is kept.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { kubeconfigYaml } from '../../simulator/kubeconfig';
import { silentLogger } from '../logger';
import { ClusterConnection } from './cluster';
import { contextsFromYaml } from './kubeconfig';

let server: Server | undefined;
let cluster: ClusterConnection | undefined;
afterEach(async () => {
  await cluster?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  cluster = undefined;
});

/** A cluster whose /version is answered by `answer`; `probes()` counts the requests. */
async function clusterAnswering(answer: (res: ServerResponse) => void, statusTtlMs?: number) {
  let probes = 0;
  server = createServer((req, res) => {
    if (req.url?.startsWith('/version')) probes++;
    answer(res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const source = contextsFromYaml(kubeconfigYaml({ server: url, user: { token: 't' } }))[0]!;
  cluster = new ClusterConnection('c', source, {
    timeoutMs: 2_000,
    logger: silentLogger(),
    ...(statusTtlMs === undefined ? {} : { statusTtlMs }),
  });
  return { cluster, probes: () => probes };
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
