/**
 * Caches on demand over real HTTP against the service and the simulator (issue 23 §4): a kind's
 * cache lists and watches the cluster only once something reads that kind, and the idle sweep
 * ends its watch; the next read lists again. A recording HTTP proxy between the service and the
 * simulator sees every list and every watch the service opens, and when each watch ends.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceWrapper } from '../../../src-shared/contract/models';
import { CLUSTER_ID, type Stack, startStack } from '../test-support/harness.test-support';

interface Seen {
  path: string;
  watch: boolean;
  closed: boolean;
}

/** Forwards every request to `target` as is, noting its path, whether it watches, and its end. */
async function recordingProxy(target: string): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    const entry: Seen = { path: url.pathname, watch: url.searchParams.get('watch') === '1', closed: false };
    seen.push(entry);
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    res.on('close', () => {
      entry.closed = true;
      out.destroy();
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

let stack: Stack;
let proxy: Awaited<ReturnType<typeof recordingProxy>>;
beforeAll(async () => {
  stack = await startStack({
    clusterServer: async (sim) => {
      proxy = await recordingProxy(sim.url);
      return proxy.url;
    },
    // A recorded kind keeps its watch through the idle sweep (history/hooks.ts): these are the
    // caches of a service that records nothing.
    service: { changeHistory: { record: 'off' } },
  });
});
afterAll(async () => {
  await stack?.close();
  proxy?.server.closeAllConnections();
  await new Promise<void>((resolve) => (proxy ? proxy.server.close(() => resolve()) : resolve()));
});

const CONFIGMAPS = '/api/v1/configmaps';
const of = (path: string, watch: boolean) => proxy.seen.filter((s) => s.path === path && s.watch === watch);

describe('a live cluster’s caches', () => {
  it('list and watch a kind only once it is read, and stop their watch when idle', async () => {
    const secrets = '/api/v1/secrets';
    expect(of(CONFIGMAPS, false)).toHaveLength(0);

    const first = await stack.get<ResourceWrapper[]>(`${stack.cluster}/kubernetes-proxy/configmap?limit=5`);
    expect(first.status).toBe(200);
    expect(first.body.length).toBeGreaterThan(0);
    expect(of(CONFIGMAPS, false)).toHaveLength(1);
    await until(() => of(CONFIGMAPS, true).some((w) => !w.closed), 'the ConfigMap watch is open');
    // A kind nobody read is neither listed nor watched.
    expect(proxy.seen.filter((s) => s.path === secrets)).toHaveLength(0);

    const connection = stack.service.registry.byId(CLUSTER_ID)!;
    await new Promise((r) => setTimeout(r, 30));
    await connection.sweep(10);
    await until(() => of(CONFIGMAPS, true).every((w) => w.closed), 'the idle ConfigMap watch has ended');

    const again = await stack.get<ResourceWrapper[]>(`${stack.cluster}/kubernetes-proxy/configmap?limit=5`);
    expect(again.body.map((w) => w.resource.metadata.name)).toEqual(
      first.body.map((w) => w.resource.metadata.name),
    );
    expect(of(CONFIGMAPS, false)).toHaveLength(2);
  });
});
