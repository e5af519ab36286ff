import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  postgresSkipReason,
  startPostgres,
  type TestPostgres,
} from '../src-main/service/storage/postgres.test-support';
import { type RecordingRun, recordingRun, type Store, startChangeSim } from './recording-load';
import { benchReads, type ReadCase } from './recording-reads';
import { startSimulatorProcess } from './simulator-process';
import { ms, table, type Verdict } from './stats';

/**
 * `--only recording` (issue 27): what recording a cluster's changes costs, and how fast its reads
 * are at 1,000,000 recorded changes, on SQLite and on PostgreSQL (the machine's server, started
 * here; skipped, with the reason, where there is none).
 * - Recording (recording-load.ts): `pods` pods, `rate` changes a second for `seconds`, against the
 *   same load with `--record-changes off` in the same run: service CPU per change, its ratio to the
 *   baseline, and change_history growth per day at that rate.
 * - Reads (recording-reads.ts): p99 of an object's history page, the changes feed (first and last
 *   page, with and without a namespace and kind filter), a diagnosis and the event history's
 *   includeExpired page at offset 99,900, each against 10 ms.
 * Everything runs on loopback in processes of its own and is bounded in time.
 */

interface Scale {
  pods: number;
  events: number;
  rate: number;
  seconds: number;
  changes: number;
  requests: number;
  warmup: number;
}

const FULL: Scale = {
  pods: 10_000,
  events: 100_000,
  rate: 100,
  seconds: 20,
  changes: 1_000_000,
  requests: 300,
  warmup: 50,
};
const QUICK: Scale = {
  pods: 2_000,
  events: 20_000,
  rate: 100,
  seconds: 5,
  changes: 200_000,
  requests: 60,
  warmup: 10,
};
const CLUSTER = 'bench';
const n = (x: number) => Math.round(x).toLocaleString('en-US');
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;

type Backend = { name: string; store: (label: string) => Promise<Store> };

export async function benchRecording(
  dir: string,
  quick: boolean,
  verdicts: Verdict[],
  judge: (pass: boolean) => boolean | undefined,
  /** Some of it (the standalone run's --parts and --backends): default everything on both. */
  parts: { recording?: boolean; reads?: boolean; postgres?: boolean; sqlite?: boolean } = {},
): Promise<{ skipped: string[] }> {
  const { recording = true, reads = true, postgres = true, sqlite = true } = parts;
  const s = quick ? QUICK : FULL;
  const skipped: string[] = [];
  await mkdir(dir, { recursive: true });
  const pg: TestPostgres | undefined = postgresSkipReason || !postgres ? undefined : await startPostgres();
  if (postgresSkipReason) skipped.push(`recording on PostgreSQL: ${postgresSkipReason}`);
  const backends: Backend[] = [
    ...(sqlite ? [{ name: 'SQLite', store: async (): Promise<Store> => ({ dialect: 'sqlite' }) }] : []),
    ...(pg
      ? [
          {
            name: 'PostgreSQL',
            store: async (label: string) => ({
              dialect: 'postgres' as const,
              url: await pg.createDatabase(`bench_${label}`),
            }),
          },
        ]
      : []),
  ];
  try {
    if (recording) await recordingPart(dir, s, backends, verdicts);
    if (reads) await readsPart(dir, s, backends, verdicts, judge);
  } finally {
    await pg?.stop();
  }
  return { skipped };
}

async function recordingPart(dir: string, s: Scale, backends: Backend[], verdicts: Verdict[]) {
  {
    console.log(
      `\nRecording changes: ${n(s.pods)} pods, ${s.rate} changes/s for ${s.seconds} s, against --record-changes off in the same run${s === QUICK ? ' (--quick: a smoke run)' : ''}; load average ${loadavg()[0]!.toFixed(1)}`,
    );
    const sim = await startChangeSim(dir, s.pods, CLUSTER);
    const runs: Array<{ backend: string; off: RecordingRun; on: RecordingRun }> = [];
    try {
      for (const b of backends) {
        const label = b.name.toLowerCase();
        const off = await recordingRun(
          sim,
          join(dir, `${label}-off`),
          CLUSTER,
          await b.store(`${label}_off`),
          'off',
          s.rate,
          s.seconds,
        );
        const on = await recordingRun(
          sim,
          join(dir, `${label}-on`),
          CLUSTER,
          await b.store(`${label}_on`),
          'viewed',
          s.rate,
          s.seconds,
        );
        runs.push({ backend: b.name, off, on });
      }
    } finally {
      await sim.stop();
    }
    reportRecording(runs, s, verdicts);
  }
}

async function readsPart(
  dir: string,
  s: Scale,
  backends: Backend[],
  verdicts: Verdict[],
  judge: (pass: boolean) => boolean | undefined,
) {
  {
    console.log(
      `\nReads at ${n(s.changes)} recorded changes (seeded, shuffled), ${n(s.pods)} pods and ${n(s.events)} events; ${s.requests} sequential requests per row after ${s.warmup} warm-up, one kept-alive connection, timed to the last byte; load average ${loadavg()[0]!.toFixed(1)}`,
    );
    const readSim = await startSimulatorProcess({
      pods: s.pods,
      events: s.events,
      kubeconfigPath: join(dir, 'reads-sim.kubeconfig'),
      context: CLUSTER,
    });
    try {
      for (const b of backends) {
        const label = b.name.toLowerCase();
        const out = await benchReads(
          readSim,
          join(dir, `${label}-reads`),
          CLUSTER,
          await b.store(`${label}_reads`),
          s,
        );
        console.log(
          `\n${b.name}: ${n(s.changes)} changes seeded in ${out.seedS.toFixed(0)} s; change_history and its indexes ${mb(out.bytes)}\n`,
        );
        console.log(
          table(
            out.cases.map((c) => ({
              read: c.name,
              p50: c.p50 === undefined ? '—' : ms(c.p50),
              p99: c.p99 === undefined ? 'not measured' : ms(c.p99),
              'service CPU per request': c.cpuMsPerRequest === undefined ? '—' : ms(c.cpuMsPerRequest),
            })),
          ),
        );
        for (const c of out.cases) readVerdict(b.name, c, verdicts, judge);
      }
    } finally {
      await readSim.stop();
    }
  }
}

function readVerdict(
  backend: string,
  c: ReadCase,
  verdicts: Verdict[],
  judge: (pass: boolean) => boolean | undefined,
) {
  if (c.p99 === undefined) {
    console.log(`${backend}, ${c.name}: not measured: ${c.notMeasured}`);
    verdicts.push({
      figure: `p99, ${backend}, ${c.name}`,
      measured: 'not measured (see above)',
      target: '≤ 10 ms',
      pass: judge(false),
    });
    return;
  }
  verdicts.push({
    figure: `p99, ${backend}, ${c.name}`,
    measured: `${c.p99.toFixed(1)} ms (p50 ${c.p50!.toFixed(1)})`,
    target: '≤ 10 ms',
    pass: judge(c.p99 <= 10),
  });
}

function reportRecording(
  runs: Array<{ backend: string; off: RecordingRun; on: RecordingRun }>,
  s: Scale,
  verdicts: Verdict[],
) {
  const perDay = s.rate * 86_400;
  console.log(
    table(
      runs.flatMap(({ backend, off, on }) =>
        [off, on].map((r) => ({
          backend,
          '--record-changes': r.mode,
          changes: `${n(r.changes)} in ${(r.driverMs / 1000).toFixed(1)} s`,
          'CPU per change': `${r.cpuMsPerChange.toFixed(3)} ms`,
          'rows added': n(r.rowsAdded),
          'bytes per change': r.changes ? n(r.bytesAdded / r.changes) : '—',
          'first sight of the pods': `${n(r.firstSight.rows)} rows, ${mb(r.firstSight.bytes)}, ${r.firstSight.cpuS.toFixed(1)} s CPU from the list`,
        })),
      ),
    ),
  );
  for (const { backend, off, on } of runs) {
    const ratio = on.cpuMsPerChange / off.cpuMsPerChange;
    const own = on.cpuMsPerChange - off.cpuMsPerChange;
    const bytesPerChange = on.bytesAdded / on.changes;
    const recorded = on.rowsAdded > 0;
    // A baseline that recorded is no baseline: the service did not take --record-changes off.
    const baseline = off.rowsAdded === 0 && off.firstSight.rows === 0;
    if (!baseline)
      console.log(
        `\n${backend}: the --record-changes off run recorded ${n(off.firstSight.rows + off.rowsAdded)} rows (SKIFF_RECORD_CHANGES=off not taken), so the ratio below is not against a baseline`,
      );
    console.log(
      `\n${backend}: recording ÷ baseline CPU per change ${ratio.toFixed(2)}× (${own.toFixed(3)} ms of recording per change, ${((own * s.rate) / 10).toFixed(1)}% of a core at ${s.rate}/s); ${n(on.rowsAdded)} rows for ${n(on.changes)} changes; growth ${n(bytesPerChange)} B per change, ${gb(bytesPerChange * perDay)} a day at ${s.rate}/s (before retention)`,
    );
    verdicts.push(
      {
        figure: `recording ${s.rate} changes/s of ${n(s.pods)} pods, ${backend}: CPU per change, ÷ --record-changes off`,
        measured: recorded
          ? `${on.cpuMsPerChange.toFixed(3)} ms, ${ratio.toFixed(2)}× (${baseline ? 'baseline' : 'NOT a baseline: it recorded'} ${off.cpuMsPerChange.toFixed(3)} ms)`
          : 'not measured: nothing was recorded',
        target: 'recorded',
        pass: undefined,
      },
      {
        figure: `change_history growth at ${s.rate} changes/s, ${backend}`,
        measured: recorded
          ? `${n(bytesPerChange)} B per change, ${gb(bytesPerChange * perDay)} per day`
          : 'not measured',
        target: 'recorded',
        pass: undefined,
      },
    );
  }
}

/**
 * `npx tsx bench/recording.ts [--quick] [--parts recording,reads] [--backends sqlite,postgresql]`:
 * this section alone, or some of it.
 */
async function main() {
  const { values } = parseArgs({
    options: { quick: { type: 'boolean' }, parts: { type: 'string' }, backends: { type: 'string' } },
  });
  const quick = values.quick ?? false;
  const parts = new Set((values.parts ?? 'recording,reads').split(','));
  const backends = new Set((values.backends ?? 'sqlite,postgresql').split(','));
  const dir = await mkdtemp(join(tmpdir(), 'skiff-bench-recording-'));
  const verdicts: Verdict[] = [];
  try {
    const { skipped } = await benchRecording(dir, quick, verdicts, (pass) => (quick ? undefined : pass), {
      recording: parts.has('recording'),
      reads: parts.has('reads'),
      sqlite: backends.has('sqlite'),
      postgres: backends.has('postgresql'),
    });
    for (const s of skipped) console.log(`skipped: ${s}`);
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
