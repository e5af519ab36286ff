/**
 * Object changes as the rest of the service sees them (slot `Recorded.changes`): the recorder the
 * resource caches of live clusters write through (history/hooks.ts), which clusters are recorded,
 * and what the reads (reads*.ts), the changes watch, usage sampling and kept logs need of it.
 *
 * Rules: with `off` nothing is observed and no cluster is recorded; `viewed` records a kind from
 * the first read of it on a live cluster; `all` starts the cache of every recordable kind of
 * every live cluster at start (discovery failures are retried every RETRY_MS until close). A
 * snapshot is never recorded (its caches are not observed). Reads call `flush()` first so a change
 * just seen is never missing.
 */
import type { ResourceEntry } from '../../cache/entries';
import type { CacheObserver } from '../../cache/resource-cache';
import { isEventKind, type KindInfo } from '../../clusters/kind-info';
import type { Logger } from '../../logger';
import type { StorageBackend } from '../../storage/backend';
import type { RecordingHooks, ResourceRecorder } from '../hooks';
import {
  CHANGES_CHANNEL,
  type ChangeHistoryOptions,
  NOISY_KINDS,
  type RecordChangesMode,
  type ResolvedChangeOptions,
  recordsKind,
  resolveChangeOptions,
} from './options';
import { ChangeRecorder } from './recorder';

export type { ChangeHistoryOptions, RecordChangesMode } from './options';
export { CHANGES_CHANNEL, NOISY_KINDS } from './options';

const RETRY_MS = 30_000;

/** A live cluster as `all` starts it: its kinds, and the cache of one. */
export interface StartableCluster {
  readonly clusterId: string;
  readonly frozen?: unknown;
  kinds(): Promise<readonly KindInfo[]>;
  resources(kind: KindInfo): { acquire(): Promise<void> };
}

export class ChangeHistory implements ResourceRecorder {
  readonly name = 'changes';
  readonly options: ResolvedChangeOptions;
  /** The channel each committed batch is announced on, with the cluster id as payload. */
  readonly channel = CHANGES_CHANNEL;
  /** The kinds left out unless --record-noisy-kinds, as `group/plural`. */
  readonly noisyKinds = NOISY_KINDS;
  private readonly recorder: ChangeRecorder | undefined;
  private readonly started = new Set<string>();
  private readonly retries = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly deps: {
      backend: StorageBackend;
      hooks: RecordingHooks;
      logger: Logger;
      now: () => number;
      options?: ChangeHistoryOptions | undefined;
    },
  ) {
    this.options = resolveChangeOptions(deps.options);
    this.recorder =
      this.options.record === 'off'
        ? undefined
        : new ChangeRecorder({
            backend: deps.backend,
            options: this.options,
            logger: deps.logger,
            now: deps.now,
          });
    if (this.recorder) deps.hooks.add(this);
  }

  get mode(): RecordChangesMode {
    return this.options.record;
  }

  /**
   * Whether the live cluster is recorded (changes, and so usage samples and kept logs): never with
   * `off`; with `all` once started; with `viewed` once any of its resource caches was made.
   */
  isRecordedCluster(clusterId: string): boolean {
    if (!this.recorder) return false;
    return this.started.has(clusterId) || this.deps.hooks.wasViewed(clusterId);
  }

  /** Whether this kind's changes are recorded (the mode and --record-noisy-kinds). */
  recordsKind(kind: Pick<KindInfo, 'group' | 'plural'>): boolean {
    return recordsKind(this.options, kind);
  }

  observer(clusterId: string, kind: KindInfo): CacheObserver<ResourceEntry> | undefined {
    if (!this.recorder || !this.recordsKind(kind)) return undefined;
    return this.recorder.observer(clusterId, kind);
  }

  keepsWatching(_clusterId: string, kind: KindInfo): boolean {
    return this.recorder !== undefined && this.recordsKind(kind);
  }

  /** Resolves once every change seen so far is written (reads call it first). */
  async flush(): Promise<void> {
    await this.recorder?.flush();
  }

  /** Bumped per committed batch (and per retention pass) of the cluster's rows: for memoised totals. */
  version(clusterId: string): number {
    return this.recorder?.version(clusterId) ?? 0;
  }

  /** Whether this replica writes the cluster's rows (its lease): only then is `version` complete. */
  records(clusterId: string): boolean {
    return this.recorder?.records(clusterId) ?? false;
  }

  /** Retention now (tests; it also runs every pruneEveryMs). */
  async prune(): Promise<void> {
    await this.recorder?.prune();
  }

  /** `all`: the cache of every recordable kind of every live cluster starts now. */
  startAll(clusters: readonly StartableCluster[]): void {
    if (this.options.record !== 'all') return;
    for (const c of clusters) if (!c.frozen) this.start(c);
  }

  private start(c: StartableCluster): void {
    if (this.closed) return;
    this.started.add(c.clusterId);
    c.kinds().then(
      (kinds) => {
        // Events are never served as resources (their own cache and history record them).
        for (const k of kinds)
          if (this.recordsKind(k) && !isEventKind(k))
            c.resources(k)
              .acquire()
              .catch(() => {});
      },
      (err: unknown) => {
        this.deps.logger.warn(
          { clusterId: c.clusterId, err: String(err) },
          'change history: the kinds of a cluster could not be read; retrying',
        );
        const t = setTimeout(() => {
          this.retries.delete(t);
          this.start(c);
        }, RETRY_MS);
        t.unref();
        this.retries.add(t);
      },
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.retries) clearTimeout(t);
    await this.recorder?.close();
  }
}
