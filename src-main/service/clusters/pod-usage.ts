import type { ResourceUsage } from '../../../src-shared/contract/models';

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
