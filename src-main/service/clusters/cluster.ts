import type { ClusterStatus, KubeObject, ResourceUsage } from '../../../src-shared/contract/models';
import { RESOURCE_KINDS, type ResourceKindInfo, type ResourceType } from '../../../src-shared/kube/kinds';
import { ProblemError } from '../errors';
import { type ClusterEvent, compareEvents, normaliseEvent } from '../events/normalise';
import type { Logger } from '../logger';
import { KubeClient, KubeRequestError, toProblem } from './kube-client';
import type { ContextSource } from './kubeconfig';
import { ResourceCache } from './resource-cache';

export interface CachedResource {
  namespace: string;
  name: string;
  labels: Readonly<Record<string, string>> | undefined;
  object: KubeObject;
}

const byNamespaceThenName = (a: CachedResource, b: CachedResource) =>
  a.namespace < b.namespace
    ? -1
    : a.namespace > b.namespace
      ? 1
      : a.name < b.name
        ? -1
        : a.name > b.name
          ? 1
          : 0;

export interface ClusterOptions {
  timeoutMs: number;
  logger: Logger;
  /** How long a status answer stays fresh. */
  statusTtlMs?: number;
}

const STATUS_PROBE_MAX_MS = 5_000;

/** One monitored cluster: its client, its watch-backed caches and its health. */
export class ClusterConnection {
  readonly client: KubeClient;
  private readonly caches = new Map<string, ResourceCache<CachedResource>>();
  private eventCache: ResourceCache<ClusterEvent> | null = null;
  private statusCache: { at: number; value: Promise<{ status: ClusterStatus; version?: string }> } | null =
    null;

  constructor(
    readonly clusterId: string,
    readonly source: ContextSource,
    private readonly opts: ClusterOptions,
  ) {
    this.client = new KubeClient(source.kubeConfig, source.server);
  }

  get context(): string {
    return this.source.context;
  }

  /** The cluster request timeout; long-lived log requests time only their first answer with it. */
  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  resources(kind: ResourceKindInfo): ResourceCache<CachedResource> {
    let cache = this.caches.get(kind.singular);
    if (!cache) {
      cache = new ResourceCache<CachedResource>({
        client: this.client,
        path: `${kind.apiPath}/${kind.plural}`,
        apiVersion: kind.group ? `${kind.group}/${kind.version}` : kind.version,
        kind: kind.kind,
        toEntry: (object) => ({
          namespace: object.metadata.namespace ?? '',
          name: object.metadata.name,
          labels: object.metadata.labels,
          object,
        }),
        compare: byNamespaceThenName,
        timeoutMs: this.opts.timeoutMs,
        logger: this.opts.logger,
      });
      this.caches.set(kind.singular, cache);
    }
    return cache;
  }

  events(): ResourceCache<ClusterEvent> {
    this.eventCache ??= new ResourceCache<ClusterEvent>({
      client: this.client,
      path: '/api/v1/events',
      apiVersion: 'v1',
      kind: 'Event',
      toEntry: (obj) => normaliseEvent(obj, this.clusterId),
      compare: compareEvents,
      timeoutMs: this.opts.timeoutMs,
      logger: this.opts.logger,
      listChunk: 5_000,
    });
    return this.eventCache;
  }

  /** A single object, read fresh from the apiserver so a detail view is never stale. */
  async getObject(type: ResourceType, name: string, namespace: string | undefined, signal: AbortSignal) {
    const kind = RESOURCE_KINDS[type];
    const ns = kind.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
    const path = `${kind.apiPath}${ns}/${kind.plural}/${encodeURIComponent(name)}`;
    try {
      return await this.client.getJson<KubeObject>(path, { signal, timeoutMs: this.opts.timeoutMs });
    } catch (err) {
      const where = namespace ? ` in namespace ${namespace}` : '';
      throw toProblem(err, `${kind.singular} "${name}"${where}`);
    }
  }

  /** Current usage from metrics.k8s.io, or undefined when that API is absent or slow. */
  async podUsage(namespace: string, name: string, signal: AbortSignal): Promise<ResourceUsage | undefined> {
    const path = `/apis/metrics.k8s.io/v1beta1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`;
    try {
      const m = await this.client.getJson<{
        containers?: Array<{ usage?: { cpu?: string; memory?: string } }>;
      }>(path, { signal, timeoutMs: Math.min(this.opts.timeoutMs, 3_000) });
      return sumUsage(m.containers ?? []);
    } catch {
      // Metrics are an optional add-on to a cluster; their absence is normal, not an error.
      return undefined;
    }
  }

  status(): Promise<{ status: ClusterStatus; version?: string }> {
    const ttl = this.opts.statusTtlMs ?? 10_000;
    if (this.statusCache && Date.now() - this.statusCache.at < ttl) return this.statusCache.value;
    const value = this.probe();
    this.statusCache = { at: Date.now(), value };
    return value;
  }

  private async probe(): Promise<{ status: ClusterStatus; version?: string }> {
    try {
      const v = await this.client.getJson<{ gitVersion?: string }>('/version', {
        timeoutMs: Math.min(this.opts.timeoutMs, STATUS_PROBE_MAX_MS),
      });
      return { status: 'connected', ...(v.gitVersion ? { version: v.gitVersion } : {}) };
    } catch (err) {
      if (err instanceof KubeRequestError && (err.statusCode === 401 || err.statusCode === 403)) {
        return { status: 'unauthorized' };
      }
      if (err instanceof KubeRequestError) return { status: 'connected' };
      if (!(err instanceof ProblemError)) this.opts.logger.warn({ err: String(err) }, 'status probe failed');
      return { status: 'unreachable' };
    }
  }

  /** Stops caches nobody read for `idleMs`, so an unused cluster costs no watches. */
  async sweep(idleMs: number): Promise<void> {
    const now = Date.now();
    for (const [key, cache] of this.caches) {
      if (now - cache.lastUsed > idleMs) {
        this.caches.delete(key);
        await cache.stop();
      }
    }
    if (this.eventCache && now - this.eventCache.lastUsed > idleMs) {
      const c = this.eventCache;
      this.eventCache = null;
      await c.stop();
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.caches.values()].map((c) => c.stop()));
    await this.eventCache?.stop();
    this.caches.clear();
    this.eventCache = null;
  }
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
