import { mkdir } from 'node:fs/promises';
import autocannon, { type Request } from 'autocannon';
import { login } from '../src-main/service/test-support/login.test-support';
import { BENCH_PASSWORD } from './list-pods';
import { Mix, type MixTargets } from './load/mix';
import { type ServiceProcess, startServiceProcess } from './service-process';
import { percentile } from './stats';

/**
 * The replicas bench's services and its load: `serve` processes over SQLite or one shared
 * PostgreSQL, their caches filled before anything is measured, and bench/load.ts's request mix
 * spread evenly over them as a load balancer would. Loopback only; each load runs for a fixed time.
 */

export const CLUSTER = 'bench';
const SECRET_KEY = Buffer.alloc(32, 5).toString('base64');

export interface Replica {
  svc: ServiceProcess;
  auth: Record<string, string>;
}

export interface LoadFigures {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  detail: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One replica as `serve` runs it; over PostgreSQL when `database` is given, else its data dir's SQLite. */
export async function replica(
  kubeconfig: string,
  dataDir: string,
  database?: string,
  id?: string,
): Promise<Replica> {
  await mkdir(dataDir, { recursive: true });
  const svc = await startServiceProcess(
    [
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--kubeconfig',
      kubeconfig,
      '--data-dir',
      dataDir,
      '--trust-proxy',
      '127.0.0.1',
      ...(database ? ['--database', database, '--replica-id', id ?? 'bench'] : []),
    ],
    // The SQLite replica runs as today's serve does: no secret key.
    { SKIFF_ADMIN_PASSWORD: BENCH_PASSWORD, ...(database ? { SKIFF_SECRET_KEY: SECRET_KEY } : {}) },
  );
  try {
    const { headers } = await login(svc.url, 'admin', BENCH_PASSWORD);
    return { svc, auth: headers };
  } catch (err) {
    await svc.stop();
    throw err;
  }
}

async function get(r: Replica, path: string): Promise<{ status: number; text: string; retryAfter: number }> {
  const res = await fetch(r.svc.url + path, { headers: r.auth, signal: AbortSignal.timeout(60_000) });
  return {
    status: res.status,
    text: await res.text(),
    retryAfter: Number(res.headers.get('retry-after') ?? 1),
  };
}

/** Waits (up to 3 minutes) until `path` answers 200, as a user would press reload on a cold cache. */
async function until200(r: Replica, path: string): Promise<string> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const res = await get(r, path);
    if (res.status === 200) return res.text;
    if (Date.now() > deadline)
      throw new Error(`${path} still answers ${res.status}: ${res.text.slice(0, 300)}`);
    await sleep(res.status === 503 ? 1_000 * res.retryAfter : 500);
  }
}

/** Fills every replica's caches (pods and events) and answers the mix's targets. */
export async function warm(replicas: Replica[], pods: number, events: number): Promise<MixTargets> {
  const cluster = `/v1/workspaces/default/observability/${CLUSTER}`;
  const names: string[] = [];
  for (const r of replicas) {
    await until200(r, `${cluster}/kubernetes-events?limit=1`);
    for (let offset = 0; ; offset += 1_000) {
      const text = await until200(r, `${cluster}/kubernetes-proxy/pod?limit=1000&offset=${offset}`);
      const page = JSON.parse(text) as Array<{ resource: { metadata: { namespace: string; name: string } } }>;
      if (r === replicas[0])
        names.push(...page.map((p) => `${p.resource.metadata.namespace}/${p.resource.metadata.name}`));
      if (page.length < 1_000) break;
    }
  }
  return { cluster, pods, events, podNames: names };
}

/**
 * `connections` clients for `durationS`, split evenly over the replicas; every answer's latency
 * is taken from when its request is built to when it is complete, whichever replica answered.
 */
export async function load(replicas: Replica[], targets: MixTargets, connections: number, durationS: number) {
  const mix = new Mix(targets);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const base = mix.request();
  const request: Request = {
    ...base,
    onResponse: (status, body, context) => {
      base.onResponse?.(status, body, context);
      latencies.push(performance.now() - (context.sentAt as number));
      statuses[status] = (statuses[status] ?? 0) + 1;
    },
  };
  const t0 = performance.now();
  const results = await Promise.all(
    replicas.map((r) =>
      autocannon({
        url: r.svc.url,
        connections: Math.floor(connections / replicas.length),
        duration: durationS,
        headers: r.auth,
        requests: [request],
      }),
    ),
  );
  const wallS = (performance.now() - t0) / 1000;
  // autocannon counts a request unanswered after 10 s as an error and as a timeout.
  const errored = results.reduce((n, r) => n + r.errors, 0);
  const timeouts = results.reduce((n, r) => n + r.timeouts, 0);
  const socket = errored - timeouts;
  const failed = Object.entries(statuses).filter(([s]) => !s.startsWith('2'));
  const errors = failed.reduce((n, [, c]) => n + c, 0) + errored;
  return {
    requests: latencies.length,
    rps: latencies.length / wallS,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    detail: [
      ...failed.map(([s, c]) => `${c} × ${s}`),
      ...(socket ? [`${socket} socket errors`] : []),
      ...(timeouts ? [`${timeouts} timeouts`] : []),
    ].join(', '),
  } satisfies LoadFigures;
}

export async function stopAll(replicas: Replica[]) {
  await Promise.all(replicas.map((r) => r.svc.stop()));
}
