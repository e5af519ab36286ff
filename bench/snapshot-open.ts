import { execFile } from 'node:child_process';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DEMO_PODS, startSimulator } from '@skiff/kube-simulator';
import { request } from 'undici';
import { createService } from '../src-main/service/index';
import { silentLogger } from '../src-main/service/logger';
import { writeSnapshotFixture } from '../src-main/service/snapshots/open-fixture.test-support';
import { login } from '../src-main/service/test-support/login.test-support';
import type { OpenPathFigures } from './snapshot-open-path';
import { median, mib, table, type Verdict } from './stats';

/**
 * Opening a snapshot (issue 10 §2): a `.skiff` file of the whole simulated cluster (every tenth
 * event written as expired history), opened by a fresh service with no other cluster; measured
 * from the call that opens the file to the first page of pods over HTTP, then the first page of
 * events with the history (whose in-memory table is built on that first read). The file is
 * written from an in-process simulator that is stopped before the service opens it. The service
 * runs in this process, so its CPU time is its own: on a loaded machine that says more than the
 * wall time.
 *
 * Then the way a snapshot is opened now (issue 23 §4: the cluster connection pages through the
 * file) against the way it was opened before (the file's content in an embedded simulator, listed
 * over loopback HTTP), each in a process of its own (snapshot-open-path.ts) so its peak RSS is its
 * own, alternated over a few rounds: the first page of pods, every kind and the events cached,
 * CPU time and memory.
 */

const PATH_SCRIPT = fileURLToPath(new URL('./snapshot-open-path.ts', import.meta.url));

async function openPath(file: string, way: 'new' | 'old'): Promise<OpenPathFigures> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', PATH_SCRIPT, file, way],
    { timeout: 300_000, maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as OpenPathFigures;
}

/** Old and new alternated `rounds` times; the median of each figure. */
async function compareOpenPaths(file: string, rounds: number) {
  const runs: Record<'new' | 'old', OpenPathFigures[]> = { new: [], old: [] };
  for (let i = 0; i < rounds; i++) {
    runs.new.push(await openPath(file, 'new'));
    runs.old.push(await openPath(file, 'old'));
  }
  const med = (way: 'new' | 'old', f: (x: OpenPathFigures) => number) => median(runs[way].map(f));
  const of = (way: 'new' | 'old') => ({
    firstPageMs: med(way, (x) => x.firstPageMs),
    allMs: med(way, (x) => x.allMs),
    cpuMs: med(way, (x) => x.cpuMs),
    addedPeakMiB: med(way, (x) => x.peakMiB - x.baseMiB),
    settledMiB: med(way, (x) => x.settledMiB - x.baseMiB),
    heapMiB: med(way, (x) => x.heapMiB),
  });
  return { new: of('new'), old: of('old') };
}

export interface SnapshotOpenFigures {
  pods: number;
  events: number;
  sizeBytes: number;
  /** service.snapshots.open(file) to the first page of pods. */
  firstPageMs: number;
  /** Then the first page of events with includeExpired=true (the history table is built). */
  historyMs: number;
  /** CPU time of this process during each of the two. */
  firstPageCpuMs: number;
  historyCpuMs: number;
}

const TARGET_MS = 2_000;
const n = (x: number) => x.toLocaleString('en-US');
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const PASSWORD = 'bench-admin-password-0123';

export async function benchSnapshotOpen(
  dir: string,
  scale: { pods: number; events: number; rounds: number },
  verdicts: Verdict[],
  judge: (pass: boolean) => boolean | undefined,
): Promise<SnapshotOpenFigures> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'bench.skiff');
  const sim = await startSimulator({ tickMs: false, scale });
  let events: number;
  try {
    const summary = await writeSnapshotFixture(sim, file, {
      context: 'bench',
      expired: (e) => e.metadata.uid.endsWith('0'),
      logPods: [DEMO_PODS.crashLoop, DEMO_PODS.checkout],
    });
    events = summary.liveEvents + summary.expiredEvents;
  } finally {
    await sim.close();
  }
  const sizeBytes = (await stat(file)).size;

  const service = createService({
    contexts: [],
    dataDir: join(dir, 'data'),
    logger: silentLogger(),
    adminPassword: PASSWORD,
  });
  // Closed before the open paths are compared, so its memory and CPU are not theirs.
  let closed = false;
  try {
    const { url } = await service.listen(0, '127.0.0.1');
    const { headers } = await login(url, 'admin', PASSWORD);
    const get = async (path: string) => {
      const res = await request(url + path, { headers });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`GET ${path} answered ${res.statusCode}: ${text}`);
      return text;
    };
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const cluster = await service.snapshots.open(file);
    const base = `/v1/workspaces/default/observability/${cluster.clusterId}`;
    await get(`${base}/kubernetes-proxy/pod?limit=50`);
    const firstPageMs = performance.now() - started;
    const firstPageCpuMs = cpuMs(cpuStarted);
    const historyStarted = performance.now();
    const historyCpuStarted = process.cpuUsage();
    await get(`${base}/kubernetes-events?includeExpired=true&limit=50`);
    const historyMs = performance.now() - historyStarted;
    const historyCpuMs = cpuMs(historyCpuStarted);

    const figures = {
      pods: scale.pods,
      events,
      sizeBytes,
      firstPageMs,
      historyMs,
      firstPageCpuMs,
      historyCpuMs,
    };
    console.log(`\nOpening a snapshot of ${n(scale.pods)} pods and ${n(events)} events\n`);
    console.log(
      table([
        {
          'file size': mib(sizeBytes / 2 ** 20),
          'open → first page of pods': seconds(firstPageMs),
          'its CPU time': seconds(firstPageCpuMs),
          'then first page with history': seconds(historyMs),
          'history CPU time': seconds(historyCpuMs),
        },
      ]),
    );
    verdicts.push({
      figure: `snapshot of ${n(scale.pods)} pods + ${n(events)} events: open → first page of pods`,
      measured: seconds(firstPageMs),
      target: `≤ ${TARGET_MS / 1000} s`,
      pass: judge(firstPageMs <= TARGET_MS),
    });
    closed = true;
    await service.close();
    const paths = await compareOpenPaths(file, Math.max(1, Math.min(3, scale.rounds >> 1)));
    const row = (name: string, x: (typeof paths)['new']) => ({
      way: name,
      'first page of pods': seconds(x.firstPageMs),
      'every kind + events cached': seconds(x.allMs),
      'CPU time': seconds(x.cpuMs),
      'peak RSS added': mib(x.addedPeakMiB),
      'RSS added, after GC': mib(x.settledMiB),
      'JS heap, after GC': mib(x.heapMiB),
    });
    console.log(
      '\nOpening that snapshot: from its file (now) against through an embedded simulator (before)\n',
    );
    console.log(table([row('from the file (now)', paths.new), row('via a simulator (before)', paths.old)]));
    verdicts.push(
      {
        figure: 'snapshot open, now ÷ before: CPU time to every kind cached',
        measured: `${(paths.new.cpuMs / paths.old.cpuMs).toFixed(2)} (${seconds(paths.new.cpuMs)} ÷ ${seconds(paths.old.cpuMs)}); first page ${seconds(paths.new.firstPageMs)} ÷ ${seconds(paths.old.firstPageMs)}`,
        target: '< 1',
        pass: judge(paths.new.cpuMs < paths.old.cpuMs),
      },
      {
        figure: 'snapshot open, now ÷ before: peak RSS added',
        measured: `${(paths.new.addedPeakMiB / paths.old.addedPeakMiB).toFixed(2)} (${mib(paths.new.addedPeakMiB)} ÷ ${mib(paths.old.addedPeakMiB)})`,
        target: '< 1',
        pass: judge(paths.new.addedPeakMiB < paths.old.addedPeakMiB),
      },
    );
    return figures;
  } finally {
    if (!closed) await service.close();
  }
}
