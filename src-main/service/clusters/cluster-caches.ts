/**
 * The watch caches of one cluster: one per kind (group and resource) and one of its events. Rules:
 * - A cache starts on its first read and is stopped by the idle sweep once nobody read it for the
 *   idle time (its watch ends); the next read starts a new one. Kinds nobody reads are never listed.
 * - A cache reads from the cluster's source: the live cluster through its client, or a snapshot's
 *   file (`frozen`), never both.
 * - A Secret's values are dropped before its entry is made: nothing past the cache sees them.
 * - A snapshot's events and objects are never recorded into the app's history. A recorded
 *   cluster's event cache, and a resource cache a recorder keeps watching (history/hooks.ts), are
 *   never swept: the history must see what the cluster drops.
 */
import type { KubeObject } from '../../../src-shared/contract/models';
import { Collection } from '../cache/collection';
import { compareResources, labelKeys, type ResourceEntry, resourceEntry } from '../cache/entries';
import type { PinOptions } from '../cache/list-pins';
import { type CacheObserver, ResourceCache } from '../cache/resource-cache';
import type { ProblemError } from '../errors';
import { type EventEntry, eventCacheParts } from '../events/entries';
import { bothObservers, type EventFeed } from '../events/feed';
import type { BackoffOptions } from '../kube/backoff';
import type { KubeClient } from '../kube/kube-client';
import type { Logger } from '../logger';
import { apiVersionOf, isSecretKind, type KindInfo, kindKey } from './kind-info';
import { stripSecret } from './secrets-strip';
import type { FrozenCluster } from './source-frozen';
import { liveCollection } from './source-live';

/** How the event history hooks into a cluster's event cache (service/events/history/). */
export interface EventRecording {
  /** The observer of a cluster's new event cache; `current` reads the cache's entries now. */
  observer(clusterId: string, current: () => readonly EventEntry[]): CacheObserver<EventEntry> | undefined;
  /** True while recorded events must keep their watch running when nobody reads them. */
  keepsWatching(clusterId: string): boolean;
}

/** How the recorders of issue 27 (history/hooks.ts) hear a cluster's resource caches. */
export interface ResourceRecording {
  /** The observer of a live cluster's new cache of `kind`, if anything records it. */
  observer(clusterId: string, kind: KindInfo): CacheObserver<ResourceEntry> | undefined;
  /** True while the cache of `kind` must keep its watch when nobody reads it. */
  keepsWatching(clusterId: string, kind: KindInfo): boolean;
}

export interface CacheSettings {
  clusterId: string;
  client: KubeClient;
  frozen: FrozenCluster | undefined;
  timeoutMs: number;
  fillWait: { fillWaitMs?: number };
  logger: Logger;
  backoff: BackoffOptions;
  pins: Omit<PinOptions, 'now'>;
  /** Objects per list request. */
  listChunk: number;
  now: (() => number) | undefined;
  eventRecording: EventRecording | undefined;
  resourceRecording: ResourceRecording | undefined;
  /** Changes of the event cache, numbered, for the event watch; outlives a stopped cache. */
  eventFeed: EventFeed;
}

export class ClusterCaches {
  private readonly caches = new Map<string, ResourceCache<ResourceEntry>>();
  /** The kind of each cache in `caches`, by the same key. */
  private readonly cacheKinds = new Map<string, KindInfo>();
  private eventCache: ResourceCache<EventEntry> | null = null;

  constructor(private readonly s: CacheSettings) {}

  /** The options every cache of this cluster shares. */
  private common() {
    const { s } = this;
    return {
      timeoutMs: s.timeoutMs,
      ...s.fillWait,
      logger: s.logger,
      backoff: s.backoff,
      pins: s.pins,
      listChunk: s.listChunk,
      ...(s.now ? { now: s.now } : {}),
    };
  }

  /** The watch cache of any kind, started on first read; one per group and resource. */
  resources(kind: KindInfo): ResourceCache<ResourceEntry> {
    const key = kindKey(kind);
    let cache = this.caches.get(key);
    if (!cache) {
      const apiVersion = apiVersionOf(kind);
      const secret = isSecretKind(kind);
      cache = new ResourceCache<ResourceEntry>({
        source: this.s.frozen
          ? this.s.frozen.collection(kind)
          : liveCollection(this.s.client, `${kind.apiPath}/${kind.plural}`),
        toEntry: (object: KubeObject) =>
          resourceEntry(secret ? stripSecret(object) : object, apiVersion, kind.kind),
        fingerprint: (e) => e.json,
        collection: new Collection(compareResources, { label: labelKeys }),
        ...this.common(),
        ...this.recordingOf(kind),
      });
      this.caches.set(key, cache);
      this.cacheKinds.set(key, kind);
    }
    return cache;
  }

  private recordingOf(kind: KindInfo): { observer?: CacheObserver<ResourceEntry> } {
    const { s } = this;
    const observer = s.frozen ? undefined : s.resourceRecording?.observer(s.clusterId, kind);
    return observer ? { observer } : {};
  }

  events(): ResourceCache<EventEntry> {
    if (this.eventCache) return this.eventCache;
    const { s } = this;
    const parts = eventCacheParts(s.clusterId);
    const recording = s.frozen
      ? undefined
      : s.eventRecording?.observer(s.clusterId, () => parts.collection.view().all);
    this.eventCache = new ResourceCache<EventEntry>({
      source: s.frozen ? s.frozen.events() : liveCollection(s.client, '/api/v1/events'),
      ...parts,
      ...this.common(),
      observer: bothObservers(recording, s.eventFeed.observer()),
    });
    return this.eventCache;
  }

  /** The kinds whose watch caches run now (started by a read and not stopped since). Starts nothing. */
  runningKinds(): KindInfo[] {
    return [...this.cacheKinds].filter(([key]) => this.caches.has(key)).map(([, kind]) => kind);
  }

  /** A kind's watch cache while one runs; never starts one. */
  running(kind: KindInfo): ResourceCache<ResourceEntry> | undefined {
    return this.caches.get(kindKey(kind));
  }

  /** While some cache is stale: the earliest time its data was last known good, and why. */
  staleness(): { since: string; cause: ProblemError | undefined } | undefined {
    let found: { since: string; cause: ProblemError | undefined } | undefined;
    for (const cache of [...this.caches.values(), ...(this.eventCache ? [this.eventCache] : [])]) {
      const since = cache.staleSince;
      if (since !== undefined && (found === undefined || since < found.since))
        found = { since, cause: cache.staleCause };
    }
    return found;
  }

  /** Stops the caches nobody read for `idleMs`. */
  async sweep(idleMs: number): Promise<void> {
    const now = Date.now();
    const { s } = this;
    for (const [key, cache] of this.caches) {
      const kind = this.cacheKinds.get(key);
      const kept =
        !s.frozen && kind !== undefined && (s.resourceRecording?.keepsWatching(s.clusterId, kind) ?? false);
      if (!kept && now - cache.lastUsed > idleMs) {
        this.caches.delete(key);
        await cache.stop();
      }
    }
    const recorded = !s.frozen && (s.eventRecording?.keepsWatching(s.clusterId) ?? false);
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
  }
}
