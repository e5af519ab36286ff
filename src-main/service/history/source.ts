/**
 * Where a read of recorded data (changes, usage, kept logs, diagnosis) finds its rows: the app's
 * database for a live cluster, or the snapshot's own tables for an opened snapshot, which answer
 * as of its takenAt (FrozenCluster.recorded, snapshots/).
 *
 * Rules: every read of recorded data goes through `recordedSource`, so a snapshot never reads the
 * app's rows and a live cluster never reads a file's; rows are always selected by `clusterId`
 * (a snapshot's tables hold its rows under the connection's id); a snapshot without recorded
 * tables answers empty (an older format, or nothing was recorded when it was taken).
 */
import type { Queryable } from '../storage/backend';

export interface RecordedSource {
  readonly db: Queryable;
  readonly clusterId: string;
  /** Set for a snapshot: nothing after this instant exists, and "now" is this. */
  readonly asOfMs?: number;
  /** True for a snapshot: its data is never written to. */
  readonly frozen: boolean;
}

/** The cluster as a request resolved it: its id, and its snapshot's tables when it is one. */
export interface RecordedSubject {
  readonly clusterId: string;
  readonly frozen?: { recorded?(): Promise<{ db: Queryable; asOfMs: number } | undefined> } | undefined;
}

/** The rows a read of `cluster` sees; undefined for a snapshot that holds none. */
export async function recordedSource(
  cluster: RecordedSubject,
  backend: Queryable,
): Promise<RecordedSource | undefined> {
  if (!cluster.frozen) return { db: backend, clusterId: cluster.clusterId, frozen: false };
  const tables = await cluster.frozen.recorded?.();
  if (!tables) return undefined;
  return { db: tables.db, clusterId: cluster.clusterId, asOfMs: tables.asOfMs, frozen: true };
}
