/**
 * A pod's CPU and memory use, as metrics.k8s.io reports it (a snapshot: as its file kept it).
 * Rules: one metrics list per namespace and per TTL serves every single-pod read (PodUsageCache);
 * a failed list is remembered as "no figures" for the TTL; containers are summed per pod and
 * printed as `kubectl top pod` prints them (sumUsage). The list waits at most 3 s: usage is an
 * optional add-on and must not hold up the read it decorates.
 */
import type { ResourceUsage } from '../../../src-shared/contract/models';
import type { KubeClient } from '../kube/kube-client';
import type { FrozenCluster } from './source-frozen';

/** Reads the usage of every pod of one namespace; rejects when metrics.k8s.io does not answer. */
export type NamespaceUsageReader = (namespace: string) => Promise<ReadonlyMap<string, ResourceUsage>>;

/**
 * metrics-server refreshes a pod's figures every 15 s by default, so asking it again sooner
 * only repeats the same answer; 10 s keeps usage no older than the source already is.
 */
export const POD_USAGE_TTL_MS = 10_000;

interface Entry {
  at: number;
  usage: Promise<ReadonlyMap<string, ResourceUsage> | undefined>;
}

/**
 * Pod usage for single-pod reads, one metrics list per namespace and per TTL: a detail pane that
 * polls, or a script that reads pods one by one, costs the metrics API one request per namespace
 * every 10 s instead of one per read. Concurrent readers share the request in flight. A failed
 * list is remembered for the TTL too: metrics are an optional add-on, and a cluster without
 * them must not pay a timeout on every read.
 */
export class PodUsageCache {
  private readonly byNamespace = new Map<string, Entry>();

  constructor(
    private readonly read: NamespaceUsageReader,
    private readonly ttlMs: number = POD_USAGE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Namespaces held now. */
  get size(): number {
    return this.byNamespace.size;
  }

  async get(namespace: string, name: string): Promise<ResourceUsage | undefined> {
    const now = this.now();
    let entry = this.byNamespace.get(namespace);
    if (!entry || now - entry.at >= this.ttlMs) {
      this.forgetExpired(now);
      entry = { at: now, usage: this.read(namespace).catch(() => undefined) };
      this.byNamespace.set(namespace, entry);
    }
    return (await entry.usage)?.get(name);
  }

  /** Namespaces nobody read within the TTL hold nothing worth keeping. */
  private forgetExpired(now: number): void {
    for (const [namespace, entry] of this.byNamespace) {
      if (now - entry.at >= this.ttlMs) this.byNamespace.delete(namespace);
    }
  }
}

type PodMetrics = {
  metadata?: { name?: string };
  containers?: Array<{ usage?: { cpu?: string; memory?: string } }>;
};

const METRICS_MAX_MS = 3_000;

/** Reads one namespace's pod usage from the cluster's metrics.k8s.io, or from a snapshot's file. */
export function metricsUsageReader(
  client: KubeClient,
  timeoutMs: number,
  frozen: FrozenCluster | undefined,
): NamespaceUsageReader {
  return async (namespace) => {
    const path = `/apis/metrics.k8s.io/v1beta1/namespaces/${encodeURIComponent(namespace)}/pods`;
    const list = frozen
      ? { items: frozen.podMetrics(namespace) as PodMetrics[] }
      : await client.getJson<{ items?: PodMetrics[] }>(path, {
          timeoutMs: Math.min(timeoutMs, METRICS_MAX_MS),
        });
    const byName = new Map<string, ResourceUsage>();
    for (const item of list.items ?? []) {
      if (item.metadata?.name) byName.set(item.metadata.name, sumUsage(item.containers ?? []));
    }
    return byName;
  };
}

const CPU = /^(\d+(?:\.\d+)?)(n|u|m)?$/;
const MEM = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/;
const CPU_SCALE = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1 } as const;
const MEM_SCALE = {
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  '': 1,
} as const;

/** Sums container usage into pod usage, printed the way kubectl top prints it (millicores, Mi). */
export function sumUsage(containers: Array<{ usage?: { cpu?: string; memory?: string } }>): ResourceUsage {
  let cores = 0;
  let bytes = 0;
  for (const c of containers) {
    const cpu = CPU.exec(c.usage?.cpu ?? '');
    if (cpu) cores += Number(cpu[1]) * CPU_SCALE[(cpu[2] ?? '') as keyof typeof CPU_SCALE];
    const mem = MEM.exec(c.usage?.memory ?? '');
    if (mem) bytes += Number(mem[1]) * MEM_SCALE[(mem[2] ?? '') as keyof typeof MEM_SCALE];
  }
  return { cpu: `${Math.round(cores * 1000)}m`, memory: `${Math.round(bytes / 1024 ** 2)}Mi` };
}
