/**
 * Writes what the event caches see into the event history, off the request path.
 *
 * Rules: writes are batched and bounded in time per transaction, yielding to the event loop in
 * between; a category whose monitoring flag is off is not written; retention runs in small
 * batches; changes gather per cluster, the latest state of each event kept. A cluster is written
 * only while this replica holds its recorder lease (leases.ts): one writer per cluster across the
 * replicas; changes seen without it are dropped, and the cache's whole state is written again
 * once the lease is taken, so a takeover loses nothing the cluster still has and, the rows
 * being keyed by (cluster, event id), duplicates nothing.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { MonitoringFlags } from '../../../../src-shared/contract/models';
import type { CacheObserver } from '../../cache/resource-cache';
import type { Logger } from '../../logger';
import type { StorageBackend } from '../../storage/backend';
import type { EventEntry } from '../entries';
import { RecorderLeases } from './leases';
import type { ResolvedHistoryOptions } from './options';
import { HistoryStore } from './store';

/** Changes of one cluster not yet written. */
interface Pending {
  upserts: Map<string, EventEntry>;
  removals: Set<string>;
  /**
   * Events the cluster dropped before their first write reached the table (seen and dropped within
   * one flush, as a short --event-ttl does to events listed just before they age out): written,
   * then marked expired, or the history would never know them.
   */
  droppedUnwritten: Map<string, EventEntry>;
  /** Every entry after the latest completed list: what the table holds as present but is not, expired. */
  listed: readonly EventEntry[] | undefined;
}

const newPending = (): Pending => ({
  upserts: new Map(),
  removals: new Set(),
  droppedUnwritten: new Map(),
  listed: undefined,
});

/** Changes that make a flush start at once instead of after flushMs. */
const FLUSH_AT = 1_000;
/**
 * One transaction writes for about this long, then commits and lets the event loop run: a relist of
 * 100,000 events is then tens of transactions (one fsync each) and no request waits long behind it.
 */
const TX_BUDGET_MS = 50;
const PRUNE_BATCH = 1_000;
/** A flush that wrote this many rows is followed by a retention pass (the cap may be exceeded). */
const PRUNE_AFTER_ROWS = 10_000;

export interface RecorderDeps {
  /** The service's database, open already (storage/index.ts); its owner closes it after close. */
  backend: StorageBackend;
  options: ResolvedHistoryOptions;
  flags(clusterId: string): MonitoringFlags;
  logger: Logger;
  now: () => number;
}

/**
 * Writes what the event caches see into the event history, off the request path: changes gather
 * per cluster (latest state per event) and are written together every flushMs, or at once past
 * FLUSH_AT changes, in transactions of about TX_BUDGET_MS. A category whose monitoring flag is off
 * is not written. Retention runs every pruneEveryMs and after large flushes, in small batches.
 */
export class EventRecorder {
  private readonly pending = new Map<string, Pending>();
  /** Clusters whose event cache runs and has listed: the events they hold as present are known. */
  private readonly active = new Set<string>();
  private readonly current = new Map<string, () => readonly EventEntry[]>();
  /**
   * Clusters whose first list completed. Until then their changes wait: the first list of a large
   * cluster gets the event loop to itself, and the live list answers before the history is written.
   */
  private readonly listedOnce = new Set<string>();
  private readonly versions = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private readonly pruner: NodeJS.Timeout;
  private closed = false;
  private readonly store: HistoryStore;
  private readonly leases: RecorderLeases;
  /** Clusters whose changes were dropped for want of the lease: written whole once it is taken. */
  private readonly missed = new Set<string>();

  constructor(private readonly deps: RecorderDeps) {
    this.store = new HistoryStore(deps.backend);
    this.leases = new RecorderLeases({
      backend: deps.backend,
      retryMs: deps.options.leaseRetryMs,
      logger: deps.logger,
      onTaken: (clusterId) => {
        if (this.missed.delete(clusterId)) this.refill(clusterId);
      },
      onLost: (clusterId) => {
        this.pending.delete(clusterId);
        this.missed.add(clusterId);
      },
    });
    this.pruner = setInterval(() => void this.prune(), deps.options.pruneEveryMs);
    this.pruner.unref();
  }

  /** The cache observer of one cluster's events. */
  observer(clusterId: string, current: () => readonly EventEntry[]): CacheObserver<EventEntry> {
    this.current.set(clusterId, current);
    return {
      upserted: (entry) => {
        const p = this.pendingOf(clusterId);
        p.removals.delete(entry.eventId);
        p.droppedUnwritten.delete(entry.eventId);
        p.upserts.set(entry.eventId, entry);
        this.schedule(p, clusterId);
      },
      removed: (key) => {
        const p = this.pendingOf(clusterId);
        const unwritten = p.upserts.get(key);
        if (unwritten) p.droppedUnwritten.set(key, unwritten);
        p.upserts.delete(key);
        p.removals.add(key);
        this.schedule(p, clusterId);
      },
      listed: (entries) => {
        this.active.add(clusterId);
        this.listedOnce.add(clusterId);
        this.pendingOf(clusterId).listed = entries;
        this.schedule();
        void this.leases.want(clusterId);
      },
      stopped: () => {
        this.active.delete(clusterId);
        this.current.delete(clusterId);
        // What it saw last is written first; a cluster nobody watches here is another replica's to record.
        void this.flush().then(() =>
          this.active.has(clusterId) ? undefined : this.leases.unwant(clusterId),
        );
      },
    };
  }

  /**
   * A monitoring flag changed: a category turned back on is written again from the cache (what
   * happened meanwhile was not recorded, and what the cluster dropped meanwhile is marked expired).
   */
  resync(clusterId: string): void {
    this.refill(clusterId);
  }

  /** The cache's whole state written again, and what the table holds as present but is not, expired. */
  private refill(clusterId: string): void {
    const current = this.current.get(clusterId);
    if (!current || !this.active.has(clusterId)) return;
    const entries = current();
    const p = this.pendingOf(clusterId);
    for (const e of entries) if (!p.removals.has(e.eventId)) p.upserts.set(e.eventId, e);
    p.listed = entries;
    this.schedule();
  }

  /** Changes to a cluster's rows so far: answers computed from the table are valid while it stays. */
  version(clusterId: string): number {
    return this.versions.get(clusterId) ?? 0;
  }

  /** Whether this replica writes the cluster's history (holds its recorder lease). */
  records(clusterId: string): boolean {
    return this.leases.holds(clusterId);
  }

  /** The clusters this replica records, sorted. */
  recordingClusters(): string[] {
    return this.leases.clusters();
  }

  /**
   * Gives every recorder lease back at once (SIGTERM), so another replica records from now on;
   * nothing more is written here.
   */
  async releaseLeases(): Promise<void> {
    // On SQLite one process is the whole service: there is nobody to hand the recording to, and
    // given back, what is still pending would not be written by close (nor by anyone until the
    // next start; events the cluster drops meanwhile would never be kept). So it keeps them.
    // On PostgreSQL they go back at once, as the issue asks: the next holder writes its cache's
    // whole state when it takes one, so nothing the cluster still has is lost.
    if (this.deps.backend.dialect === 'sqlite') return;
    await this.leases.releaseAll();
  }

  /** Resolves once every change seen so far is written (requests call it before reading the table). */
  flush(): Promise<void> {
    this.chain = this.chain
      .then(() => this.write())
      .catch((err: unknown) => this.deps.logger.warn({ err: String(err) }, 'event history: a flush failed'));
    return this.chain;
  }

  /** The table (read it after `flush` to see every change so far). */
  table(): HistoryStore {
    return this.store;
  }

  /** Writes what is pending, then stops; the caller closes the database afterwards. */
  async close(): Promise<void> {
    clearInterval(this.pruner);
    clearTimeout(this.timer);
    await this.flush();
    await this.chain;
    this.closed = true;
    await this.leases.releaseAll();
  }

  private pendingOf(clusterId: string): Pending {
    let p = this.pending.get(clusterId);
    if (!p) {
      p = newPending();
      this.pending.set(clusterId, p);
    }
    return p;
  }

  private schedule(p?: Pending, clusterId?: string): void {
    if (this.closed) return;
    if (p && clusterId && this.listedOnce.has(clusterId) && p.upserts.size + p.removals.size >= FLUSH_AT) {
      clearTimeout(this.timer);
      this.timer = undefined;
      void this.flush();
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.deps.options.flushMs);
    this.timer.unref();
  }

  private async write(): Promise<void> {
    const { store } = this;
    if (this.pending.size === 0) return;
    let written = 0;
    for (const [clusterId, p] of [...this.pending]) {
      if (!this.listedOnce.has(clusterId)) continue;
      this.pending.delete(clusterId);
      await this.leases.settled(clusterId);
      if (!this.leases.holds(clusterId)) {
        this.missed.add(clusterId);
        continue;
      }
      try {
        written += await this.writeCluster(store, clusterId, p);
      } catch (err) {
        this.deps.logger.warn({ clusterId, err: String(err) }, 'event history: a write failed');
      }
      this.versions.set(clusterId, this.version(clusterId) + 1);
    }
    if (written >= PRUNE_AFTER_ROWS) void this.prune();
  }

  private async writeCluster(store: HistoryStore, clusterId: string, p: Pending): Promise<number> {
    const flags = this.deps.flags(clusterId);
    const recorded = (e: EventEntry) =>
      e.category === 'resource' ? flags.resourceEventsEnabled : flags.systemEventsEnabled;
    const gone: string[] = [];
    if (p.listed) {
      const present = new Set(p.listed.map((e) => e.eventId));
      for (const id of await store.presentIds(clusterId))
        if (!present.has(id) && !p.upserts.has(id)) gone.push(id);
    }
    gone.push(...p.removals);
    // The dropped-but-unwritten ones first: their rows must exist before they are marked expired.
    const upserts = [...p.droppedUnwritten.values(), ...p.upserts.values()].filter(recorded);
    let i = 0;
    let j = 0;
    while (i < gone.length || j < upserts.length) {
      // A lease given back (SIGTERM) or lost mid-way: the rest is the next holder's to write.
      if (!this.leases.holds(clusterId)) {
        this.missed.add(clusterId);
        return 0;
      }
      const now = this.deps.now();
      const ok = await store.backend.transaction('event history', async (tx) => {
        const start = performance.now();
        while (performance.now() - start < TX_BUDGET_MS && (i < gone.length || j < upserts.length)) {
          if (j < upserts.length) {
            await store.upsert(tx, clusterId, upserts.slice(j, j + 100), now);
            j += 100;
          } else {
            await store.markExpired(tx, clusterId, gone.slice(i, i + 100), now);
            i += 100;
          }
        }
      });
      if (!ok) return 0;
      await yieldToEventLoop();
    }
    return gone.length + upserts.length;
  }

  /** Retention: by age, then by the per-cluster cap; the oldest first, in small transactions. */
  async prune(): Promise<void> {
    this.chain = this.chain
      .then(() => this.pruneNow())
      .catch((err: unknown) =>
        this.deps.logger.warn({ err: String(err) }, 'event history: retention failed'),
      );
    return this.chain;
  }

  private async pruneNow(): Promise<void> {
    const { store } = this;
    if (store.backend.isSealed) return;
    for (const clusterId of await store.clusters()) {
      // On a shared database only the cluster's recorder prunes it; a cluster nobody records is
      // pruned by whichever replica takes its lease for the moment.
      let sealed = false;
      await this.leases.whileHeld(clusterId, async () => {
        sealed = !(await this.pruneCluster(clusterId));
      });
      if (sealed) return;
    }
  }

  /** False when the database was sealed (the service closes): nothing more is pruned. */
  private async pruneCluster(clusterId: string): Promise<boolean> {
    const { store } = this;
    const { retentionMs, maxPerCluster } = this.deps.options;
    // By age, events the cluster still has stay while it has them: they are the present, not
    // history. A cluster not watched now has no known present, so its old rows go like expired
    // ones (a later list records again whatever the cluster still has).
    const expiredOnly = this.active.has(clusterId);
    const beforeMs = this.deps.now() - retentionMs;
    let removed = 0;
    for (;;) {
      let n = 0;
      if (
        !(await store.backend.transaction('event retention', async (tx) => {
          n = await store.pruneOldest(tx, clusterId, { beforeMs, expiredOnly, batch: PRUNE_BATCH });
        }))
      )
        return false;
      removed += n;
      if (n < PRUNE_BATCH) break;
      await yieldToEventLoop();
    }
    // The cap counts every row but removes expired ones only: what the cluster has is its present.
    let excess = (await store.total(clusterId)) - maxPerCluster;
    while (excess > 0) {
      let n = 0;
      const batch = Math.min(PRUNE_BATCH, excess);
      if (
        !(await store.backend.transaction('event retention', async (tx) => {
          n = await store.pruneOldest(tx, clusterId, { expiredOnly: true, batch });
        }))
      )
        return false;
      if (n === 0) break;
      removed += n;
      excess -= n;
      await yieldToEventLoop();
    }
    if (removed > 0) {
      this.versions.set(clusterId, this.version(clusterId) + 1);
      this.deps.logger.debug({ clusterId, removed }, 'event history pruned');
    }
    return true;
  }
}
