import { request } from 'undici';
import type { SnapshotJob } from '../src-shared/contract/snapshot-models';
import { startBenchService } from './bench-service';
import type { SimulatorProcess } from './simulator-process';
import { mib, table } from './stats';

export interface SnapshotFigures {
  pods: number;
  events: number;
  /** POST to done on a fresh service: the caches' first lists included. */
  coldMs: number;
  /** A second capture once the caches are warm. */
  warmMs: number;
  sizeBytes: number;
  podLogs: number;
  missing: number;
  peakRssMiB: number;
}

const n = (x: number) => x.toLocaleString('en-US');

/**
 * Captures the simulator through a fresh service's API, logs of the failing pods only: once cold
 * (the nine kinds' caches list first) and once warm, polling the job every 100 ms.
 */
export async function benchSnapshot(
  sim: SimulatorProcess,
  dataDir: string,
  clusterId: string,
): Promise<SnapshotFigures> {
  const service = await startBenchService(sim, dataDir, clusterId);
  try {
    const capture = async (): Promise<{ job: SnapshotJob; ms: number }> => {
      const started = performance.now();
      const res = await request(`${service.url}/v1/workspaces/default/clusters/${clusterId}/snapshots`, {
        method: 'POST',
        headers: { ...service.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ logs: 'failing' }),
      });
      const created = (await res.body.json()) as SnapshotJob;
      if (res.statusCode !== 202)
        throw new Error(`POST snapshots answered ${res.statusCode}: ${JSON.stringify(created)}`);
      for (;;) {
        const poll = await service.get(`/v1/snapshots/${created.snapshotId}`);
        const job = JSON.parse(poll.text) as SnapshotJob;
        if (job.status === 'failed') throw new Error(`the capture failed: ${job.error}`);
        if (job.status === 'done') return { job, ms: performance.now() - started };
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const cold = await capture();
    const warm = await capture();
    const figures: SnapshotFigures = {
      pods: sim.pods,
      events: warm.job.progress.events,
      coldMs: cold.ms,
      warmMs: warm.ms,
      sizeBytes: warm.job.sizeBytes ?? 0,
      podLogs: warm.job.progress.podLogsTotal,
      missing: warm.job.missing.length,
      peakRssMiB: service.svc.peakRssMiB(),
    };
    printSnapshot(figures);
    return figures;
  } finally {
    await service.stop();
  }
}

function printSnapshot(f: SnapshotFigures) {
  console.log(`\nSnapshot of ${n(f.pods)} pods and ${n(f.events)} events, logs of the failing pods only\n`);
  console.log(
    table([
      {
        'cold (caches list first)': `${(f.coldMs / 1000).toFixed(1)} s`,
        warm: `${(f.warmMs / 1000).toFixed(1)} s`,
        'file size': mib(f.sizeBytes / 2 ** 20),
        'pods with logs': n(f.podLogs),
        'parts missing': n(f.missing),
        'service peak RSS': mib(f.peakRssMiB),
      },
    ]),
  );
}
