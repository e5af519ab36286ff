import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchApiDocs } from './api-docs';
import { benchAuthStore } from './auth-store';
import { type BenchService, startBenchService } from './bench-service';
import { benchKindLists } from './kind-lists';
import { benchListPods } from './list-pods';
import { runOptionalLoadBench } from './load-optional';
import { benchLoginTiming } from './login-timing';
import { benchLogsViewer } from './logs-viewer';
import { type MemoryPoint, measureMemory } from './memory';
import { benchPages } from './pages';
import { benchRbac } from './rbac';
import { benchRecording } from './recording';
import { benchRelations } from './relations';
import { benchRendererTable } from './renderer-table';
import { benchReplicas } from './replicas';
import { benchSimulatorBuild } from './simulator-build';
import { type SimulatorProcess, startSimulatorProcess } from './simulator-process';
import { benchSlowClients } from './slow-clients';
import { benchSnapshot } from './snapshot';
import { benchHostileUploads } from './snapshot-hostile';
import { benchSnapshotOpen } from './snapshot-open';
import { mib, table, type Verdict, verdictTable } from './stats';

/**
 * `npm run bench`: every speed and memory figure in one run, printed as tables with ratios and a
 * closing pass/fail summary against the targets. `--quick` is a smoke run at a fifth of the scale
 * (its figures are not the targets' and are marked so); `--only memory,lists,...` runs some
 * sections. Everything runs on loopback; the simulator and each measured service run in
 * processes of their own.
 */

const SECTIONS = [
  'memory',
  'lists',
  'renderer',
  'load',
  'logs',
  'auth',
  'snapshot',
  'simulator',
  'replicas',
  'rbac',
  'recording',
] as const;
type Section = (typeof SECTIONS)[number];
const USAGE = `usage: npm run bench -- [--quick] [--only ${SECTIONS.join(',')}]`;

function options() {
  try {
    const { values } = parseArgs({ options: { quick: { type: 'boolean' }, only: { type: 'string' } } });
    const only = new Set(values.only?.split(',') ?? SECTIONS);
    for (const s of only) if (!SECTIONS.includes(s as Section)) throw new Error(`no section "${s}"`);
    return { quick: values.quick ?? false, only };
  } catch (err) {
    console.error(`bench: ${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}
const { quick, only } = options();
const runs = (s: Section) => only.has(s);
// A --quick run is smaller than the scale the targets are set at: its figures are shown, not judged.
const judge = (pass: boolean) => (quick ? undefined : pass);
const SCALE = quick
  ? { pods: 2_000, events: 20_000, bigPods: 10_000, rounds: 3, simRounds: 3, requests: 60, warmup: 10 }
  : { pods: 10_000, events: 100_000, bigPods: 50_000, rounds: 7, simRounds: 5, requests: 300, warmup: 50 };
const CLUSTER = 'bench';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// A stuck step must not hold the machine: the whole run is bounded.
// The replicas section starts PostgreSQL, a simulator and five services of its own: minutes more.
// The recording section records on both backends and seeds 1,000,000 changes into each: 10-20 minutes more.
const DEADLINE_MS =
  ((quick ? 4 : 10) + (runs('replicas') ? (quick ? 3 : 6) : 0) + (runs('recording') ? (quick ? 6 : 15) : 0)) *
  60_000;

const n = (x: number) => x.toLocaleString('en-US');
const timings: string[] = [];
const load1 = () => loadavg()[0]!.toFixed(1);

async function timed<T>(section: string, fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  try {
    return await fn();
  } finally {
    timings.push(`${section} ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
}

async function main() {
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'skiff-bench-'));
  const deadline = setTimeout(() => {
    console.error(`\nbench: still running after ${DEADLINE_MS / 60_000} min; giving up`);
    // The child processes are killed on exit (service-process.ts); the temporary folder is ours.
    rmSync(dir, { recursive: true, force: true });
    process.exit(1);
  }, DEADLINE_MS);
  deadline.unref();
  const verdicts: Verdict[] = [];
  const skipped: string[] = [];
  const browserReason = quick
    ? 'not in a --quick run'
    : existsSync(CHROMIUM)
      ? undefined
      : `no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`;
  // The machine is shared: the load average says how much of a figure is someone else's work.
  const loadAtStart = load1();
  try {
    if (runs('memory') || runs('lists') || runs('snapshot')) {
      const sim = await simulator(SCALE.pods, join(dir, 'sim.kubeconfig'));
      try {
        // Memory first, each point on a fresh service, before this run has loaded the machine.
        if (runs('memory')) await timed('memory', () => memory(sim, dir, verdicts));
        if (runs('lists'))
          await timed('lists and pages', () => listsAndPages(sim, join(dir, 'data-lists'), verdicts));
        if (runs('snapshot'))
          await timed('snapshot', () => snapshot(sim, join(dir, 'data-snapshot'), verdicts));
      } finally {
        await sim.stop();
      }
    }
    if (runs('lists')) await timed('kinds', () => kindLists(dir, verdicts));
    if (runs('snapshot'))
      await timed('snapshot open', () =>
        benchSnapshotOpen(join(dir, 'snapshot-open'), SCALE, verdicts, judge),
      );
    if (runs('snapshot'))
      await timed('hostile snapshots', () =>
        benchHostileUploads(join(dir, 'snapshot-hostile'), SCALE, verdicts, judge),
      );
    if (runs('rbac')) await timed('rbac', () => benchRbac(join(dir, 'rbac'), SCALE, verdicts, judge));
    if (runs('simulator'))
      await timed('simulator', () =>
        benchSimulatorBuild({ pods: SCALE.pods, events: SCALE.events }, SCALE.simRounds, verdicts, judge),
      );
    if (runs('renderer')) {
      if (browserReason) skipped.push(`renderer table: ${browserReason}`);
      // A simulator of its own that ticks, so live updates arrive while the table scrolls.
      else await timed('renderer table', () => benchRendererTable(dir, SCALE.pods, SCALE.events, verdicts));
      if (browserReason) skipped.push(`/v1/docs page: ${browserReason}`);
      else await timed('api docs', () => benchApiDocs(dir, verdicts, judge));
    }
    const load = runs('load') ? await timed('load', () => runOptionalLoadBench(quick)) : undefined;
    if (load && 'verdicts' in load) verdicts.push(...load.verdicts);
    else if (load) skipped.push(`load test: ${load.skipped}`);
    if (runs('load'))
      await timed('slow clients', () => benchSlowClients(join(dir, 'slow-clients'), SCALE, verdicts, judge));
    if (runs('auth'))
      await timed('auth store', () =>
        benchAuthStore(
          dir,
          quick ? { sessions: 2_000, activity: 20_000 } : { sessions: 10_000, activity: 100_000 },
          verdicts,
          judge,
        ),
      );
    if (runs('auth'))
      await timed('login timing', () =>
        benchLoginTiming(join(dir, 'login-timing'), quick ? 5 : 15, verdicts, judge),
      );
    if (runs('replicas')) {
      const out = await timed('replicas', () => benchReplicas(join(dir, 'replicas'), quick, verdicts, judge));
      if (out) skipped.push(out.skipped);
    }
    if (runs('recording')) {
      const out = await timed('recording', () =>
        benchRecording(join(dir, 'recording'), quick, verdicts, judge),
      );
      skipped.push(...out.skipped);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (runs('logs')) {
    if (browserReason) skipped.push(`log viewer: ${browserReason}`);
    else await timed('log viewer', () => benchLogsViewer());
  }

  console.log(`\nSummary${quick ? ' (--quick: smaller scale, so not the targets’ figures)' : ''}\n`);
  console.log(verdictTable(verdicts));
  for (const s of skipped) console.log(`skipped: ${s}`);
  const judged = verdicts.filter((v) => v.pass !== undefined);
  const met = judged.filter((v) => v.pass).length;
  const took = ((performance.now() - started) / 1000).toFixed(0);
  const verdict = judged.length ? `${met} of ${judged.length} targets met` : 'no target judged';
  console.log(
    `\n${verdict}; bench took ${took} s (${timings.join(', ')}); load average ${loadAtStart} at the start, ${load1()} at the end, on ${cpus().length} cores`,
  );
}

/** A capture of the whole simulator through the API (issue 10 §2); shown, with no target to judge. */
async function snapshot(sim: SimulatorProcess, dataDir: string, verdicts: Verdict[]) {
  const f = await benchSnapshot(sim, dataDir, CLUSTER);
  verdicts.push({
    figure: `snapshot of ${n(f.pods)} pods + ${n(f.events)} events (failing pods' logs), warm`,
    measured: `${(f.warmMs / 1000).toFixed(1)} s, ${mib(f.sizeBytes / 2 ** 20)}`,
    target: '—',
    pass: undefined,
  });
}

async function simulator(pods: number, kubeconfigPath: string) {
  console.log(
    `\nSimulator: ${n(pods)} pods, ${n(SCALE.events)} events, in its own process${quick ? ' (--quick: a smoke run, not the targets’ scale)' : ''}`,
  );
  return startSimulatorProcess({ pods, events: SCALE.events, kubeconfigPath, context: CLUSTER });
}

/** Section 1's memory figures: two points, each on a fresh service, the second on a bigger cluster. */
async function memory(sim: SimulatorProcess, dir: string, verdicts: Verdict[]) {
  const points = [await measureMemory(sim, join(dir, 'data-memory'), CLUSTER)];
  const big = await simulator(SCALE.bigPods, join(dir, 'sim-big.kubeconfig'));
  try {
    points.push(await measureMemory(big, join(dir, 'data-memory-big'), CLUSTER));
  } finally {
    await big.stop();
  }
  printMemory(points, verdicts);
}

/** Sections 1 and 2 on one fresh service: the full pod list against client-node, then the pages. */
async function listsAndPages(sim: SimulatorProcess, dataDir: string, verdicts: Verdict[]) {
  const service = await startBenchService(sim, dataDir, CLUSTER, { gcProbe: true });
  try {
    const list = await benchListPods(sim, service, SCALE.rounds);
    verdicts.push({
      figure: `${n(list.count)}-pod list, /v1 ÷ client-node direct`,
      measured: `${list.ratio.toFixed(2)} (${list.serviceMs.toFixed(0)} ms ÷ ${list.directMs.toFixed(0)} ms)`,
      target: '≤ 0.60',
      pass: judge(list.ratio <= 0.6),
    });
    const pages = await benchPages(service, SCALE.requests, SCALE.warmup);
    for (const p of pages)
      verdicts.push({
        figure: `p99, ${p.name}`,
        measured: `${p.p99.toFixed(1)} ms (p50 ${p.p50.toFixed(1)})`,
        target: '≤ 10 ms',
        pass: judge(p.p99 <= 10),
      });
    await relations(service, verdicts);
    const peak = service.svc.peakRssMiB();
    const after = await service.fullGc();
    console.log(
      `\nThis service after the list and page benches: peak RSS ${mib(peak)}; after a full GC, RSS ${mib(service.svc.rssMiB())} and JS heap ${mib(after.heapUsed / 2 ** 20)}`,
    );
  } finally {
    await service.stop();
  }
}

/**
 * Issue 23 §4: pods, ConfigMaps and a custom resource, SCALE.pods of each, on a simulator of their
 * own (its ConfigMaps and custom resources are created for this), so no other figure sees them.
 */
async function kindLists(dir: string, verdicts: Verdict[]) {
  console.log(`\nSimulator for the kinds: ${n(SCALE.pods)} pods, in its own process`);
  const sim = await startSimulatorProcess({
    pods: SCALE.pods,
    events: 1_000,
    kubeconfigPath: join(dir, 'sim-kinds.kubeconfig'),
    context: CLUSTER,
  });
  try {
    await benchKindLists(sim, join(dir, 'data-kinds'), CLUSTER, SCALE.rounds, verdicts, judge);
  } finally {
    await sim.stop();
  }
}

/** Issue 23's relations (p99 ≤ 10 ms) and palette search (p99 ≤ 50 ms), with their ratio to one pod read. */
async function relations(service: BenchService, verdicts: Verdict[]) {
  const cases = await benchRelations(service, SCALE.requests, SCALE.warmup);
  const base = cases.find((c) => c.kind === 'baseline')!;
  const ratio = (p99: number) => `${(p99 / base.p99).toFixed(1)}× one pod read`;
  for (const c of cases) {
    if (c.kind === 'baseline') continue;
    const target = c.kind === 'relations' ? 10 : 50;
    verdicts.push({
      figure: `p99, ${c.name}`,
      measured: `${c.p99.toFixed(1)} ms (p50 ${c.p50.toFixed(1)}; ${ratio(c.p99)})`,
      target: `≤ ${target} ms`,
      pass: judge(c.p99 <= target),
    });
  }
}

function printMemory(points: MemoryPoint[], verdicts: Verdict[]) {
  const [small, big] = points;
  if (!small || !big) return;
  const per10k = (a: number, b: number) => ((b - a) * 10_000) / (big.pods - small.pods);
  console.log(
    '\nService memory with every pod and event listed through /v1 (both caches full) and a few pages read\n',
  );
  console.log(
    table([
      ...points.map((p) => ({
        cached: `${n(p.pods)} pods + ${n(p.events)} events`,
        'before listing: RSS / peak': `${mib(p.idleMiB)} / ${mib(p.idlePeakMiB)}`,
        'peak RSS (VmHWM)': mib(p.peakMiB),
        'RSS after a full GC': mib(p.settledRssMiB),
        'JS heap used': mib(p.heapMiB),
        external: mib(p.externalMiB),
      })),
      {
        cached: `per 10,000 pods (difference ÷ ${(big.pods - small.pods) / 10_000})`,
        'before listing: RSS / peak': '',
        'peak RSS (VmHWM)': mib(per10k(small.peakMiB, big.peakMiB)),
        'RSS after a full GC': mib(per10k(small.settledRssMiB, big.settledRssMiB)),
        'JS heap used': mib(per10k(small.heapMiB, big.heapMiB)),
        external: mib(per10k(small.externalMiB, big.externalMiB)),
      },
    ]),
  );
  verdicts.push(
    {
      figure: `peak RSS, ${n(small.pods)} pods + ${n(small.events)} events`,
      measured: mib(small.peakMiB),
      target: '≤ 300 MiB',
      pass: judge(small.peakMiB <= 300),
    },
    {
      figure: `peak RSS, ${n(big.pods)} pods + ${n(big.events)} events`,
      measured: `${mib(big.peakMiB)} (${mib(per10k(small.peakMiB, big.peakMiB))} per 10,000 pods)`,
      target: 'recorded',
      pass: undefined,
    },
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
