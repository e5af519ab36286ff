import { Agent, request } from 'undici';
import { login } from '../src-main/service/test-support/login.test-support';
import { BENCH_PASSWORD } from './list-pods';
import { type ServiceProcess, type SpawnOptions, startServiceProcess } from './service-process';

export interface BenchService {
  svc: ServiceProcess;
  url: string;
  auth: Record<string, string>;
  clusterId: string;
  /** /v1/workspaces/default/observability/<cluster> */
  cluster: string;
  /** GET over one kept-alive connection; the body is read in full and returned as text. */
  get(path: string): Promise<{ status: number; headers: Record<string, string>; text: string }>;
  /** With `gcProbe`: runs a full GC in the service and answers its process.memoryUsage(). */
  fullGc(): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
}

const PROBE = new URL('./gc-probe.mjs', import.meta.url).href;
const PROBE_LINE = 'skiff-bench-gc ';

/**
 * A fresh service process on loopback (its own data directory, so its own login and caches) that
 * watches the given simulator, logged in as the admin.
 */
export async function startBenchService(
  sim: { kubeconfigPath: string },
  dataDir: string,
  clusterId: string,
  opts: SpawnOptions & { gcProbe?: boolean } = {},
): Promise<BenchService> {
  let onGc: ((usage: NodeJS.MemoryUsage) => void) | undefined;
  const svc = await startServiceProcess(
    ['--host', '127.0.0.1', '--port', '0', '--kubeconfig', sim.kubeconfigPath, '--data-dir', dataDir],
    { SKIFF_ADMIN_PASSWORD: BENCH_PASSWORD },
    {
      nodeArgs: [...(opts.nodeArgs ?? []), ...(opts.gcProbe ? ['--expose-gc', '--import', PROBE] : [])],
      onLine(line) {
        if (line.startsWith(PROBE_LINE))
          onGc?.(JSON.parse(line.slice(PROBE_LINE.length)) as NodeJS.MemoryUsage);
        else opts.onLine?.(line);
      },
    },
  );
  try {
    const { headers: auth } = await login(svc.url, 'admin', BENCH_PASSWORD);
    // One connection, kept alive: the figures are the service's, not the cost of new sockets.
    const agent = new Agent({ connections: 1, pipelining: 1 });
    return {
      svc,
      url: svc.url,
      auth,
      clusterId,
      cluster: `/v1/workspaces/default/observability/${clusterId}`,
      async get(path) {
        const res = await request(svc.url + path, { headers: auth, dispatcher: agent });
        const text = await res.body.text();
        return { status: res.statusCode, headers: res.headers as Record<string, string>, text };
      },
      fullGc() {
        if (!opts.gcProbe) return Promise.reject(new Error('started without gcProbe'));
        return new Promise((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error('the service did not answer the GC probe in 20 s')),
            20_000,
          );
          onGc = (usage) => {
            clearTimeout(timer);
            resolve(usage);
          };
          process.kill(svc.pid, 'SIGUSR2');
        });
      },
      async stop() {
        await agent.close();
        await svc.stop();
      },
    };
  } catch (err) {
    await svc.stop();
    throw err;
  }
}

/**
 * Every item of a /v1 list, walking pages of 1,000; the caches behind it are full afterwards. A
 * cold cache that is still listing a big collection answers 503 cluster_syncing (its progress and
 * Retry-After) or, once the cluster goes quiet, 504 (it keeps listing): either is retried for up
 * to two minutes, as a user would press reload.
 */
export async function listAll<T>(service: BenchService, path: string): Promise<T[]> {
  const all: T[] = [];
  const sep = path.includes('?') ? '&' : '?';
  const patience = Date.now() + 120_000;
  for (let offset = 0; ; ) {
    const res = await service.get(`${path}${sep}limit=1000&offset=${offset}`);
    if (res.status === 504 && Date.now() < patience) continue;
    if (res.status === 503 && Date.now() < patience) {
      await new Promise((r) => setTimeout(r, 1_000 * Number(res.headers['retry-after'] ?? 1)));
      continue;
    }
    if (res.status !== 200)
      throw new Error(`GET ${path} at offset ${offset} answered ${res.status}: ${res.text}`);
    const page = JSON.parse(res.text) as T[];
    all.push(...page);
    if (page.length < 1000) return all;
    offset += 1000;
  }
}
