/**
 * A watch-backed cache of one collection (see ResourceCache below). Rules: reads never touch the
 * apiserver; after a failure the last known data keeps serving, marked stale; until the first list
 * completes requests wait by first-list.ts's rules; a walk's pages come from one pinned view
 * (list-pins.ts); observers hear every change after it is applied.
 */
import type { KubeObject } from '../../../src-shared/contract/models';
import { ProblemError } from '../errors';
import type { BackoffOptions } from '../kube/backoff';
import { toProblem } from '../kube/kube-client';
import type { Logger } from '../logger';
import type { Collection, CollectionView, Keyed } from './collection';
import { keyOf } from './entries';
import { FirstListWaiters, type ListProgress } from './first-list';
import { Informer, type InformerSink } from './informer';
import { ListPins, type PinOptions } from './list-pins';
import type { ListerWatcher } from './source';

/**
 * Told of every change a cache applies, after it applied it (the event history records through
 * this). `listed` follows each completed list with every entry the cache then holds.
 */
export interface CacheObserver<E> {
  /** `previous` is the entry the key held before, if any (the event watch tells ADDED from MODIFIED). */
  upserted(entry: E, previous?: E): void;
  removed(key: string, previous?: E): void;
  listed(entries: readonly E[]): void;
  stopped(): void;
}

export interface CacheOptions<E extends Keyed> {
  /** Where the collection is listed and watched (source.ts); its path names it in logs and problems. */
  source: ListerWatcher;
  /** What is kept of each object; it may throw for an object it cannot read (that one is skipped). */
  toEntry: (obj: KubeObject) => E;
  /** The key of an object, as its entry's key; namespace/name unless given. */
  keyOf?: (obj: KubeObject) => string;
  /** Two entries with the same fingerprint are the same; a relist keeps the old one then. */
  fingerprint: (entry: E) => string;
  collection: Collection<E>;
  /** A waiting request's bound on the cluster's silence: no page for this long is a 504. */
  timeoutMs: number;
  /**
   * How long a request waits for a first list that is making progress; past it the request answers
   * 503 cluster_syncing with the progress and Retry-After (first-list.ts).
   */
  fillWaitMs?: number;
  logger: Logger;
  backoff: BackoffOptions;
  pins: Omit<PinOptions, 'now'>;
  listChunk?: number;
  now?: () => number;
  observer?: CacheObserver<E>;
}

/** One read of a cache: a consistent view, the token that pins it, and whether it is stale. */
export interface CacheRead<E> {
  view: CollectionView<E>;
  token: string;
  /** The instant durations such as `since=15m` count back from, fixed for a whole walk. */
  asOf: number;
  /** RFC 3339: when the data was last known to match the cluster; absent while the watch is live. */
  staleSince?: string;
}

/**
 * A watch-backed cache of one collection of one cluster: an own informer fills a Collection of
 * lean entries from the collection's source (a live cluster, a snapshot's file, a test feed). Reads never touch the apiserver. After a failure the last known data keeps serving,
 * marked stale with the time it was last known good, while the informer retries with backoff.
 * Until the first list completes there is nothing to serve: requests wait for it while it makes
 * progress, up to a bound, then answer 503 with how far it got (acquire).
 */
export class ResourceCache<E extends Keyed> {
  private informer: Informer | null = null;
  private staging: Map<string, E> | null = null;
  private synced = false;
  private staleSinceMs: number | null = null;
  private lastError: unknown = null;
  /** Requests waiting for the first list. */
  private readonly first: FirstListWaiters;
  private readonly pins: ListPins<CollectionView<E>>;
  private readonly now: () => number;
  lastUsed = Date.now();

  constructor(private readonly opts: CacheOptions<E>) {
    this.now = opts.now ?? Date.now;
    this.pins = new ListPins({ ...opts.pins, now: this.now });
    this.first = new FirstListWaiters({
      path: opts.source.path,
      timeoutMs: opts.timeoutMs,
      ...(opts.fillWaitMs !== undefined ? { fillWaitMs: opts.fillWaitMs } : {}),
    });
  }

  /**
   * Starts the cache if needed and waits until it has listed once, by first-list.ts's rules: while
   * pages keep arriving, then 503 cluster_syncing; 504 when the cluster goes silent; a failed
   * attempt's own problem.
   */
  async acquire(signal?: AbortSignal): Promise<void> {
    this.lastUsed = Date.now();
    if (this.synced) return;
    if (!this.informer) this.start();
    // Nobody has data yet and the last attempt failed: a caller waiting is a reason to try now.
    else if (this.lastError !== null) this.informer.retryNow();
    await this.first.wait(signal);
  }

  /** The first list's progress while the cache has never synced and a list is under way. */
  get listProgress(): ListProgress | undefined {
    return this.first.progress;
  }

  /** The current view, or the one `token` pinned (410 snapshot_expired when gone). */
  read(token?: string): CacheRead<E> {
    this.lastUsed = Date.now();
    let read: { view: CollectionView<E>; token: string; asOf: number };
    if (token === undefined) {
      const view = this.opts.collection.view();
      read = { view, token: this.pins.pin(view).token, asOf: this.now() };
    } else {
      const pinned = this.pins.resolve(token);
      read = { view: pinned.view, token, asOf: pinned.pinnedAt };
    }
    const staleSince = this.staleSince;
    return staleSince ? { ...read, staleSince } : read;
  }

  /**
   * The entry under `key` while this cache is live (listed, and its watch unbroken), so a single
   * read is as fresh as a list; undefined when the cache cannot vouch for it: not started, not
   * synced, stale, or no such entry yet (a watch a few milliseconds behind a create).
   */
  liveEntry(key: string): E | undefined {
    if (this.informer === null || !this.synced || this.staleSinceMs !== null) return undefined;
    this.lastUsed = Date.now();
    return this.opts.collection.get(key);
  }

  /** RFC 3339 time the data was last known good, while the watch is broken; else undefined. */
  get staleSince(): string | undefined {
    return this.staleSinceMs === null ? undefined : new Date(this.staleSinceMs).toISOString();
  }

  /**
   * Never synced in this run, and the last attempt failed: the failure as the API's problem. A
   * reader that has another source (the event history) answers from it at once rather than wait
   * for one more attempt; the informer keeps retrying with its backoff meanwhile.
   */
  get neverSyncedCause(): unknown {
    if (this.synced || this.lastError === null || this.informer === null) return undefined;
    return toProblem(this.lastError, this.opts.source.path);
  }

  /** The failure that made the cache stale, as the API's problem (for the cluster's status). */
  get staleCause(): ProblemError | undefined {
    if (this.staleSinceMs === null) return undefined;
    const problem = toProblem(this.lastError, this.opts.source.path);
    return problem instanceof ProblemError ? problem : undefined;
  }

  async stop(): Promise<void> {
    const informer = this.informer;
    this.informer = null;
    await informer?.stop();
    if (informer) this.opts.observer?.stopped();
  }

  private start(): void {
    const { opts } = this;
    this.informer = new Informer({
      source: opts.source,
      listChunk: opts.listChunk ?? 100,
      timeoutMs: opts.timeoutMs,
      backoff: opts.backoff,
      logger: opts.logger,
      sink: this.sink(),
      onSynced: () => this.onSynced(),
      onFailure: (err) => this.onFailure(err),
      onListPage: (items, remaining) => this.onListPage(items, remaining),
    });
    this.informer.start();
  }

  private onListPage(items: number, remaining: number | undefined): void {
    if (!this.synced) this.first.page(items, remaining);
  }

  private onSynced(): void {
    if (this.staleSinceMs !== null) this.opts.logger.info({ path: this.opts.source.path }, 'watch recovered');
    this.synced = true;
    this.staleSinceMs = null;
    this.lastError = null;
    this.first.listed();
  }

  private onFailure(err: unknown): void {
    this.lastError = err;
    if (this.synced && this.staleSinceMs === null) {
      this.staleSinceMs = this.now();
      this.opts.logger.warn(
        { path: this.opts.source.path, err: String(err) },
        'watch failed; serving cached data marked stale, and retrying',
      );
    }
    if (this.synced) return;
    this.first.failed(toProblem(err, this.opts.source.path));
  }

  private keyOf(obj: KubeObject): string {
    return (this.opts.keyOf ?? keyOf)(obj);
  }

  private entryOf(obj: KubeObject): E | undefined {
    try {
      return this.opts.toEntry(obj);
    } catch (err) {
      this.opts.logger.warn(
        { path: this.opts.source.path, key: this.keyOf(obj), err: String(err) },
        'unreadable object',
      );
      return undefined;
    }
  }

  private sink(): InformerSink {
    const collection = this.opts.collection;
    const observer = this.opts.observer;
    const upsert = (entry: E) => {
      const previous = collection.get(entry.key);
      collection.upsert(entry);
      observer?.upserted(entry, previous);
    };
    const remove = (key: string) => {
      const previous = collection.get(key);
      collection.delete(key);
      observer?.removed(key, previous);
    };
    return {
      beginList: () => {
        // The first list fills the collection directly; a relist stages and swaps at the end.
        this.staging = collection.size === 0 ? null : new Map();
      },
      listed: (obj) => {
        const entry = this.entryOf(obj);
        if (!entry) return;
        if (this.staging) this.staging.set(entry.key, entry);
        else upsert(entry);
      },
      endList: () => {
        const staged = this.staging;
        this.staging = null;
        if (staged) {
          for (const key of [...collection.keys()]) {
            if (staged.has(key)) continue;
            remove(key);
          }
          for (const entry of staged.values()) {
            const old = collection.get(entry.key);
            if (!old || this.opts.fingerprint(old) !== this.opts.fingerprint(entry)) upsert(entry);
          }
        }
        observer?.listed(collection.view().all);
      },
      abortList: () => {
        this.staging = null;
      },
      upsert: (obj) => {
        const entry = this.entryOf(obj);
        if (entry) upsert(entry);
      },
      remove: (obj) => {
        remove(this.keyOf(obj));
      },
    };
  }
}
