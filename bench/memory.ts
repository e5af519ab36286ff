import { listAll, startBenchService } from './bench-service';
import type { SimulatorProcess } from './simulator-process';

export interface MemoryPoint {
  pods: number;
  events: number;
  /** VmRSS once logged in, before anything is cached: what the service costs with no cluster data. */
  idleMiB: number;
  /** VmHWM at that point: start-up and login (scrypt takes 64 MiB for a moment) before any list. */
  idlePeakMiB: number;
  /** VmHWM of the service process after both caches filled and a few pages were read. */
  peakMiB: number;
  /** VmRSS after a forced full GC. */
  settledRssMiB: number;
  /** V8 heap in use after that GC (process.memoryUsage().heapUsed). */
  heapMiB: number;
  /** Memory outside the V8 heap that V8 accounts for (Buffers and the like), after that GC. */
  externalMiB: number;
}

const MiB = 1024 * 1024;

/**
 * The service's memory with every pod and every event of the simulator cached: a fresh service
 * lists all pods and all events through /v1 (so both watch caches are full) and reads a few pages.
 * Peak and current RSS come from /proc; the settled figures follow a full GC that the preloaded
 * gc-probe runs on SIGUSR2 (no endpoint in the product, no inspector).
 */
export async function measureMemory(
  sim: SimulatorProcess,
  dataDir: string,
  clusterId: string,
): Promise<MemoryPoint> {
  const service = await startBenchService(sim, dataDir, clusterId, { gcProbe: true });
  try {
    const idleMiB = service.svc.rssMiB();
    const idlePeakMiB = service.svc.peakRssMiB();
    const pods = await listAll(service, `${service.cluster}/kubernetes-proxy/pod`);
    const events = await listAll(service, `${service.cluster}/kubernetes-events`);
    if (pods.length !== sim.pods || events.length !== sim.events)
      throw new Error(
        `the service listed ${pods.length} pods and ${events.length} events; the simulator holds ${sim.pods} and ${sim.events}`,
      );
    pods.length = 0;
    events.length = 0;
    for (const path of [
      `${service.cluster}/kubernetes-proxy/pod?limit=100&offset=0`,
      `${service.cluster}/kubernetes-proxy/pod?limit=100&offset=${Math.floor(sim.pods / 2)}`,
      `${service.cluster}/kubernetes-events?limit=100&offset=0`,
      `${service.cluster}/kubernetes-events?limit=100&offset=${Math.floor(sim.events / 2)}`,
      `${service.cluster}/kubernetes-events?limit=100&offset=0&type=WARNING`,
    ]) {
      const res = await service.get(path);
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    }
    const peakMiB = service.svc.peakRssMiB();
    const usage = await service.fullGc();
    return {
      pods: sim.pods,
      events: sim.events,
      idleMiB,
      idlePeakMiB,
      peakMiB,
      settledRssMiB: service.svc.rssMiB(),
      heapMiB: usage.heapUsed / MiB,
      externalMiB: usage.external / MiB,
    };
  } finally {
    await service.stop();
  }
}
