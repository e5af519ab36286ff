/**
 * The event history as the rest of the service sees it (EventHistory): the recorder the event
 * caches write through, and the reads includeExpired=true answers.
 *
 * Rules: every read first writes what is pending; reads take the cluster as its request resolved
 * it (HistorySubject), never a lookup by id; a snapshot's history is its own and never recorded
 * into; with recording off nothing is written. On a database shared by replicas one replica
 * records each cluster (recorder.ts) and every replica reads the same rows; a total is remembered
 * only by the cluster's recorder, the one replica that knows when its rows change.
 */
import type { EventTimeline } from '../../../../src-shared/contract/event-history-models';
import type { MonitoringFlags } from '../../../../src-shared/contract/models';
import type { CacheObserver } from '../../cache/resource-cache';
import type { ClusterConnection, EventRecording } from '../../clusters/cluster';
import type { Logger } from '../../logger';
import type { StorageBackend } from '../../storage/backend';
import { defaultReplicaId } from '../../storage/index';
import type { EventEntry } from '../entries';
import { addToTimeline, emptyTimeline, rangeOf, timelineRange } from './aggregate';
import { filterKey, type HistoryFilter, type HistoryRow } from './filter';
import { type EventHistoryOptions, type ResolvedHistoryOptions, resolveHistoryOptions } from './options';
import { EventRecorder } from './recorder';
import type { GroupRow, HistoryStore } from './store';

export { type EventHistoryOptions, parseDuration, type RecordMode } from './options';

/**
 * Whose history a read is of: the cluster as its request resolved it, passed down rather than
 * looked up again by id. A snapshot brings its own history (ClusterConnection.frozen, read from its
 * file: snapshots/open-history.ts); its events are never recorded here.
 */
export interface HistorySubject {
  readonly clusterId: string;
  readonly frozen?: { history(): Promise<HistoryStore> } | undefined;
}

const MEMO_MAX = 64;

/**
 * The event history as the rest of the service sees it: the hooks the cluster caches record
 * through, and the reads of recorded events (live and expired) that `includeExpired=true` answers.
 * Every read first writes what is pending, so an event the cache has just seen is never missing.
 */
export class EventHistory implements EventRecording {
  readonly options: ResolvedHistoryOptions;
  /** The replica this history records as (GET /v1/health names it beside `recording`). */
  readonly replicaId: string;
  private readonly recorder: EventRecorder | undefined;
  /** Totals by cluster, table version and filter: the pages of a walk count once. */
  private readonly memo = new Map<string, number>();

  constructor(deps: {
    /** The service's database, open already (storage/index.ts); closed by its owner after close. */
    backend: StorageBackend;
    /** This replica's id (storage's replicaId). */
    replicaId?: string;
    options?: EventHistoryOptions;
    flags(clusterId: string): MonitoringFlags;
    logger: Logger;
    now?: () => number;
  }) {
    this.options = resolveHistoryOptions(deps.options);
    this.replicaId = deps.replicaId ?? defaultReplicaId();
    this.recorder =
      this.options.record === 'off'
        ? undefined
        : new EventRecorder({
            backend: deps.backend,
            options: this.options,
            flags: deps.flags,
            logger: deps.logger,
            now: deps.now ?? Date.now,
          });
  }

  /** False with `--record-events off`: nothing is recorded into the app's database. */
  get recording(): boolean {
    return this.recorder !== undefined;
  }

  /**
   * Whether includeExpired has a history to answer for this cluster: the recorded one, or the
   * cluster's own (a snapshot's answers whatever --record-events says).
   */
  answers(cluster: HistorySubject): boolean {
    return this.recorder !== undefined || cluster.frozen !== undefined;
  }

  observer(clusterId: string, current: () => readonly EventEntry[]): CacheObserver<EventEntry> | undefined {
    return this.recorder?.observer(clusterId, current);
  }

  keepsWatching(): boolean {
    return this.recorder !== undefined;
  }

  monitoringChanged(clusterId: string): void {
    this.recorder?.resync(clusterId);
  }

  /** `--record-events all`: every cluster's event watch starts now (failures retry on their own). */
  startAll(clusters: readonly ClusterConnection[]): void {
    if (this.options.record !== 'all') return;
    for (const c of clusters)
      c.events()
        .acquire()
        .catch(() => {});
  }

  async page(cluster: HistorySubject, f: HistoryFilter, limit: number, offset: number) {
    const { clusterId } = cluster;
    const store = await this.ready(cluster);
    if (!store) return undefined;
    const key = `list|${clusterId}|${filterKey(f)}`;
    const total = await this.remember(key, cluster, () => store.count(clusterId, f));
    // Positions hold while the rows are ours or a snapshot's (as remembered totals do).
    const walk = this.rememberable(cluster) ? `${this.recorder?.version(clusterId) ?? 0}|${key}` : undefined;
    const rows: HistoryRow[] =
      offset < total
        ? await store.page(clusterId, f, limit, offset, { total, ...(walk ? { walk } : {}) })
        : [];
    return { rows, total };
  }

  async groups(cluster: HistorySubject, f: HistoryFilter, limit: number, offset: number) {
    const { clusterId } = cluster;
    const store = await this.ready(cluster);
    if (!store) return undefined;
    const total = await this.remember(`groups|${clusterId}|${filterKey(f)}`, cluster, () =>
      store.groupCount(clusterId, f),
    );
    const groups: GroupRow[] = offset < total ? await store.groupPage(clusterId, f, limit, offset) : [];
    return { groups, total };
  }

  async timeline(
    cluster: HistorySubject,
    f: HistoryFilter,
    now: number,
    wanted: number,
  ): Promise<EventTimeline | undefined> {
    const { clusterId } = cluster;
    const store = await this.ready(cluster);
    if (!store) return undefined;
    const span = await store.span(clusterId, f);
    const bounds = {
      now,
      ...(f.sinceMs !== undefined ? { sinceMs: f.sinceMs } : {}),
      ...(f.untilMs !== undefined ? { untilMs: f.untilMs } : {}),
    };
    const range = timelineRange(...rangeOf(bounds, span?.oldest, span?.newest), wanted);
    const timeline = emptyTimeline(range);
    if (!span) return timeline;
    // The buckets count events inside [from, until]: the same rows the list answers.
    const within = { ...f, sinceMs: range.from, untilMs: range.until };
    for (const b of await store.buckets(clusterId, within, range.from, range.bucketMs))
      addToTimeline(timeline, range, b.bucket, b.type, b.n);
    return timeline;
  }

  /**
   * A batch of every row recorded for a cluster, live and expired and whatever the monitoring flags
   * say, in the list's order after `after` (snapshot capture walks the whole history with it).
   * Undefined when nothing is recorded (`--record-events off`).
   */
  async rowsAfter(
    cluster: HistorySubject,
    after: { lastMs: number; eventId: string } | undefined,
    limit: number,
  ): Promise<HistoryRow[] | undefined> {
    const store = await this.ready(cluster);
    return store?.rowsAfter(cluster.clusterId, after, limit);
  }

  /** When this cluster's history was last written, or undefined when nothing of it was ever recorded. */
  async lastRecorded(cluster: HistorySubject): Promise<number | undefined> {
    const store = await this.ready(cluster);
    return store?.lastRecorded(cluster.clusterId);
  }

  /** The clusters whose recorder lease this replica holds (GET /v1/health's `recording`). */
  recordingClusters(): string[] {
    return this.recorder?.recordingClusters() ?? [];
  }

  /** SIGTERM: every recorder lease is given back at once, so another replica records from now on. */
  async releaseLeases(): Promise<void> {
    await this.recorder?.releaseLeases();
  }

  /** Writes what is pending and stops recording; the database is closed by its owner afterwards. */
  async close(): Promise<void> {
    await this.recorder?.close();
  }

  private async ready(cluster: HistorySubject) {
    if (cluster.frozen) return cluster.frozen.history();
    if (!this.recorder) return undefined;
    await this.recorder.flush();
    return this.recorder.table();
  }

  /** Another replica's writes change the rows unseen: only a snapshot's or our own are remembered. */
  private rememberable(cluster: HistorySubject): boolean {
    return cluster.frozen !== undefined || this.recorder?.records(cluster.clusterId) === true;
  }

  private async remember(
    key: string,
    cluster: HistorySubject,
    compute: () => Promise<number>,
  ): Promise<number> {
    const { clusterId } = cluster;
    if (!this.rememberable(cluster)) return compute();
    const full = `${this.recorder?.version(clusterId) ?? 0}|${key}`;
    const hit = this.memo.get(full);
    if (hit !== undefined) return hit;
    const value = await compute();
    if (this.memo.size >= MEMO_MAX) this.memo.delete(this.memo.keys().next().value as string);
    this.memo.set(full, value);
    return value;
  }
}
