/**
 * Section 6's load test: 200 concurrent clients for 30 s on loopback against the built service,
 * on a mix of pod pages, event pages, single pods and the sessions list, with the service's open
 * file descriptors before, at peak and after. Run alone with
 *   npx tsx bench/load.ts [--quick] [--duration S] [--connections N] [--per-kind]
 *                         [--profile] [--profile-dir DIR]
 *                         [--kind pod-page|event-page|single-pod|sessions-list ...]
 * or from `npm run bench` through runLoadBench/printLoadReport.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { type BenchService, listAll, startBenchService } from './bench-service';
import { KINDS, type Kind, Mix } from './load/mix';
import { summariseProfile } from './load/profile';
import {
  BASELINE_WAIT_S,
  type KindCost,
  type LoadReport,
  loadVerdicts,
  PER_KIND,
  printLoadReport,
} from './load/report';
import { cpuSeconds, openFds, ProcSampler, rssMiB } from './load/sampler';
import { startSimulatorProcess } from './simulator-process';

export { type LoadReport, loadVerdicts, printLoadReport } from './load/report';

export interface LoadOptions {
  /** A smoke run: 5 s at a fifth of the scale; its figures are not the targets'. */
  quick?: boolean;
  durationS?: number;
  connections?: number;
  /** Run the service with --cpu-prof and summarise where its time went during the load. */
  profile?: boolean;
  /** Where to keep the .cpuprofile (for Chrome DevTools); otherwise it goes with the temp dir. */
  profileDir?: string;
  /** The kinds the mix draws from; all four by default (fewer is for profiling one). */
  kinds?: readonly Kind[];
  /** After the mix, each kind alone for a few seconds, for the service's CPU time per request; on unless quick. */
  perKind?: boolean;
}

const CLUSTER = 'bench';
const AFTER_S = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForOk(service: BenchService, path: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await service.get(path);
    if (res.status === 200) return;
    if (Date.now() > deadline)
      throw new Error(`${path} still answers ${res.status}: ${res.text.slice(0, 300)}`);
    await sleep(500);
  }
}

function run(url: string, auth: Record<string, string>, mix: Mix, connections: number, durationS: number) {
  return Promise.resolve(
    autocannon({ url, connections, duration: durationS, headers: auth, requests: [mix.request()] }),
  );
}

export async function runLoadBench(opts: LoadOptions = {}): Promise<LoadReport> {
  const quick = opts.quick ?? false;
  const pods = quick ? 2_000 : 10_000;
  const events = quick ? 20_000 : 100_000;
  const durationS = opts.durationS ?? (quick ? 5 : 30);
  const connections = opts.connections ?? 200;
  const dir = await mkdtemp(join(tmpdir(), 'skiff-load-'));
  const profileDir = opts.profileDir ?? join(dir, 'profile');
  try {
    const sim = await startSimulatorProcess({
      pods,
      events,
      kubeconfigPath: join(dir, 'sim.kubeconfig'),
      context: CLUSTER,
    });
    try {
      // The service as `serve` runs it, with the default --timeout; one login for the whole run
      // (20 logins per address per 10 minutes; the access token outlives the run).
      const service = await startBenchService(
        sim,
        join(dir, 'data'),
        CLUSTER,
        opts.profile || opts.profileDir ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profileDir] } : {},
      );
      const pid = service.svc.pid;
      let stopRequestedAt = 0;
      let loadEndedAt = 0;
      let report: Omit<LoadReport, 'profile'>;
      try {
        // Fill both caches before measuring: the first list of each waits for its watch to sync.
        const all = await listAll<{ resource: { metadata: { namespace: string; name: string } } }>(
          service,
          `${service.cluster}/kubernetes-proxy/pod`,
        );
        await waitForOk(service, `${service.cluster}/kubernetes-events?limit=1`, 60_000);
        const targets = {
          cluster: service.cluster,
          pods: all.length,
          events,
          podNames: all.map((p) => `${p.resource.metadata.namespace}/${p.resource.metadata.name}`),
        };
        await sleep(2_000);
        const fdsBefore = openFds(pid);
        const rssBefore = rssMiB(pid);

        // Warm-up, not measured: lets the JIT settle on the request path.
        await run(service.url, service.auth, new Mix(targets), connections, quick ? 1 : 3);

        const mix = new Mix(targets, opts.kinds ?? KINDS);
        const sampler = new ProcSampler(pid);
        const serviceCpu0 = cpuSeconds(pid);
        const simulatorCpu0 = cpuSeconds(sim.pid);
        const benchCpu0 = process.cpuUsage();
        const t0 = performance.now();
        const result = await run(service.url, service.auth, mix, connections, durationS);
        const wallS = (performance.now() - t0) / 1000;
        loadEndedAt = performance.now();
        const serviceCpu = (cpuSeconds(pid) - serviceCpu0) / wallS;
        const simulatorCpu = (cpuSeconds(sim.pid) - simulatorCpu0) / wallS;
        const benchUsage = process.cpuUsage(benchCpu0);
        sampler.stop();

        await sleep(AFTER_S * 1000);
        const fdsAfter = openFds(pid);
        let backToBaselineS: number | null = null;
        while ((performance.now() - loadEndedAt) / 1000 < BASELINE_WAIT_S) {
          if (openFds(pid) <= fdsBefore) {
            backToBaselineS = (performance.now() - loadEndedAt) / 1000;
            break;
          }
          await sleep(250);
        }

        const costs: KindCost[] = [];
        for (const kind of (opts.perKind ?? !quick) ? KINDS : []) {
          const alone = new Mix(targets, [kind]);
          const cpu0 = cpuSeconds(pid);
          const r = await run(service.url, service.auth, alone, PER_KIND.connections, PER_KIND.durationS);
          const [f] = alone.figures();
          costs.push({
            kind,
            rps: f!.requests / r.duration,
            p50: f!.p50,
            p99: f!.p99,
            cpuMicros: ((cpuSeconds(pid) - cpu0) * 1e6) / Math.max(1, f!.requests),
          });
        }

        const byStatus: Record<string, number> = {};
        for (const [status, { count }] of Object.entries(result.statusCodeStats))
          if (!status.startsWith('2')) byStatus[status] = count;
        const kinds = mix.figures();
        const requests = kinds.reduce((n, k) => n + k.requests, 0);
        report = {
          quick,
          pods: targets.pods,
          events,
          connections,
          durationS,
          requests,
          rps: requests / result.duration,
          p50: result.latency.p50,
          p99: result.latency.p99,
          maxMs: result.latency.max,
          errors: {
            total: result.non2xx + result.errors,
            byStatus,
            socket: result.errors - result.timeouts,
            timeouts: result.timeouts,
          },
          kinds,
          fds: {
            before: fdsBefore,
            peak: sampler.peakFds,
            after: fdsAfter,
            afterS: AFTER_S,
            backToBaselineS,
          },
          rssMiB: { before: rssBefore, peak: sampler.peakRssMiB },
          bytesPerSecond: result.throughput.average,
          cpu: {
            service: serviceCpu,
            simulator: simulatorCpu,
            bench: (benchUsage.user + benchUsage.system) / 1e6 / wallS,
          },
          ...(costs.length ? { costs } : {}),
        };
      } finally {
        stopRequestedAt = performance.now();
        await service.stop();
      }
      if (!opts.profile && !opts.profileDir) return report;
      // The load's samples only: trimmed by half a second at each end for the clocks' skew.
      const tailMs = stopRequestedAt - loadEndedAt + 500;
      return { ...report, profile: summariseProfile(profileDir, durationS * 1000 - 1000, tailMs) };
    } finally {
      await sim.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      duration: { type: 'string' },
      connections: { type: 'string' },
      profile: { type: 'boolean' },
      'profile-dir': { type: 'string' },
      'per-kind': { type: 'boolean' },
      kind: { type: 'string', multiple: true },
    },
  });
  const byFlag = new Map(KINDS.map((k) => [k.replace(' ', '-'), k]));
  const kinds = (values.kind ?? []).map((k) => {
    const kind = byFlag.get(k);
    if (!kind) throw new Error(`--kind ${k}: one of ${[...byFlag.keys()].join(', ')}`);
    return kind;
  });
  const positive = (name: string, v: string | undefined) => {
    if (v === undefined) return undefined;
    const x = Number(v);
    if (!Number.isInteger(x) || x <= 0 || x > 3_600)
      throw new Error(`--${name} must be a whole number 1–3600`);
    return x;
  };
  const report = await runLoadBench({
    quick: values.quick ?? false,
    durationS: positive('duration', values.duration),
    connections: positive('connections', values.connections),
    profile: values.profile ?? false,
    ...(values['profile-dir'] ? { profileDir: values['profile-dir'] } : {}),
    // Profiling one kind wants no other load after it.
    ...(values['per-kind'] || kinds.length ? { perKind: values['per-kind'] ?? false } : {}),
    ...(kinds.length ? { kinds } : {}),
  });
  printLoadReport(report);
  const failed = loadVerdicts(report).filter((v) => v.pass === false);
  for (const v of failed) console.log(`target missed: ${v.figure}: ${v.measured} (target ${v.target})`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
