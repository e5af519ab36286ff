/**
 * One cluster as Skiff holds it: its client, its kinds, its watch caches (cluster-caches.ts), its
 * health (cluster-status.ts) and its pods' usage (pod-usage.ts). Rules:
 * - Its data comes from one source: the live cluster through its client, or a snapshot's file
 *   (`frozen`), in which case the client is closed from the start, so nothing can reach a network
 *   by mistake, and the cluster is read-only.
 * - Nothing is asked of the cluster until a request reads it; the idle sweep stops what nobody read.
 * - A single read is served from a live cache only when the cache can vouch for it; otherwise from
 *   the apiserver, so a detail view is never stale. A Secret's values are dropped as it is read.
 * - A kind the nine tailored ones name resolves without discovery, whatever discovery does.
 */
import type { KubeObject, ResourceUsage } from '../../../src-shared/contract/models';
import type { ResourceEntry } from '../cache/entries';
import { DEFAULT_PIN_OPTIONS } from '../cache/list-pins';
import type { ResourceCache } from '../cache/resource-cache';
import { ProblemError } from '../errors';
import type { EventEntry } from '../events/entries';
import { DEFAULT_FEED_CAPACITY, EventFeed } from '../events/feed';
import { type BackoffOptions, DEFAULT_BACKOFF } from '../kube/backoff';
import { KubeClient, KubeRequestError, toProblem } from '../kube/kube-client';
import type { ContextSource } from '../kube/kubeconfig';
import type { Logger } from '../logger';
import { ClusterCaches, type EventRecording, type ResourceRecording } from './cluster-caches';
import { type ProbedStatus, StatusProbe } from './cluster-status';
import { ClusterDiscovery } from './discovery/cluster-discovery';
import type { DiscoveredKind } from './discovery/names';
import { isSecretKind, type KindInfo, kindOfDiscovered, TAILORED_KINDS } from './kind-info';
import { metricsUsageReader, PodUsageCache } from './pod-usage';
import { resolveKind, tailoredKind } from './resolve-kind';
import { stripSecret } from './secrets-strip';
import type { FrozenCluster, FrozenFacts } from './source-frozen';

export type { EventRecording, ResourceRecording } from './cluster-caches';

/** How watches retry and how long pinned list views are kept (cache/list-pins.ts); tests shorten them. */
export interface WatchOptions extends Partial<BackoffOptions> {
  /** How long a list walk's pinned view is kept after its last page. */
  pinIdleMs?: number;
  /** How many pinned views one cache keeps at most. */
  pinsKept?: number;
  /** Event changes kept for the event watch's Last-Event-ID resume (events/feed.ts). */
  feedCapacity?: number;
  /**
   * How long a request waits for a cache's first list while pages keep arriving, before it
   * answers 503 cluster_syncing (cache/resource-cache.ts; default 5 s).
   */
  fillWaitMs?: number;
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
  /** The recorders of object changes and kept logs (history/hooks.ts). */
  resourceRecording?: ResourceRecording;
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

/** One monitored cluster (see the rules above); its data comes from a source (cache/source.ts). */
export class ClusterConnection {
  readonly client: KubeClient;
  private readonly caches: ClusterCaches;
  /** Changes of the event cache, numbered, for the event watch; outlives a stopped cache. */
  readonly eventFeed: EventFeed;
  /** The kinds the cluster serves (discovery/): read on first need, then kept current. */
  readonly discovery: ClusterDiscovery;
  private readonly probe: StatusProbe;
  private readonly usage: PodUsageCache;
  /** The KindInfo of each discovery read, made once per read. */
  private readonly kindsOf = new WeakMap<readonly DiscoveredKind[], readonly KindInfo[]>();

  constructor(
    readonly clusterId: string,
    readonly source: ContextSource,
    private readonly opts: ClusterOptions,
  ) {
    const w = opts.watch ?? {};
    const backoff: BackoffOptions = {
      baseMs: w.baseMs ?? DEFAULT_BACKOFF.baseMs,
      capMs: w.capMs ?? DEFAULT_BACKOFF.capMs,
      stableAfterMs: w.stableAfterMs ?? DEFAULT_BACKOFF.stableAfterMs,
    };
    // A failing credential plugin is run again no faster than a failing watch reconnects, and a
    // run is given the cluster's timeout whichever request starts it.
    this.client = new KubeClient(source.config, source.server, {
      backoff,
      pluginTimeoutMs: opts.timeoutMs,
    });
    if (opts.frozen) void this.client.close();
    this.eventFeed = new EventFeed({ capacity: w.feedCapacity ?? DEFAULT_FEED_CAPACITY });
    const pins = {
      idleMs: w.pinIdleMs ?? DEFAULT_PIN_OPTIONS.idleMs,
      max: w.pinsKept ?? DEFAULT_PIN_OPTIONS.max,
    };
    this.caches = new ClusterCaches({
      clusterId,
      client: this.client,
      frozen: opts.frozen,
      timeoutMs: opts.timeoutMs,
      fillWait: w.fillWaitMs === undefined ? {} : { fillWaitMs: w.fillWaitMs },
      logger: opts.logger,
      backoff,
      pins,
      listChunk: opts.listChunk ?? 100,
      now: opts.now,
      eventRecording: opts.eventRecording,
      resourceRecording: opts.resourceRecording,
      eventFeed: this.eventFeed,
    });
    this.probe = new StatusProbe({
      client: this.client,
      timeoutMs: opts.timeoutMs,
      logger: opts.logger,
      ttlMs: opts.statusTtlMs,
      snapshot: opts.frozen?.facts,
    });
    this.usage = new PodUsageCache(
      metricsUsageReader(this.client, opts.timeoutMs, opts.frozen),
      undefined,
      opts.now ?? Date.now,
    );
    this.discovery = new ClusterDiscovery({
      client: this.client,
      timeoutMs: opts.timeoutMs,
      logger: opts.logger,
      backoff,
      pins,
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
    return this.caches.resources(kind);
  }

  /** The watch cache of the cluster's events, started on first read. */
  events(): ResourceCache<EventEntry> {
    return this.caches.events();
  }

  /**
   * The kinds whose watch caches run now (started by a read and not stopped since): what can be
   * read at no cost to the cluster (counts, search). Starts nothing.
   */
  runningKinds(): KindInfo[] {
    return this.caches.runningKinds();
  }

  /** A kind's watch cache while one runs; never starts one. */
  runningCache(kind: KindInfo): ResourceCache<ResourceEntry> | undefined {
    return this.caches.running(kind);
  }

  /**
   * While some cache of this cluster is stale: the earliest time its data was last known good, and
   * the failure behind it. Undefined while every started watch is live.
   */
  staleness(): { since: string; cause: ProblemError | undefined } | undefined {
    return this.caches.staleness();
  }

  /**
   * A single object as JSON text from its kind's watch cache while that cache is live: what a list
   * shows, at no cost to the cluster. Undefined when the cache cannot vouch for it; the caller then
   * asks the apiserver (getObject), so a detail view is never served stale data.
   */
  cachedObject(kind: KindInfo, name: string, namespace: string | undefined): string | undefined {
    const key = `${kind.namespaced ? (namespace ?? '') : ''}/${name}`;
    return this.caches.running(kind)?.liveEntry(key)?.json;
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

  /** Its health as the cluster list shows it (cluster-status.ts). */
  status(): Promise<ProbedStatus> {
    return this.probe.status();
  }

  /** Stops caches nobody read for `idleMs`, so an unused cluster costs no watches. */
  async sweep(idleMs: number): Promise<void> {
    await this.discovery.sweep(idleMs);
    await this.caches.sweep(idleMs);
  }

  async close(): Promise<void> {
    await this.caches.close();
    await this.discovery.stop();
    await this.client.close();
  }
}
