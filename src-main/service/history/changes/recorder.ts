/**
 * Writes what the resource caches of live clusters see into change_history, off the request path.
 *
 * Rules:
 * - A kind's rows are made only once its cache has listed and its chain is reconciled with the
 *   table (reconcile.ts): the first sight of an object stores the whole object (`seen`, or
 *   `created` when it was made after recording of its kind began); after a restart or a lease
 *   takeover an object whose resourceVersion moved gets an `updated` row with the whole object
 *   and the patch from its rebuilt previous version, and one gone meanwhile a `deleted` row.
 * - After that, each ADDED is `created`, each MODIFIED `updated` (not recorded when its patch is
 *   empty, heartbeats aside, except a Secret, whose values move unseen), each DELETED `deleted`;
 *   `created` and `deleted` carry the whole object; an `updated` carries it again after
 *   `wholeEvery` patch-only rows (and on an object's first change after a reconcile).
 * - JSON is parsed once per version seen; only objects that changed are diffed.
 * - Writes are batched per cluster, bounded in time per transaction, yielding between; each
 *   committed batch bumps the cluster's version and is announced on CHANGES_CHANNEL.
 * - One writer per cluster across replicas: the holder of its lease (events/history/leases.ts,
 *   key changesLeaseKey). Rows made without it are dropped and the cluster is reconciled again
 *   once the lease is taken, so a takeover loses no version the cluster still has.
 * - Retention runs every pruneEveryMs, by age then by the per-cluster cap, in small batches
 *   (store.ts keeps every surviving version rebuildable).
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ResourceEntry } from '../../cache/entries';
import type { CacheObserver } from '../../cache/resource-cache';
import { type KindInfo, kindKey } from '../../clusters/kind-info';
import { RecorderLeases } from '../../events/history/leases';
import type { Logger } from '../../logger';
import type { StorageBackend } from '../../storage/backend';
import { versionOf } from './diff';
import { CHANGES_CHANNEL, changesLeaseKey, type ResolvedChangeOptions } from './options';
import { reconcile } from './reconcile';
import { pruneCluster } from './retention';
import { changeRow, upsertRows } from './rows';
import { type ChangeRow, ChangeStore } from './store';

/** Where one recorded kind of one cluster is. */
export interface KindState {
  readonly clusterId: string;
  readonly kind: KindInfo;
  readonly kindKey: string;
  /** When this process began recording the kind (what `created` is told from at a first start). */
  readonly startedMs: number;
  /** The cache's current entries. */
  readonly live: Map<string, ResourceEntry>;
  /**
   * waiting: not listed yet, or its chain must be reconciled with the table (no rows made);
   * reconciling: rows made go to `buffer`, after the reconcile's own; live: rows go out as made.
   */
  phase: 'waiting' | 'reconciling' | 'live';
  /** The cache has completed a list: its entries are the cluster's. */
  listed: boolean;
  buffer: ChangeRow[];
  /** Patch-only rows since the object's last whole object; absent: unknown (the next is whole). */
  readonly sinceWhole: Map<string, number>;
}

const FLUSH_AT = 1_000;
const TX_BUDGET_MS = 50;

export interface ChangeRecorderDeps {
  backend: StorageBackend;
  options: ResolvedChangeOptions;
  logger: Logger;
  now: () => number;
}

export class ChangeRecorder {
  readonly store: ChangeStore;
  private readonly states = new Map<string, KindState>();
  private readonly pending = new Map<string, ChangeRow[]>();
  private readonly versions = new Map<string, number>();
  private readonly leases: RecorderLeases;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private readonly pruner: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly deps: ChangeRecorderDeps) {
    this.store = new ChangeStore(deps.backend);
    this.leases = new RecorderLeases({
      backend: deps.backend,
      retryMs: deps.options.leaseRetryMs,
      logger: deps.logger,
      keyOf: changesLeaseKey,
      label: 'change history',
      onTaken: () => this.schedule(),
      onLost: (clusterId) => this.drop(clusterId),
    });
    this.pruner = setInterval(() => void this.prune(), deps.options.pruneEveryMs);
    this.pruner.unref();
  }

  /** The observer of one live cluster's cache of `kind`. */
  observer(clusterId: string, kind: KindInfo): CacheObserver<ResourceEntry> {
    const key = `${clusterId}\u0000${kindKey(kind)}`;
    const state: KindState = {
      clusterId,
      kind,
      kindKey: kindKey(kind),
      startedMs: this.deps.now(),
      live: new Map(),
      phase: 'waiting',
      listed: false,
      buffer: [],
      sinceWhole: new Map(),
    };
    this.states.set(key, state);
    return {
      upserted: (entry, previous) => {
        state.live.set(entry.key, entry);
        if (state.phase !== 'waiting')
          this.made(state, upsertRows(state, entry, previous, this.deps.options.wholeEvery, this.deps.now()));
      },
      removed: (k, previous) => {
        state.live.delete(k);
        state.sinceWhole.delete(k);
        if (state.phase !== 'waiting' && previous) {
          const v = versionOf(previous.json, state.kindKey);
          this.made(state, [changeRow(state, 'deleted', v, undefined, [], this.deps.now())]);
        }
      },
      listed: (entries) => {
        // A relist told its changes through upserted/removed already; the map is made whole again.
        state.live.clear();
        for (const e of entries) state.live.set(e.key, e);
        state.listed = true;
        void this.leases.want(clusterId);
        this.schedule();
      },
      stopped: () => {
        if (this.states.get(key) === state) this.states.delete(key);
        void this.flush().then(() => (this.watching(clusterId) ? undefined : this.leases.unwant(clusterId)));
      },
    };
  }

  /** Committed batches of the cluster's rows so far (pruning too): memoised totals stay valid while it stays. */
  version(clusterId: string): number {
    return this.versions.get(clusterId) ?? 0;
  }

  /** Whether this replica writes the cluster's changes. */
  records(clusterId: string): boolean {
    return this.leases.holds(clusterId);
  }

  /** Resolves once every change seen so far is written. */
  flush(): Promise<void> {
    this.chain = this.chain
      .then(() => this.write())
      .catch((err: unknown) => this.deps.logger.warn({ err: String(err) }, 'change history: a flush failed'));
    return this.chain;
  }

  /** Writes what is pending, then stops. */
  async close(): Promise<void> {
    clearInterval(this.pruner);
    clearTimeout(this.timer);
    await this.flush();
    this.closed = true;
    await this.leases.releaseAll();
  }

  private watching(clusterId: string): boolean {
    for (const s of this.states.values()) if (s.clusterId === clusterId) return true;
    return false;
  }

  /** The lease is gone: what was made is the next holder's to write; reconcile when taken again. */
  private drop(clusterId: string): void {
    this.pending.delete(clusterId);
    for (const s of this.states.values())
      if (s.clusterId === clusterId) {
        s.phase = 'waiting';
        s.buffer = [];
      }
  }

  private made(state: KindState, rows: ChangeRow[]): void {
    if (rows.length === 0) return;
    if (state.phase === 'reconciling') {
      state.buffer.push(...rows);
      return;
    }
    let p = this.pending.get(state.clusterId);
    if (!p) {
      p = [];
      this.pending.set(state.clusterId, p);
    }
    p.push(...rows);
    if (p.length >= FLUSH_AT) {
      clearTimeout(this.timer);
      this.timer = undefined;
      void this.flush();
    } else this.schedule();
  }

  /** The service's clock (reconcile.ts stamps its rows with it). */
  now(): number {
    return this.deps.now();
  }

  private schedule(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.deps.options.flushMs);
    this.timer.unref();
  }

  private async write(): Promise<void> {
    const clusters = new Set<string>(this.pending.keys());
    for (const s of this.states.values()) if (s.phase === 'waiting' && s.listed) clusters.add(s.clusterId);
    for (const clusterId of clusters) {
      await this.leases.settled(clusterId);
      if (!this.leases.holds(clusterId)) {
        this.drop(clusterId);
        continue;
      }
      await this.reconcileWaiting(clusterId);
      const rows = this.pending.get(clusterId);
      this.pending.delete(clusterId);
      if (!rows || rows.length === 0) continue;
      try {
        if (await this.writeRows(clusterId, rows)) {
          this.versions.set(clusterId, this.version(clusterId) + 1);
          await this.deps.backend.notify(CHANGES_CHANNEL, clusterId);
        }
      } catch (err) {
        this.deps.logger.warn({ clusterId, err: String(err) }, 'change history: a write failed');
      }
    }
  }

  /** Reconciles each listed kind of the cluster that waits for it. */
  private async reconcileWaiting(clusterId: string): Promise<void> {
    for (const s of [...this.states.values()]) {
      if (s.clusterId !== clusterId || s.phase !== 'waiting' || !s.listed) continue;
      s.phase = 'reconciling';
      s.buffer = [];
      const seen = [...s.live.values()];
      try {
        const rows = await reconcile(this, s, seen);
        if (s.phase !== 'reconciling') continue;
        const p = this.pending.get(clusterId) ?? [];
        p.push(...rows, ...s.buffer);
        this.pending.set(clusterId, p);
        s.buffer = [];
        s.phase = 'live';
      } catch (err) {
        s.phase = 'waiting';
        this.deps.logger.warn(
          { clusterId, kind: s.kind.plural, err: String(err) },
          'change history: reconciling failed',
        );
        this.schedule();
      }
    }
  }

  private async writeRows(clusterId: string, rows: ChangeRow[]): Promise<boolean> {
    let i = 0;
    while (i < rows.length) {
      if (!this.leases.holds(clusterId)) return i > 0;
      const now = this.deps.now();
      const ok = await this.store.backend.transaction('change history', async (tx) => {
        const start = performance.now();
        while (i < rows.length && performance.now() - start < TX_BUDGET_MS) {
          await this.store.insert(tx, clusterId, rows.slice(i, i + 100), now);
          i += 100;
        }
      });
      if (!ok) return false;
      if (i < rows.length) await yieldToEventLoop();
    }
    return true;
  }

  /** Retention: by age, then by the per-cluster cap; the oldest first, in small transactions. */
  prune(): Promise<void> {
    this.chain = this.chain
      .then(() => this.pruneNow())
      .catch((err: unknown) =>
        this.deps.logger.warn({ err: String(err) }, 'change history: retention failed'),
      );
    return this.chain;
  }

  private async pruneNow(): Promise<void> {
    if (this.store.backend.isSealed) return;
    for (const clusterId of await this.store.clusters()) {
      let removed = 0;
      await this.leases.whileHeld(clusterId, async () => {
        removed = await pruneCluster(this.store, clusterId, {
          beforeMs: this.deps.now() - this.deps.options.retentionMs,
          maxPerCluster: this.deps.options.maxPerCluster,
        });
      });
      if (removed > 0) {
        this.versions.set(clusterId, this.version(clusterId) + 1);
        this.deps.logger.debug({ clusterId, removed }, 'change history pruned');
      }
    }
  }
}
