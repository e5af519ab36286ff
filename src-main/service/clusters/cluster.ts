import type { ClusterStatus, KubeObject, ResourceUsage } from '../../../src-shared/contract/models';
import { Collection } from '../cache/collection';
import { DEFAULT_PIN_OPTIONS, type PinOptions } from '../cache/list-pins';
import { type CacheObserver, ResourceCache } from '../cache/resource-cache';
import { ProblemError } from '../errors';
import {
  compareEventEntries,
  EVENT_INDEXES,
  type EventEntry,
  eventEntry,
  eventFingerprint,
  eventKeyOf,
} from '../events/entries';
import { bothObservers, DEFAULT_FEED_CAPACITY, EventFeed } from '../events/feed';
import { type BackoffOptions, DEFAULT_BACKOFF } from '../kube/backoff';
import { KubeClient, KubeRequestError, toProblem } from '../kube/kube-client';
import type { ContextSource } from '../kube/kubeconfig';
import type { Logger } from '../logger';
import { ClusterDiscovery } from './discovery/cluster-discovery';
import type { DiscoveredKind } from './discovery/names';
import { compareResources, labelKeys, type ResourceEntry, resourceEntry } from './entries';
import {
  apiVersionOf,
  isSecretKind,
  type KindInfo,
  kindKey,
  kindOfDiscovered,
  TAILORED_KINDS,
} from './kind-info';
import { PodUsageCache } from './pod-usage';
import { resolveKind, tailoredKind } from './resolve-kind';
import { stripSecret } from './secrets-strip';
import type { FrozenCluster, FrozenFacts } from './source-frozen';
import { liveCollection } from './source-live';

/** How watches retry and how long list snapshots are kept; tests shorten them. */
export interface WatchOptions extends Partial<BackoffOptions> {
  snapshotIdleMs?: number;
  snapshotsKept?: number;
  /** Event changes kept for the event watch's Last-Event-ID resume (events/feed.ts). */
  feedCapacity?: number;
  /**
   * How long a request waits for a cache's first list while pages keep arriving, before it
   * answers 503 cluster_syncing (resource-cache.ts; default 5 s).
   */
  fillWaitMs?: number;
}

/** How the event history hooks into a cluster's event cache (service/events/history/). */
export interface EventRecording {
  /** The observer of a cluster's new event cache; `current` reads the cache's entries now. */
  observer(clusterId: string, current: () => readonly EventEntry[]): CacheObserver<EventEntry> | undefined;
  /** True while recorded events must keep their watch running when nobody reads them. */
  keepsWatching(clusterId: string): boolean;
}

export interface ClusterOptions {
  timeoutMs: number;
  logger: Logger;
  /** How long a status answer stays fresh. */
  statusTtlMs?: number;
  watch?: WatchOptions;
  /** The clock `since` durations count back from. */
  now?: () => number;
  eventRecording?: EventRecording;
  /** Objects per list request (default 100); a snapshot, read from a local file, takes bigger ones. */
  listChunk?: number;
  /** The kinds served, fixed, instead of the discovery's: a snapshot's file holds these. */
  kinds?: readonly KindInfo[];
  /**
   * A snapshot: everything is read from it (its caches page through its file), nothing from the
   * network; the cluster is read-only and its durations count back from when it was taken.
   */
  frozen?: FrozenCluster;
}

const STATUS_PROBE_MAX_MS = 5_000;

/** One object of a snapshot, or the 404 the apiserver would answer for it. */
function frozenObject(
  frozen: FrozenCluster,
  kind: KindInfo,
  name: string,
  namespace: string | undefined,
  path: string,
): KubeObject {
  const found = frozen.object(kind, kind.namespaced ? (namespace ?? '') : '', name);
  if (!found) throw new KubeRequestError(404, { code: 404, reason: 'NotFound' }, `${path} not found`);
  return found;
}

/**
 * One monitored cluster: its client, its watch-backed caches and its health. Its data comes from a
 * source (source.ts): the live cluster through its client, or a snapshot's file (`frozen`), in
 * which case the client is closed from the start, so nothing can reach a network by mistake.
 */
export class ClusterConnection {
  readonly client: KubeClient;
  private readonly caches = new Map<string, ResourceCache<ResourceEntry>>();
  /** The kind of each cache in `caches`, by the same key. */
  private readonly cacheKinds = new Map<string, KindInfo>();
  private eventCache: ResourceCache<EventEntry> | null = null;
  /** Changes of the event cache, numbered, for the event watch; outlives a stopped cache. */
  readonly eventFeed: EventFeed;
  /** The kinds the cluster serves (discovery/): read on first need, then kept current. */
  readonly discovery: ClusterDiscovery;
  private statusCache: { at: number; value: Promise<{ status: ClusterStatus; version?: string }> } | null =
    null;
  private readonly backoff: BackoffOptions;
  private readonly usage: PodUsageCache;
  private readonly pins: Omit<PinOptions, 'now'>;
  private readonly fillWait: { fillWaitMs?: number };
  /** The KindInfo of each discovery read, made once per read. */
  private readonly kindsOf = new WeakMap<readonly DiscoveredKind[], readonly KindInfo[]>();

  constructor(
    readonly clusterId: string,
    readonly source: ContextSource,
    private readonly opts: ClusterOptions,
  ) {
    const w = opts.watch ?? {};
    this.backoff = {
      baseMs: w.baseMs ?? DEFAULT_BACKOFF.baseMs,
      capMs: w.capMs ?? DEFAULT_BACKOFF.capMs,
      stableAfterMs: w.stableAfterMs ?? DEFAULT_BACKOFF.stableAfterMs,
    };
    // A failing credential plugin is run again no faster than a failing watch reconnects, and a
    // run is given the cluster's timeout whichever request starts it.
    this.client = new KubeClient(source.config, source.server, {
      backoff: this.backoff,
      pluginTimeoutMs: opts.timeoutMs,
    });
    if (opts.frozen) void this.client.close();
    this.eventFeed = new EventFeed({ capacity: w.feedCapacity ?? DEFAULT_FEED_CAPACITY });
    this.fillWait = w.fillWaitMs === undefined ? {} : { fillWaitMs: w.fillWaitMs };
    this.pins = {
      idleMs: w.snapshotIdleMs ?? DEFAULT_PIN_OPTIONS.idleMs,
      max: w.snapshotsKept ?? DEFAULT_PIN_OPTIONS.max,
    };
    this.usage = new PodUsageCache(
      (namespace) => this.namespaceUsage(namespace),
      undefined,
      opts.now ?? Date.now,
    );
    this.discovery = new ClusterDiscovery({
      client: this.client,
      timeoutMs: opts.timeoutMs,
      logger: opts.logger,
      backoff: this.backoff,
      pins: this.pins,
      ...(opts.now ? { now: opts.now } : {}),
    });
  }

  get context(): string {
    return this.source.context;
  }

  /** A snapshot's facts (frozen at `takenAt`, read-only); undefined for a live cluster. */
  get snapshot(): FrozenFacts | undefined {
    return this.opts.frozen?.facts;
  }

  /** A snapshot, itself: its file serves its history, logs and metrics (source-frozen.ts). */
  get frozen(): FrozenCluster | undefined {
    return this.opts.frozen;
  }

  /** Nothing of it can be changed (a snapshot), its monitoring flags included. */
  get readOnly(): boolean {
    return this.opts.frozen !== undefined;
  }

  /** The cluster request timeout; long-lived log requests time only their first answer with it. */
  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  /** Every kind the cluster serves, from its discovery (or the fixed kinds of a snapshot). */
  async kinds(signal?: AbortSignal): Promise<readonly KindInfo[]> {
    if (this.opts.kinds) return this.opts.kinds;
    const view = await this.discovery.current(signal);
    let kinds = this.kindsOf.get(view.kinds);
    if (!kinds) {
      kinds = view.kinds.map(kindOfDiscovered);
      this.kindsOf.set(view.kinds, kinds);
    }
    return kinds;
  }

  /**
   * The kind a user-typed resourceType names (resolve-kind.ts), or a 400 invalid_resource_type.
   * The nine's own names need no discovery, so they answer as before whatever discovery does; a
   * refusal the nine alone can tell (a plural, a short name, a cluster-scoped kind under a
   * namespace) is still a 400 while discovery fails. `namespaced`: endpoints 3 and 4.
   */
  async kind(raw: string, signal?: AbortSignal, opts: { namespaced?: boolean } = {}): Promise<KindInfo> {
    const scope = { clusterId: this.clusterId, ...opts };
    const tailored = tailoredKind(raw);
    if (tailored && (tailored.namespaced || !opts.namespaced)) return tailored;
    let kinds: readonly KindInfo[];
    try {
      kinds = await this.kinds(signal);
    } catch (err) {
      try {
        resolveKind(raw, TAILORED_KINDS, scope);
      } catch (refused) {
        if (tailored || (refused instanceof ProblemError && refused.extensions.hint)) throw refused;
      }
      throw err;
    }
    return resolveKind(raw, kinds, scope);
  }

  /** The watch cache of any kind, started on first read; one per group and resource. */
  resources(kind: KindInfo): ResourceCache<ResourceEntry> {
    const key = kindKey(kind);
    let cache = this.caches.get(key);
    if (!cache) {
      const apiVersion = apiVersionOf(kind);
      const secret = isSecretKind(kind);
      cache = new ResourceCache<ResourceEntry>({
        source: this.opts.frozen
          ? this.opts.frozen.collection(kind)
          : liveCollection(this.client, `${kind.apiPath}/${kind.plural}`),
        // A Secret's values are dropped before the entry is made: nothing past here sees them.
        toEntry: (object: KubeObject) =>
          resourceEntry(secret ? stripSecret(object) : object, apiVersion, kind.kind),
        fingerprint: (e) => e.json,
        collection: new Collection(compareResources, { label: labelKeys }),
        timeoutMs: this.opts.timeoutMs,
        ...this.fillWait,
        logger: this.opts.logger,
        backoff: this.backoff,
        pins: this.pins,
        listChunk: this.opts.listChunk ?? 100,
        ...(this.opts.now ? { now: this.opts.now } : {}),
      });
      this.caches.set(key, cache);
      this.cacheKinds.set(key, kind);
    }
    return cache;
  }

  events(): ResourceCache<EventEntry> {
    if (this.eventCache) return this.eventCache;
    const collection = new Collection(compareEventEntries, EVENT_INDEXES);
    // A snapshot's events are its file's: never recorded into the app's history.
    const recording = this.opts.frozen
      ? undefined
      : this.opts.eventRecording?.observer(this.clusterId, () => collection.view().all);
    const observer = bothObservers(recording, this.eventFeed.observer());
    this.eventCache = new ResourceCache<EventEntry>({
      source: this.opts.frozen ? this.opts.frozen.events() : liveCollection(this.client, '/api/v1/events'),
      toEntry: (obj) => eventEntry(obj, this.clusterId),
      keyOf: eventKeyOf,
      fingerprint: eventFingerprint,
      collection,
      timeoutMs: this.opts.timeoutMs,
      ...this.fillWait,
      logger: this.opts.logger,
      backoff: this.backoff,
      pins: this.pins,
      listChunk: this.opts.listChunk ?? 100,
      ...(this.opts.now ? { now: this.opts.now } : {}),
      observer,
    });
    return this.eventCache;
  }

  /**
   * The kinds whose watch caches run now (started by a read and not stopped since): what can be
   * read at no cost to the cluster (counts, search). Starts nothing.
   */
  runningKinds(): KindInfo[] {
    return [...this.cacheKinds].filter(([key]) => this.caches.has(key)).map(([, kind]) => kind);
  }

  /** A kind's watch cache while one runs; never starts one. */
  runningCache(kind: KindInfo): ResourceCache<ResourceEntry> | undefined {
    return this.caches.get(kindKey(kind));
  }

  /**
   * While some cache of this cluster is stale: the earliest time its data was last known good, and
   * the failure behind it. Undefined while every started watch is live.
   */
  staleness(): { since: string; cause: ProblemError | undefined } | undefined {
    let found: { since: string; cause: ProblemError | undefined } | undefined;
    for (const cache of [...this.caches.values(), ...(this.eventCache ? [this.eventCache] : [])]) {
      const since = cache.staleSince;
      if (since !== undefined && (found === undefined || since < found.since))
        found = { since, cause: cache.staleCause };
    }
    return found;
  }

  /**
   * A single object as JSON text from its kind's watch cache while that cache is live: what a list
   * shows, at no cost to the cluster. Undefined when the cache cannot vouch for it; the caller then
   * asks the apiserver (getObject), so a detail view is never served stale data.
   */
  cachedObject(kind: KindInfo, name: string, namespace: string | undefined): string | undefined {
    const key = `${kind.namespaced ? (namespace ?? '') : ''}/${name}`;
    return this.caches.get(kindKey(kind))?.liveEntry(key)?.json;
  }

  /**
   * A single object of any kind, read from the apiserver (a snapshot's: from its file, never a
   * network); a Secret's values dropped as it is read.
   */
  async getObject(
    kind: KindInfo,
    name: string,
    namespace: string | undefined,
    signal: AbortSignal,
  ): Promise<KubeObject> {
    const ns = kind.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
    const path = `${kind.apiPath}${ns}/${kind.plural}/${encodeURIComponent(name)}`;
    const { frozen } = this.opts;
    try {
      const object = frozen
        ? frozenObject(frozen, kind, name, namespace, path)
        : await this.client.getJson<KubeObject>(path, { signal, timeoutMs: this.opts.timeoutMs });
      return isSecretKind(kind) ? stripSecret(object) : object;
    } catch (err) {
      const where = namespace ? ` in namespace ${namespace}` : '';
      throw toProblem(err, `${kind.singular} "${name}"${where}`);
    }
  }

  /**
   * A pod's usage from metrics.k8s.io, at most 10 s old (PodUsageCache); undefined when that API
   * is absent or slow, or the pod is too new to have figures.
   */
  podUsage(namespace: string, name: string): Promise<ResourceUsage | undefined> {
    return this.usage.get(namespace, name);
  }

  private async namespaceUsage(namespace: string): Promise<ReadonlyMap<string, ResourceUsage>> {
    type PodMetrics = {
      metadata?: { name?: string };
      containers?: Array<{ usage?: { cpu?: string; memory?: string } }>;
    };
    const path = `/apis/metrics.k8s.io/v1beta1/namespaces/${encodeURIComponent(namespace)}/pods`;
    const list = this.opts.frozen
      ? { items: this.opts.frozen.podMetrics(namespace) as PodMetrics[] }
      : await this.client.getJson<{ items?: PodMetrics[] }>(path, {
          timeoutMs: Math.min(this.opts.timeoutMs, 3_000),
        });
    const byName = new Map<string, ResourceUsage>();
    for (const item of list.items ?? []) {
      if (item.metadata?.name) byName.set(item.metadata.name, sumUsage(item.containers ?? []));
    }
    return byName;
  }

  status(): Promise<{ status: ClusterStatus; version?: string }> {
    const ttl = this.opts.statusTtlMs ?? 10_000;
    if (this.statusCache && Date.now() - this.statusCache.at < ttl) return this.statusCache.value;
    const value = this.probe();
    this.statusCache = { at: Date.now(), value };
    return value;
  }

  private async probe(): Promise<{ status: ClusterStatus; version?: string }> {
    const snapshot = this.opts.frozen?.facts;
    if (snapshot)
      return {
        status: 'snapshot',
        ...(snapshot.kubernetesVersion ? { version: snapshot.kubernetesVersion } : {}),
      };
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
      // A credential plugin that fails is a refusal of our credentials, not a network problem.
      if (err instanceof ProblemError && err.code === 'cluster_unauthorized')
        return { status: 'unauthorized' };
      if (!(err instanceof ProblemError)) this.opts.logger.warn({ err: String(err) }, 'status probe failed');
      return { status: 'unreachable' };
    }
  }

  /** Stops caches nobody read for `idleMs`, so an unused cluster costs no watches. */
  async sweep(idleMs: number): Promise<void> {
    await this.discovery.sweep(idleMs);
    const now = Date.now();
    for (const [key, cache] of this.caches) {
      if (now - cache.lastUsed > idleMs) {
        this.caches.delete(key);
        await cache.stop();
      }
    }
    // A recorded cluster keeps its event watch: the history must see what the cluster drops.
    const recorded = !this.opts.frozen && (this.opts.eventRecording?.keepsWatching(this.clusterId) ?? false);
    if (this.eventCache && !recorded && now - this.eventCache.lastUsed > idleMs) {
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
    await this.discovery.stop();
    await this.client.close();
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
