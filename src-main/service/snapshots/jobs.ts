import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SnapshotJob } from '../../../src-shared/contract/snapshot-models';
import { ProblemError } from '../errors';
import type { Logger } from '../logger';
import { CaptureFailed, captureSnapshot } from './capture';
import type { WantedKind } from './capture-kinds';
import { SNAPSHOT_EXTENSION } from './format';
import type { LogsMode } from './log-targets';
import type { CaptureSource } from './source';

/**
 * Capture jobs, in memory: at most `maxRunning` at once (one per cluster), finished ones kept for
 * `keepMs` (and at most `maxKept`), then forgotten with their files. Files live in the data dir's
 * `snapshots/` folder as `capture-<snapshotId>.skiff`; they belong to this process's jobs, so the
 * ones a previous run left (finished or not) are removed at start.
 */

export interface SnapshotJobsOptions {
  /** The data dir; without one (tests in memory) a temporary folder is used and removed on close. */
  dataDir?: string | undefined;
  skiffVersion: string;
  logger: Logger;
  maxRunning?: number;
  keepMs?: number;
  maxKept?: number;
  now?: () => number;
}

export interface CaptureOptions {
  logLines: number;
  logs: LogsMode;
  /** Only these kinds' objects; every kind when absent. */
  kinds?: readonly WantedKind[];
}

interface Job {
  /** What GET answers; progress and missing are filled in place as the capture goes. */
  view: SnapshotJob;
  /** The finished file (its temporary name is this plus `.partial`). */
  path: string;
  abort: AbortController;
  done: Promise<void>;
  finishedMs?: number;
}

const PREFIX = 'capture-';
const PARTIAL = '.partial';
export const DEFAULT_MAX_RUNNING = 2;
const DEFAULT_KEEP_MS = 60 * 60_000;
const DEFAULT_MAX_KEPT = 20;

/** `prod-eu-2026-11-24T14-03-00Z.skiff`: the context and the time taken, safe in any file system. */
export function snapshotFileName(context: string, takenAtMs: number): string {
  const safe = context.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'cluster';
  const time = new Date(takenAtMs)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
  return `${safe}-${time}${SNAPSHOT_EXTENSION}`;
}

export class SnapshotJobs {
  private readonly jobs = new Map<string, Job>();
  private folder: string | undefined;
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly opts: SnapshotJobsOptions) {
    this.now = opts.now ?? Date.now;
    if (opts.dataDir) removeOwnFiles(join(opts.dataDir, 'snapshots'));
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  /** Starts capturing; 409 while this cluster has a capture running, 429 at the bound. */
  start(source: CaptureSource, workspaceId: string, options: CaptureOptions): SnapshotJob {
    if (this.closed) throw new ProblemError('conflict', 'the service is shutting down');
    this.sweep();
    const running = [...this.jobs.values()].filter((j) => j.view.status === 'running');
    const same = running.find((j) => j.view.clusterId === source.clusterId);
    if (same) {
      throw new ProblemError(
        'conflict',
        `a snapshot of cluster "${source.clusterId}" is already being taken: ${same.view.snapshotId}`,
        { snapshotId: same.view.snapshotId },
        { Location: `/v1/snapshots/${same.view.snapshotId}` },
      );
    }
    const max = this.opts.maxRunning ?? DEFAULT_MAX_RUNNING;
    if (running.length >= max) {
      throw new ProblemError(
        'rate_limited',
        `${running.length} snapshots are being taken, the most at once; try again when one is done`,
        {},
        { 'Retry-After': '10' },
      );
    }
    const snapshotId = `snap-${randomBytes(8).toString('hex')}`;
    const started = this.now();
    const folder = this.ensureFolder();
    const path = join(folder, `${PREFIX}${snapshotId}${SNAPSHOT_EXTENSION}`);
    const view: SnapshotJob = {
      snapshotId,
      status: 'running',
      workspaceId,
      clusterId: source.clusterId,
      context: source.context,
      startedAt: new Date(started).toISOString(),
      progress: { objects: 0, events: 0, podLogsDone: 0, podLogsTotal: 0 },
      missing: [],
      fileName: snapshotFileName(source.context, started),
    };
    const abort = new AbortController();
    const job: Job = { view, path, abort, done: Promise.resolve() };
    job.done = this.run(job, source, options, started);
    this.jobs.set(snapshotId, job);
    return structuredClone(view);
  }

  /** The job as it stands, or undefined when there is none by that id (or it was forgotten). */
  get(snapshotId: string): SnapshotJob | undefined {
    // A job past its time is gone at once, not only at the next sweep of the timer.
    this.sweep();
    const job = this.jobs.get(snapshotId);
    return job ? structuredClone(job.view) : undefined;
  }

  /** The finished file of a job that is done; undefined when there is none. */
  file(snapshotId: string): { path: string; sizeBytes: number; fileName: string } | undefined {
    this.sweep();
    const job = this.jobs.get(snapshotId);
    if (job?.view.status !== 'done' || job.view.sizeBytes === undefined) return undefined;
    return { path: job.path, sizeBytes: job.view.sizeBytes, fileName: job.view.fileName };
  }

  /** Stops running captures (their temporary files removed) and removes every file of this run. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    for (const job of this.jobs.values())
      job.abort.abort(new DOMException('the service is shutting down', 'AbortError'));
    await Promise.all([...this.jobs.values()].map((j) => j.done));
    for (const job of this.jobs.values()) rmSync(job.path, { force: true });
    this.jobs.clear();
    if (this.folder && !this.opts.dataDir) rmSync(this.folder, { recursive: true, force: true });
  }

  private async run(
    job: Job,
    source: CaptureSource,
    options: CaptureOptions,
    startedMs: number,
  ): Promise<void> {
    const { view } = job;
    try {
      const result = await captureSnapshot(source, {
        ...options,
        skiffVersion: this.opts.skiffVersion,
        tempPath: `${job.path}${PARTIAL}`,
        finalPath: job.path,
        progress: view.progress,
        gaps: view.missing,
        signal: job.abort.signal,
        now: this.now,
        startedMs,
      });
      view.status = 'done';
      view.sizeBytes = result.sizeBytes;
    } catch (err) {
      view.status = 'failed';
      view.error =
        err instanceof CaptureFailed || job.abort.signal.aborted
          ? (err as Error).message
          : `the snapshot could not be written: ${(err as Error).message ?? String(err)}`;
      if (!(err instanceof CaptureFailed) && !job.abort.signal.aborted)
        this.opts.logger.error({ err, snapshotId: view.snapshotId }, 'snapshot capture failed');
    } finally {
      job.finishedMs = this.now();
      view.finishedAt = new Date(job.finishedMs).toISOString();
    }
  }

  /** Forgets finished jobs past their time (or beyond the count kept), removing their files. */
  private sweep(): void {
    const finished = [...this.jobs.values()]
      .filter((j) => j.finishedMs !== undefined)
      .sort((a, b) => (b.finishedMs ?? 0) - (a.finishedMs ?? 0));
    const keepMs = this.opts.keepMs ?? DEFAULT_KEEP_MS;
    const maxKept = this.opts.maxKept ?? DEFAULT_MAX_KEPT;
    for (const [i, job] of finished.entries()) {
      if (i < maxKept && this.now() - (job.finishedMs ?? 0) < keepMs) continue;
      this.jobs.delete(job.view.snapshotId);
      // A download still reading it keeps its open file; the name goes now.
      rmSync(job.path, { force: true });
    }
  }

  private ensureFolder(): string {
    if (this.folder) return this.folder;
    if (this.opts.dataDir) {
      this.folder = join(this.opts.dataDir, 'snapshots');
      mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    } else this.folder = mkdtempSync(join(tmpdir(), 'skiff-snapshots-'));
    return this.folder;
  }
}

/** Files of captures a previous run made: nobody can ask for them any more. */
function removeOwnFiles(folder: string): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names)
    if (name.startsWith(PREFIX) && (name.endsWith(SNAPSHOT_EXTENSION) || name.endsWith(PARTIAL)))
      rmSync(join(folder, name), { force: true });
}
