/**
 * The status probe's own rules (cluster-status.ts), against a stand-in apiserver on loopback: a
 * snapshot is never probed, the TTL's edge, the probe's own 5 s bound whatever the cluster's
 * timeout, and which failures are worth a warning. cluster-status.test.ts shows the answers
 * through a whole ClusterConnection.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { kubeconfigYaml } from '@skiff/kube-simulator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LEVEL, recordingLogger } from '../http/recording-logger.test-support';
import { KubeClient } from '../kube/kube-client';
import { contextsFromYaml } from '../kube/kubeconfig';
import { silentLogger } from '../logger';
import { StatusProbe, type StatusProbeOptions } from './cluster-status';

let server: Server | undefined;
let client: KubeClient | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await client?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  client = undefined;
});

/** A probe of a stand-in apiserver whose answers are `answer`'s; `probes()` counts /version requests. */
async function probeOf(answer: (res: ServerResponse) => void, opts: Partial<StatusProbeOptions> = {}) {
  let probes = 0;
  server = createServer((req, res) => {
    if (req.url?.startsWith('/version')) probes++;
    answer(res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const source = contextsFromYaml(kubeconfigYaml({ server: url, user: { token: 't' } }))[0]!;
  client = new KubeClient(source.config, source.server, {});
  const probe = new StatusProbe({ client, timeoutMs: 2_000, logger: silentLogger(), ...opts });
  return { probe, probes: () => probes };
}

const version = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ gitVersion: 'v1.32.0' }));
};

describe('StatusProbe', () => {
  it('never probes a snapshot: its status is snapshot, with the version it was taken at', async () => {
    const snapshot = { context: 'prod', server: 'https://x', takenAt: '2026-01-01T00:00:00Z' };
    const { probe, probes } = await probeOf(version, {
      snapshot: { ...snapshot, kubernetesVersion: 'v1.29.1' },
    });
    expect(await probe.status()).toEqual({ status: 'snapshot', version: 'v1.29.1' });
    const bare = new StatusProbe({ client: client!, timeoutMs: 2_000, logger: silentLogger(), snapshot });
    expect(await bare.status()).toEqual({ status: 'snapshot' });
    expect(probes()).toBe(0);
  });

  it('keeps an answer until exactly the TTL has passed, then asks again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const { probe, probes } = await probeOf(version, { ttlMs: 1_000 });
    await probe.status();
    vi.setSystemTime(1_000_999);
    await probe.status();
    expect(probes()).toBe(1);
    vi.setSystemTime(1_001_000);
    expect(await probe.status()).toEqual({ status: 'connected', version: 'v1.32.0' });
    expect(probes()).toBe(2);
  });

  it('gives up on a silent cluster after 5 s even when the cluster timeout is an hour', async () => {
    const { probe } = await probeOf(() => {}, { timeoutMs: 3_600_000 });
    expect(await probe.status()).toEqual({ status: 'unreachable' });
  }, 60_000);

  it('an unreachable cluster is routine: no warning in the log', async () => {
    const { logger, entries } = recordingLogger();
    const { probe } = await probeOf((res) => res.socket?.destroy(), { logger });
    expect(await probe.status()).toEqual({ status: 'unreachable' });
    expect(entries.filter((e) => e.level >= LEVEL.warn)).toEqual([]);
  });
});
