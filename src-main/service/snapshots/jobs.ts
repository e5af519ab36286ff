import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SnapshotJob } from '../../../src-shared/contract/snapshot-models';
import { ProblemError } from '../errors';
import type { Logger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { CaptureFailed, captureSnapshot } from './capture';
import type { WantedKind } from './capture-kinds';
import { SNAPSHOT_EXTENSION } from './format';
import { CAPTURE_PREFIX, PARTIAL, removeOrphanFiles } from './jobs-files';
import { type JobRow, JobRows, viewOf } from './jobs-store';
import type { LogsMode } from './log-targets';
import type { CaptureSource } from './source';

/**
 * Capture jobs, one registry per replica over rows every replica shares (jobs-store.ts): a job
 * started on one replica is seen, and its file downloaded, from any of them.
 *
 * Rules:
 * - One capture per cluster across every replica (the database's unique index decides); at most
 *   `maxRunning` at once per replica (a capture's connections and file are this process's).
 * - The replica that runs a capture owns it: it answers its own running jobs from memory (the
 *   freshest progress) and writes a heartbeat with the progress every `heartbeatMs`. A running job
 *   whose owner has not beaten for `staleMs` is dead: whichever replica reads it first marks it
 *   failed, saying which replica stopped and when; a job is never left "running". Replicas' clocks
 *   must agree to well within `staleMs` (NTP).
 * - Files live in one folder every replica shares (`--snapshot-dir`, default the data dir's
 *   `snapshots/`) as `capture-<snapshotId>.skiff`; the row is written before the file, so a file
 *   without a row is a leftover, removed at start (jobs-files.ts).
 * - Finished jobs are kept for `keepMs` (at most `maxKept` of them), then forgotten with their
 *   files by whichever replica notices first.
 * - On SQLite one process is the whole service: jobs end with it, as before (rows a previous run
 *   left are removed at start, this run's at close, with their files). On PostgreSQL the service
 *   outlives a replica: a closing replica fails its running captures and leaves finished ones.
 */

export interface SnapshotJobsOptions {
  backend: StorageBackend;
  /** This replica's name, in the rows it owns and in the reason its dead jobs give. */
  replicaId: string;
  /** The shared folder of capture files; without one (tests) a temporary folder, removed on close. */
  dir?: string | undefined;
  skiffVersion: string;
  logger: Logger;
  maxRunning?: number;
  keepMs?: number;
  maxKept?: number;
  /** How often the owner says it is alive (and writes the progress). */
  heartbeatMs?: number;
  /** Silence after which another replica declares a running job dead. */
  staleMs?: number;
  /** How often retention and dead replicas' jobs are dealt with unasked (default a minute). */
  housekeepingMs?: number;
  now?: () => number;
}

export interface CaptureOptions {
  logLines: number;
  logs: LogsMode;
  /** Only these kinds' objects; every kind when absent. */
  kinds?: readonly WantedKind[];
  /** The account taking it, kept with the job: it may download its own file (operations/snapshots.ts). */
  taker?: string;
}

interface Job {
  /** What GET answers; progress and missing are filled in place as the capture goes. */
  view: SnapshotJob;
  abort: AbortController;
  done: Promise<void>;
}

export const DEFAULT_MAX_RUNNING = 2;
const DEFAULT_KEEP_MS = 60 * 60_000;
const DEFAULT_MAX_KEPT = 20;
export const DEFAULT_HEARTBEAT_MS = 2_000;
export const DEFAULT_STALE_MS = 30_000;

/** `prod-eu-2026-11-24T14-03-00Z.skiff`: the context and the time taken, safe in any file system. */
export function snapshotFileName(context: string, takenAtMs: number): string {
  const safe = context.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'cluster';
  const time = new Date(takenAtMs)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
  return `${safe}-${time}${SNAPSHOT_EXTENSION}`;
}

const iso = (ms: number) => new Date(ms).toISOString();

export class SnapshotJobs {
  /** Settled once the rows and files earlier runs left are dealt with; the service awaits it before answering. */
  readonly ready: Promise<void>;
  private readonly own = new Map<string, Job>();
  /** Every job this registry started, for close on SQLite. */
  private readonly startedHere = new Set<string>();
  private readonly rows: JobRows;
  private folder: string | undefined;
  private readonly now: () => number;
  private readonly timers: NodeJS.Timeout[];
  private starting = 0;
  private beating = false;
  private closed = false;

  constructor(private readonly opts: SnapshotJobsOptions) {
    this.now = opts.now ?? Date.now;
    this.rows = new JobRows(opts.backend);
    this.ready = this.init();
    // Awaited by listen and by every call; a failure is theirs to report.
    this.ready.catch(() => {});
    this.timers = [
      setInterval(() => void this.housekeeping(), opts.housekeepingMs ?? 60_000),
      setInterval(() => void this.beat(), opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS),
    ];
    for (const t of this.timers) t.unref();
  }

  /** Starts capturing; 409 while this cluster has a capture running anywhere, 429 at this replica's bound. */
  async start(source: CaptureSource, workspaceId: string, options: CaptureOptions): Promise<SnapshotJob> {
    if (this.closed) throw shuttingDown();
    await this.ready;
    await this.sweep();
    // A dead replica's capture would hold its cluster forever.
    await this.reapStale();
    const same = await this.rows.runningOf(source.clusterId);
    if (same) throw alreadyRunning(source.clusterId, same.snapshot_id);
    const running = this.own.size + this.starting;
    const max = this.opts.maxRunning ?? DEFAULT_MAX_RUNNING;
    if (running >= max) {
      throw new ProblemError(
        'rate_limited',
        `${running} snapshots are being taken, the most at once; try again when one is done`,
        {},
        { 'Retry-After': '10' },
      );
    }
    const snapshotId = `snap-${randomBytes(8).toString('hex')}`;
    const started = this.now();
    const view: SnapshotJob = {
      snapshotId,
      status: 'running',
      workspaceId,
      clusterId: source.clusterId,
      context: source.context,
      startedAt: iso(started),
      progress: { objects: 0, events: 0, podLogsDone: 0, podLogsTotal: 0 },
      missing: [],
      fileName: snapshotFileName(source.context, started),
    };
    // Counted from the check above, so two starts at once cannot both take the last slot.
    this.starting++;
    try {
      const inserted = await this.rows
        .insert(view, this.opts.replicaId, started, options.taker)
        .catch(async (err) => {
          // Another start of this cluster won the race (the unique index refused this one).
          const other = await this.rows.runningOf(source.clusterId);
          if (other) throw alreadyRunning(source.clusterId, other.snapshot_id);
          throw err;
        });
      if (!inserted || this.closed) {
        if (inserted) await this.rows.finish(closedView(view), this.opts.replicaId, this.now());
        throw shuttingDown();
      }
    } finally {
      this.starting--;
    }
    this.startedHere.add(snapshotId);
    const job: Job = { view, abort: new AbortController(), done: Promise.resolve() };
    this.own.set(snapshotId, job);
    job.done = this.run(job, source, options, started);
    return structuredClone(view);
  }

  /** The job as it stands, or undefined when there is none by that id (or it was forgotten). */
  async get(snapshotId: string): Promise<SnapshotJob | undefined> {
    await this.ready;
    // A job past its time is gone at once, not only at the next sweep of the timer.
    await this.sweep();
    const job = this.own.get(snapshotId);
    if (job) return structuredClone(job.view);
    const row = await this.rows.get(snapshotId);
    return row ? viewOf(await this.settle(row)) : undefined;
  }

  /** The account that took the snapshot; undefined when unknown (or no such job). */
  async takerOf(snapshotId: string): Promise<string | undefined> {
    await this.ready;
    return (await this.rows.get(snapshotId))?.taker ?? undefined;
  }

  /** The finished file of a job that is done; undefined when there is none. */
  async file(snapshotId: string): Promise<{ path: string; sizeBytes: number; fileName: string } | undefined> {
    const job = await this.get(snapshotId);
    if (job?.status !== 'done' || job.sizeBytes === undefined) return undefined;
    const path = this.pathOf(snapshotId);
    // Forgotten meanwhile is "no file"; a job still there whose file is not is a folder not shared.
    if (!existsSync(path) && (await this.rows.get(snapshotId)))
      throw new ProblemError(
        'internal_error',
        `snapshot "${snapshotId}" is done, but its file is not in this replica's snapshot folder: every replica must share one --snapshot-dir`,
      );
    return { path, sizeBytes: job.sizeBytes, fileName: job.fileName };
  }

  /** Stops this replica's running captures (their temporary files removed); see the rules for the rest. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    const reason =
      this.opts.backend.dialect === 'sqlite'
        ? 'the service is shutting down'
        : `replica "${this.opts.replicaId}" shut down while taking this snapshot; take it again`;
    for (const job of this.own.values()) job.abort.abort(new DOMException(reason, 'AbortError'));
    await Promise.all([...this.own.values()].map((j) => j.done));
    if (this.opts.backend.dialect === 'sqlite') {
      const ids = [...this.startedHere];
      await this.rows
        .remove(ids)
        .catch((err) => this.opts.logger.warn({ err }, 'snapshot jobs not forgotten'));
      for (const id of ids) this.removeFiles(id);
    }
    if (this.folder && !this.opts.dir) rmSync(this.folder, { recursive: true, force: true });
  }

  private async init(): Promise<void> {
    try {
      if (this.opts.backend.dialect === 'sqlite') {
        await this.rows.remove((await this.rows.states()).map((r) => r.snapshot_id));
      } else {
        for (const row of await this.rows.runningOfReplica(this.opts.replicaId))
          await this.rows.failSeen(
            row,
            `replica "${row.replica_id}" restarted while taking this snapshot; take it again`,
            this.now(),
          );
      }
      if (this.opts.dir) await removeOrphanFiles(this.opts.dir, () => this.rows.states());
    } catch (err) {
      this.opts.logger.error({ err }, 'snapshot jobs could not be read from the database');
      throw err;
    }
  }

  private async run(
    job: Job,
    source: CaptureSource,
    options: CaptureOptions,
    startedMs: number,
  ): Promise<void> {
    const { view } = job;
    const path = this.pathOf(view.snapshotId);
    // The result goes to the row first and to memory never: until the row has it, GET says running.
    const result: Partial<SnapshotJob> = {};
    try {
      const { sizeBytes } = await captureSnapshot(source, {
        ...options,
        skiffVersion: this.opts.skiffVersion,
        tempPath: `${path}${PARTIAL}`,
        finalPath: path,
        progress: view.progress,
        gaps: view.missing,
        signal: job.abort.signal,
        now: this.now,
        startedMs,
      });
      Object.assign(result, { status: 'done', sizeBytes });
    } catch (err) {
      result.status = 'failed';
      result.error =
        err instanceof CaptureFailed || job.abort.signal.aborted
          ? (err as Error).message
          : `the snapshot could not be written: ${(err as Error).message ?? String(err)}`;
      if (!(err instanceof CaptureFailed) && !job.abort.signal.aborted)
        this.opts.logger.error({ err, snapshotId: view.snapshotId }, 'snapshot capture failed');
    }
    const kept = await this.rows
      .finish({ ...view, ...result }, this.opts.replicaId, this.now())
      .catch((err) => {
        this.opts.logger.error({ err, snapshotId: view.snapshotId }, 'snapshot job result not written');
        return false;
      });
    // Declared dead meanwhile (or the database failed): the row says failed, so nobody gets the file.
    if (!kept) this.removeFiles(view.snapshotId);
    this.own.delete(view.snapshotId);
  }

  /** The owner's heartbeat; a job no longer ours (declared dead elsewhere) is stopped. */
  private async beat(): Promise<void> {
    if (this.beating || this.closed) return;
    this.beating = true;
    try {
      for (const job of this.own.values()) {
        const ours = await this.rows.beat(job.view, this.opts.replicaId, this.now()).catch((err) => {
          this.opts.logger.warn(
            { err, snapshotId: job.view.snapshotId },
            'snapshot job heartbeat not written',
          );
          return true;
        });
        if (!ours && !this.closed)
          job.abort.abort(new DOMException('another replica declared this snapshot failed', 'AbortError'));
      }
    } finally {
      this.beating = false;
    }
  }

  /** A running job of another replica that has been silent too long is failed as seen; the row as it now stands. */
  private async settle(row: JobRow): Promise<JobRow> {
    const staleMs = this.opts.staleMs ?? DEFAULT_STALE_MS;
    if (row.status !== 'running' || row.replica_id === this.opts.replicaId) return row;
    if (this.now() - row.heartbeat_at < staleMs) return row;
    await this.rows.failSeen(row, deadReason(row), this.now());
    return (await this.rows.get(row.snapshot_id)) ?? row;
  }

  private async reapStale(): Promise<void> {
    const cutoff = this.now() - (this.opts.staleMs ?? DEFAULT_STALE_MS);
    for (const row of await this.rows.stale(cutoff, this.opts.replicaId))
      await this.rows.failSeen(row, deadReason(row), this.now());
  }

  private async housekeeping(): Promise<void> {
    try {
      await this.ready;
      await this.sweep();
      await this.reapStale();
    } catch (err) {
      this.opts.logger.warn({ err }, 'snapshot jobs housekeeping failed; it runs again in a minute');
    }
  }

  /** Forgets finished jobs past their time (or beyond the count kept), removing their files. */
  private async sweep(): Promise<void> {
    const cutoff = this.now() - (this.opts.keepMs ?? DEFAULT_KEEP_MS);
    const ids = await this.rows.expired(cutoff, this.opts.maxKept ?? DEFAULT_MAX_KEPT);
    if (ids.length === 0) return;
    await this.rows.remove(ids);
    // A download still reading one keeps its open file; the name goes now.
    for (const id of ids) this.removeFiles(id);
  }

  private removeFiles(snapshotId: string): void {
    const path = this.pathOf(snapshotId);
    rmSync(path, { force: true });
    rmSync(`${path}${PARTIAL}`, { force: true });
  }

  private pathOf(snapshotId: string): string {
    return join(this.ensureFolder(), `${CAPTURE_PREFIX}${snapshotId}${SNAPSHOT_EXTENSION}`);
  }

  private ensureFolder(): string {
    if (this.folder) return this.folder;
    if (this.opts.dir) {
      mkdirSync(this.opts.dir, { recursive: true, mode: 0o700 });
      this.folder = this.opts.dir;
    } else this.folder = mkdtempSync(join(tmpdir(), 'skiff-snapshots-'));
    return this.folder;
  }
}

const shuttingDown = () => new ProblemError('conflict', 'the service is shutting down');

function alreadyRunning(clusterId: string, snapshotId: string): ProblemError {
  return new ProblemError(
    'conflict',
    `a snapshot of cluster "${clusterId}" is already being taken: ${snapshotId}`,
    { snapshotId },
    { Location: `/v1/snapshots/${snapshotId}` },
  );
}

function deadReason(row: JobRow): string {
  return `replica "${row.replica_id}" stopped while taking this snapshot (no heartbeat since ${iso(row.heartbeat_at)}); take it again`;
}

/** A job the service closed on between its row and its start: failed, so it is never left running. */
function closedView(view: SnapshotJob): SnapshotJob {
  return { ...view, status: 'failed', error: 'the service is shutting down' };
}
