import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { postgresSkipReason, startPostgres } from '../src-main/service/storage/postgres.test-support';
import { CLUSTER, type LoadFigures, load, type Replica, replica, stopAll, warm } from './replicas-load';
import { revocationTimes } from './replicas-revocation';
import { seedPostgres, seedSqlite } from './replicas-seed';
import { startSimulatorProcess } from './simulator-process';
import { percentile, table, type Verdict } from './stats';

/**
 * `--only replicas` (issue 25): the same service as one replica over its SQLite file against two
 * replicas sharing one PostgreSQL, in one run on one simulator:
 * - the 200-client load of bench/load.ts (its request mix), spread evenly over the replicas as a
 *   load balancer would (100 connections each), against 200 on the single SQLite replica:
 *   req/s, p99 and errors, and their ratios;
 * - refresh p50 with 10,000 sessions in the store, PostgreSQL against SQLite (sequential
 *   POST /v1/auth/refresh, each from an address of its own through a trusted loopback proxy);
 * - how long a logout or an API key revocation on one replica takes to be refused by the other
 *   (issue 25 §2: within 1 s), which the replicas test only waits for as a state.
 * Everything is on loopback, in processes of its own (simulator, services, PostgreSQL), and bounded
 * in time: each load runs for a fixed duration. On these 2-core machines two replicas share the
 * cores with the database and the bench, so the req/s ratio shows the cost of the shared store,
 * not a scale-out figure; the verdict judged is that nothing fails under the load.
 */

interface Scale {
  pods: number;
  events: number;
  durationS: number;
  warmupS: number;
  connections: number;
  sessions: number;
  refresh: { warmup: number; samples: number };
  /** Logouts and API key revocations timed from one replica to the other. */
  revocationTrials: number;
}

const FULL: Scale = {
  pods: 10_000,
  events: 100_000,
  durationS: 30,
  warmupS: 3,
  connections: 200,
  sessions: 10_000,
  refresh: { warmup: 50, samples: 300 },
  revocationTrials: 20,
};
const QUICK: Scale = {
  pods: 2_000,
  events: 20_000,
  durationS: 5,
  warmupS: 1,
  connections: 200,
  sessions: 2_000,
  refresh: { warmup: 10, samples: 60 },
  revocationTrials: 5,
};

/** Sequential refreshes, each from an address of its own; the warm-up ones are not kept. */
async function refreshTimes(url: string, tokens: string[], warmup: number): Promise<number[]> {
  const times: number[] = [];
  for (const [i, refreshToken] of tokens.entries()) {
    const t = performance.now();
    const res = await fetch(`${url}/v1/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.2.${i >> 8}.${i & 255}` },
      body: JSON.stringify({ refreshToken }),
    });
    const text = await res.text();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`refresh answered ${res.status}: ${text.slice(0, 300)}`);
    if (i >= warmup) times.push(ms);
  }
  return times;
}

/** Refresh p50 on a store holding `sessions` sessions: created by a first start, seeded while stopped, measured on a second. */
async function refreshOn(
  kubeconfig: string,
  dataDir: string,
  s: Scale,
  database?: string,
): Promise<number[]> {
  const first = await replica(kubeconfig, dataDir, database);
  await first.svc.stop();
  const measured = s.refresh.warmup + s.refresh.samples;
  const tokens = database
    ? await seedPostgres(database, measured, s.sessions)
    : seedSqlite(dataDir, measured, s.sessions);
  const second = await replica(kubeconfig, dataDir, database);
  try {
    return await refreshTimes(second.svc.url, tokens, s.refresh.warmup);
  } finally {
    await second.svc.stop();
  }
}

export async function benchReplicas(
  dir: string,
  quick: boolean,
  verdicts: Verdict[],
  judge: (pass: boolean) => boolean | undefined,
): Promise<{ skipped: string } | undefined> {
  if (postgresSkipReason) return { skipped: `replicas: ${postgresSkipReason}` };
  const s = quick ? QUICK : FULL;
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  await mkdir(dir, { recursive: true });
  const pg = await startPostgres();
  try {
    console.log(
      `\nReplicas: ${n(s.pods)} pods, ${n(s.events)} events; ${s.connections} clients for ${s.durationS} s${quick ? ' (--quick: a smoke run)' : ''}`,
    );
    const sim = await startSimulatorProcess({
      pods: s.pods,
      events: s.events,
      kubeconfigPath: join(dir, 'sim.kubeconfig'),
      context: CLUSTER,
    });
    let single: LoadFigures;
    let pair: LoadFigures;
    let sqliteRefresh: number[];
    let pgRefresh: number[];
    let revoked: Revocation;
    try {
      const one = [await replica(sim.kubeconfigPath, join(dir, 'sqlite-load'))];
      try {
        const targets = await warm(one, sim.pods, sim.events);
        await load(one, targets, s.connections, s.warmupS);
        single = await load(one, targets, s.connections, s.durationS);
      } finally {
        await stopAll(one);
      }
      const url = await pg.createDatabase('bench_load');
      const two: Replica[] = [];
      try {
        for (const i of [0, 1])
          two.push(await replica(sim.kubeconfigPath, join(dir, `pg-load-${i}`), url, `bench-${i}`));
        const targets = await warm(two, sim.pods, sim.events);
        await load(two, targets, s.connections, s.warmupS);
        pair = await load(two, targets, s.connections, s.durationS);
        // A failure here is a figure (not met), not the end of the bench.
        revoked = await revocationTimes(two[0]!.svc.url, two[1]!.svc.url, s.revocationTrials).catch(
          (err: unknown) => ({ error: (err as Error).message }),
        );
      } finally {
        await stopAll(two);
      }
      sqliteRefresh = await refreshOn(sim.kubeconfigPath, join(dir, 'sqlite-refresh'), s);
      pgRefresh = await refreshOn(
        sim.kubeconfigPath,
        join(dir, 'pg-refresh'),
        s,
        await pg.createDatabase('bench_refresh'),
      );
    } finally {
      await sim.stop();
    }
    report(s, { single, pair, sqliteRefresh, pgRefresh, revoked }, verdicts, judge);
  } finally {
    await pg.stop();
  }
  return undefined;
}

interface Figures {
  single: LoadFigures;
  pair: LoadFigures;
  sqliteRefresh: number[];
  pgRefresh: number[];
  revoked: Revocation;
}

type Revocation = { logout: number[]; apiKey: number[] } | { error: string };

function report(
  s: Scale,
  { single, pair, sqliteRefresh, pgRefresh, revoked }: Figures,
  verdicts: Verdict[],
  judge: (pass: boolean) => boolean | undefined,
) {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const row = (name: string, f: LoadFigures) => ({
    setup: name,
    'req/s': n(f.rps),
    p50: `${f.p50.toFixed(1)} ms`,
    p99: `${f.p99.toFixed(1)} ms`,
    requests: n(f.requests),
    errors: f.errors ? `${n(f.errors)} (${f.detail})` : '0',
  });
  console.log(table([row('1 replica, SQLite', single), row('2 replicas, one PostgreSQL', pair)]));
  const rpsRatio = pair.rps / single.rps;
  const p99Ratio = pair.p99 / single.p99;
  console.log(
    `\n2 replicas over PostgreSQL ÷ 1 over SQLite: req/s ${rpsRatio.toFixed(2)}×, p99 ${p99Ratio.toFixed(2)}×`,
  );
  const p50 = (xs: number[]) => percentile(xs, 50);
  const refreshRatio = p50(pgRefresh) / p50(sqliteRefresh);
  console.log(`\nPOST /v1/auth/refresh, sequential, ${n(s.sessions)} sessions in the store\n`);
  console.log(
    table(
      [
        ['SQLite', sqliteRefresh],
        ['PostgreSQL', pgRefresh],
      ].map(([name, xs]) => ({
        store: name as string,
        'refresh p50': `${p50(xs as number[]).toFixed(2)} ms`,
        'refresh p95': `${percentile(xs as number[], 95).toFixed(2)} ms`,
        samples: String((xs as number[]).length),
      })),
    ),
  );
  console.log(`\nPostgreSQL ÷ SQLite refresh p50: ${refreshRatio.toFixed(2)}×`);
  const worst = (xs: number[]) => Math.max(...xs);
  const figure = 'logout and API key revocation seen by the other replica';
  if ('error' in revoked) {
    console.log(`\nRevocation across replicas not measured: ${revoked.error}`);
    verdicts.push({ figure, measured: 'not measured (see above)', target: '≤ 1000 ms', pass: judge(false) });
  } else {
    console.log(
      `\nRevoked on one replica, refused by the other after: logout p50 ${p50(revoked.logout).toFixed(0)} ms, max ${worst(revoked.logout).toFixed(0)} ms; API key p50 ${p50(revoked.apiKey).toFixed(0)} ms, max ${worst(revoked.apiKey).toFixed(0)} ms (${revoked.logout.length} trials each)`,
    );
    verdicts.push({
      figure: `${figure}, worst of ${revoked.logout.length} each`,
      measured: `${worst(revoked.logout).toFixed(0)} ms, ${worst(revoked.apiKey).toFixed(0)} ms`,
      target: '≤ 1000 ms',
      pass: judge(worst(revoked.logout) <= 1000 && worst(revoked.apiKey) <= 1000),
    });
  }
  verdicts.push(
    {
      figure: `${s.connections}-client load, 2 replicas on PostgreSQL ÷ 1 on SQLite: req/s, p99`,
      measured: `${rpsRatio.toFixed(2)}×, ${p99Ratio.toFixed(2)}× (${n(pair.rps)} vs ${n(single.rps)} req/s; p99 ${pair.p99.toFixed(0)} vs ${single.p99.toFixed(0)} ms)`,
      target: 'recorded',
      pass: undefined,
    },
    {
      figure: `${s.connections}-client load errors, 2 replicas on PostgreSQL / 1 on SQLite`,
      measured: `${n(pair.errors)} / ${n(single.errors)}`,
      target: '0',
      pass: judge(pair.errors === 0 && single.errors === 0),
    },
    {
      figure: `refresh p50, ${n(s.sessions)} sessions, PostgreSQL ÷ SQLite`,
      measured: `${refreshRatio.toFixed(2)}× (${p50(pgRefresh).toFixed(2)} vs ${p50(sqliteRefresh).toFixed(2)} ms)`,
      target: 'recorded',
      pass: undefined,
    },
  );
}

/** `npx tsx bench/replicas.ts [--quick]`: this section alone. */
async function main() {
  const quick = process.argv.includes('--quick');
  const dir = await mkdtemp(join(tmpdir(), 'skiff-bench-replicas-'));
  const verdicts: Verdict[] = [];
  try {
    const skipped = await benchReplicas(dir, quick, verdicts, (pass) => (quick ? undefined : pass));
    if (skipped) console.log(`skipped: ${skipped.skipped}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  console.log(
    `\n${table(verdicts.map((v) => ({ figure: v.figure, measured: v.measured, target: v.target })))}`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
