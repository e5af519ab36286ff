import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { createService } from '../src-main/service/index';
import { silentLogger } from '../src-main/service/logger';
import { writeSnapshotFixture } from '../src-main/service/snapshots/open-fixture.test-support';
import { login } from '../src-main/service/test/login';
import { DEMO_PODS, startSimulator } from '../src-main/simulator/index';
import { mib, table, type Verdict } from './stats';

/**
 * Opening a snapshot (issue 10 §2): a `.skiff` file of the whole simulated cluster (every tenth
 * event written as expired history), opened by a fresh service with no other cluster; measured
 * from the call that opens the file to the first page of pods over HTTP, then the first page of
 * events with the history (whose in-memory table is built on that first read). The file is
 * written from an in-process simulator that is stopped before the service opens it. The service
 * and the snapshot's simulator run in this process, so its CPU time is theirs: on a loaded
 * machine that says more than the wall time.
 */

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
  scale: { pods: number; events: number },
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
    return figures;
  } finally {
    await service.close();
  }
}
