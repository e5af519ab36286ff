import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { Agent, request } from 'undici';
import { DATABASE_FILE } from '../src-main/service/storage/database';
import { login } from '../src-main/service/test-support/login.test-support';
import { type BenchService, listAll } from './bench-service';
import { BENCH_PASSWORD } from './list-pods';
import { type NodeProcess, startNodeScript, startServiceProcess } from './service-process';

/**
 * Issue 27's recording figure: a service watching a cluster of `pods` pods while the cluster makes
 * `rate` changes a second for `seconds`, once with `--record-changes viewed` (its pods are read, so
 * they are recorded) and once with `--record-changes off` (the same load, the same watch, nothing
 * recorded: the baseline of the same run). Per change: the service's CPU (its /proc times from the
 * first change to the last row written) and the change_history bytes it added (SQLite: dbstat of
 * the table and its indexes; PostgreSQL: pg_total_relation_size), so growth per day is bytes per
 * change × rate × 86,400.
 *
 * Rules: the modes are set by environment (SKIFF_RECORD_CHANGES), as are the other recorders, which
 * are turned off in both runs (SKIFF_USAGE_INTERVAL=off, SKIFF_KEPT_LOGS=off) so the figure is the
 * change recorder's alone; the first sight of every pod (one whole object each) is written before
 * the timed window, and reported apart. Everything is on loopback and bounded in time.
 */

const SIM_SCRIPT = fileURLToPath(new URL('./recording-sim.ts', import.meta.url));
const SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ChangeSim extends NodeProcess {
  kubeconfigPath: string;
  pods: number;
  /** Makes `rate` changes a second for `seconds`; resolves when all are made. */
  changes(rate: number, seconds: number): Promise<{ changes: number; ms: number }>;
}

export async function startChangeSim(dir: string, pods: number, context: string): Promise<ChangeSim> {
  const kubeconfigPath = join(dir, 'recording-sim.kubeconfig');
  const { proc, match, lines } = await startNodeScript(
    [
      '--import',
      'tsx',
      SIM_SCRIPT,
      '--pods',
      String(pods),
      '--kubeconfig',
      kubeconfigPath,
      '--context',
      context,
    ],
    {},
    /^pods: (\d+), events: (\d+)/,
  );
  const control = lines.map((l) => /^control: (\S+)/.exec(l)?.[1]).find(Boolean);
  if (!control) {
    await proc.stop();
    throw new Error(`the recording simulator printed no control URL:\n${lines.join('\n')}`);
  }
  return {
    ...proc,
    kubeconfigPath,
    pods: Number(match[1]),
    async changes(rate, seconds) {
      const res = await fetch(`${control}/changes?rate=${rate}&seconds=${seconds}`, {
        method: 'POST',
        signal: AbortSignal.timeout((seconds + 60) * 1000),
      });
      if (res.status !== 200)
        throw new Error(`the change driver answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as { changes: number; ms: number };
    },
  };
}

/** Where the measured service keeps its rows: its data dir's SQLite, or a PostgreSQL database. */
export type Store = { dialect: 'sqlite' } | { dialect: 'postgres'; url: string };

export interface TableSize {
  rows: number;
  bytes: number;
}

/** change_history's rows of the cluster and the bytes of the table with its indexes. */
export async function changeHistorySize(
  store: Store,
  dataDir: string,
  clusterId: string,
): Promise<TableSize> {
  if (store.dialect === 'sqlite') {
    const db = new DatabaseSync(join(dataDir, DATABASE_FILE), { readOnly: true });
    try {
      db.exec('PRAGMA busy_timeout = 10000');
      const { rows } = db
        .prepare('SELECT count(*) AS rows FROM change_history WHERE cluster_id = ?')
        .get(clusterId) as { rows: number };
      const { bytes } = db
        .prepare(
          "SELECT coalesce(sum(pgsize), 0) AS bytes FROM dbstat WHERE name = 'change_history' OR name LIKE 'change_history_%'",
        )
        .get() as { bytes: number };
      return { rows: Number(rows), bytes: Number(bytes) };
    } finally {
      db.close();
    }
  }
  const sql = postgres(store.url, { max: 1, onnotice: () => {} });
  try {
    const [r] =
      await sql`SELECT count(*)::bigint AS rows, pg_total_relation_size('change_history')::bigint AS bytes
      FROM change_history WHERE cluster_id = ${clusterId}`;
    return { rows: Number(r!.rows), bytes: Number(r!.bytes) };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * A fresh service process on `store` (its own data dir; PostgreSQL through SKIFF_DATABASE_URL) with
 * `env` on top, logged in as the admin; GETs over one kept-alive connection, as bench-service.ts.
 */
export async function startStoreService(
  sim: { kubeconfigPath: string },
  dataDir: string,
  clusterId: string,
  store: Store,
  env: NodeJS.ProcessEnv,
): Promise<BenchService> {
  await mkdir(dataDir, { recursive: true });
  const svc = await startServiceProcess(
    ['--host', '127.0.0.1', '--port', '0', '--kubeconfig', sim.kubeconfigPath, '--data-dir', dataDir],
    {
      SKIFF_ADMIN_PASSWORD: BENCH_PASSWORD,
      ...env,
      ...(store.dialect === 'postgres'
        ? { SKIFF_DATABASE_URL: store.url, SKIFF_REPLICA_ID: 'bench-recording', SKIFF_SECRET_KEY: SECRET_KEY }
        : {}),
    },
  );
  try {
    const { headers: auth } = await login(svc.url, 'admin', BENCH_PASSWORD);
    const agent = new Agent({ connections: 1, pipelining: 1 });
    return {
      svc,
      url: svc.url,
      auth,
      clusterId,
      cluster: `/v1/workspaces/default/observability/${clusterId}`,
      async get(path) {
        const res = await request(svc.url + path, {
          headers: auth,
          dispatcher: agent,
          signal: AbortSignal.timeout(300_000),
        });
        const text = await res.body.text();
        return { status: res.statusCode, headers: res.headers as Record<string, string>, text };
      },
      fullGc: () => Promise.reject(new Error('no GC probe in the recording bench')),
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

/** Polls until the row count has not moved for `quietMs` (at most `maxMs`); answers the last size. */
async function settled(
  store: Store,
  dataDir: string,
  clusterId: string,
  quietMs: number,
  maxMs: number,
): Promise<TableSize> {
  const deadline = Date.now() + maxMs;
  let last = await changeHistorySize(store, dataDir, clusterId);
  let since = Date.now();
  while (Date.now() < deadline) {
    await sleep(250);
    const now = await changeHistorySize(store, dataDir, clusterId);
    if (now.rows !== last.rows) since = Date.now();
    last = now;
    if (Date.now() - since >= quietMs) break;
  }
  return last;
}

export interface RecordingRun {
  mode: 'viewed' | 'off';
  changes: number;
  /** How long the driver took to make them (the rate held if this is close to the seconds asked). */
  driverMs: number;
  cpuMsPerChange: number;
  rowsAdded: number;
  bytesAdded: number;
  /** The first list's whole objects: rows, bytes and the service CPU from the list to the last row. */
  firstSight: { rows: number; bytes: number; cpuS: number };
}

/** One service on `store` with `--record-changes mode`, `rate` changes a second for `seconds`. */
export async function recordingRun(
  sim: ChangeSim,
  dataDir: string,
  clusterId: string,
  store: Store,
  mode: 'viewed' | 'off',
  rate: number,
  seconds: number,
): Promise<RecordingRun> {
  const service = await startStoreService(sim, dataDir, clusterId, store, {
    SKIFF_RECORD_CHANGES: mode,
    SKIFF_USAGE_INTERVAL: 'off',
    SKIFF_KEPT_LOGS: 'off',
  });
  try {
    const cpuList = service.svc.cpuSeconds();
    // The list makes the cluster viewed and the pod cache watch (and, recorded, its first sight).
    const listed = await listAll(service, `${service.cluster}/kubernetes-proxy/pod`);
    if (listed.length < sim.pods) throw new Error(`listed ${listed.length} of ${sim.pods} pods`);
    const first = await settled(store, dataDir, clusterId, 2_000, 90_000);
    const cpu0 = service.svc.cpuSeconds();
    const made = await sim.changes(rate, seconds);
    const after = await settled(store, dataDir, clusterId, 1_500, 60_000);
    const cpu1 = service.svc.cpuSeconds();
    return {
      mode,
      changes: made.changes,
      driverMs: made.ms,
      cpuMsPerChange: ((cpu1 - cpu0) * 1000) / made.changes,
      rowsAdded: after.rows - first.rows,
      bytesAdded: after.bytes - first.bytes,
      firstSight: { rows: first.rows, bytes: first.bytes, cpuS: cpu0 - cpuList },
    };
  } finally {
    await service.stop();
  }
}
