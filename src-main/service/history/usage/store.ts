/**
 * The usage_samples table (storage migration 8): writing samples, reading one series, merging old
 * samples into 5-minute points, and dropping what is past retention.
 *
 * Rules: one SQL text for both dialects; every statement names its cluster; writes go in
 * transactions of at most WRITE_BATCH rows, yielding to the event loop between them; a sample that
 * is already there (same series, same instant) is kept, not rewritten. Downsampling takes whole
 * buckets only: a batch is cut before its last series-bucket when it may have been cut short, so
 * no bucket is ever merged from part of its samples, and a bucket's raw samples are deleted and
 * its point written in one transaction. Retention and downsampling go in batches of at most a few
 * thousand rows, so neither holds the database long.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Queryable, StorageBackend } from '../../storage/backend';
import { type ContainerUsage, mergeSamples, type SampleRow, type UsageSubject } from './samples';

const WRITE_BATCH = 500;
/** Rows per retention statement. */
export const PRUNE_BATCH = 2_000;

const INSERT = `INSERT INTO usage_samples (cluster_id, subject, namespace, name, time_ms, resolution_ms, containers)
  VALUES ($cluster, $subject, $namespace, $name, $time, $resolution, $containers)
  ON CONFLICT DO NOTHING`;

export interface SeriesRow {
  time_ms: number;
  resolution_ms: number;
  containers: string;
}

export interface Series {
  subject: UsageSubject;
  namespace: string;
  name: string;
}

/** One series' samples within [sinceMs, untilMs], oldest first. */
export function readSeries(
  db: Queryable,
  clusterId: string,
  series: Series,
  sinceMs: number,
  untilMs: number,
): Promise<SeriesRow[]> {
  return db.all<SeriesRow>(
    `SELECT time_ms, resolution_ms, containers FROM usage_samples
      WHERE cluster_id = $cluster AND subject = $subject AND namespace = $namespace AND name = $name
        AND time_ms >= $since AND time_ms <= $until
      ORDER BY time_ms`,
    { cluster: clusterId, ...series, since: sinceMs, until: untilMs },
  );
}

interface RawRow {
  subject: UsageSubject;
  namespace: string;
  name: string;
  time_ms: number;
  containers: string;
}

export class UsageStore {
  constructor(private readonly backend: StorageBackend) {}

  /** Writes one sample of every row at `timeMs`; false when the database refused (sealed). */
  async write(
    clusterId: string,
    timeMs: number,
    resolutionMs: number,
    rows: readonly SampleRow[],
  ): Promise<boolean> {
    for (let i = 0; i < rows.length; i += WRITE_BATCH) {
      const batch = rows.slice(i, i + WRITE_BATCH);
      const done = await this.backend.transaction('usage samples', async (tx) => {
        for (const r of batch)
          await tx.run(INSERT, {
            cluster: clusterId,
            subject: r.subject,
            namespace: r.namespace,
            name: r.name,
            time: timeMs,
            resolution: resolutionMs,
            containers: JSON.stringify(r.containers),
          });
      });
      if (!done) return false;
      if (i + WRITE_BATCH < rows.length) await yieldToEventLoop();
    }
    return true;
  }

  /**
   * Merges one batch of samples finer than `stepMs` and older than `cutMs` (a multiple of stepMs)
   * into one point per series and bucket; answers how many samples it merged (0: nothing left).
   * `batch` must exceed the samples one bucket can hold.
   */
  async downsample(clusterId: string, cutMs: number, stepMs: number, batch: number): Promise<number> {
    const rows = await this.backend.all<RawRow>(
      `SELECT subject, namespace, name, time_ms, containers FROM usage_samples
        WHERE cluster_id = $cluster AND resolution_ms < $step AND time_ms < $cut
        ORDER BY subject, namespace, name, time_ms
        LIMIT $limit`,
      { cluster: clusterId, step: stepMs, cut: cutMs, limit: batch },
    );
    const groups = groupByBucket(rows, stepMs);
    // A full batch may have cut its last bucket short: that bucket waits for the next batch.
    if (rows.length === batch && groups.length > 1) groups.pop();
    let merged = 0;
    const done = await this.backend.transaction('usage downsampling', async (tx) => {
      for (const g of groups) {
        const key = { cluster: clusterId, subject: g.subject, namespace: g.namespace, name: g.name };
        await tx.run(
          `DELETE FROM usage_samples
            WHERE cluster_id = $cluster AND subject = $subject AND namespace = $namespace AND name = $name
              AND time_ms >= $from AND time_ms < $to AND resolution_ms < $step`,
          { ...key, from: g.bucket, to: g.bucket + stepMs, step: stepMs },
        );
        await tx.run(
          `INSERT INTO usage_samples (cluster_id, subject, namespace, name, time_ms, resolution_ms, containers)
            VALUES ($cluster, $subject, $namespace, $name, $time, $step, $containers)
            ON CONFLICT (cluster_id, subject, namespace, name, time_ms)
            DO UPDATE SET resolution_ms = excluded.resolution_ms, containers = excluded.containers`,
          { ...key, time: g.bucket, step: stepMs, containers: JSON.stringify(mergeSamples(g.samples)) },
        );
        merged += g.samples.length;
      }
    });
    return done ? merged : 0;
  }

  /** Deletes one batch of samples older than `beforeMs`; answers how many. */
  prune(clusterId: string, beforeMs: number, batch: number = PRUNE_BATCH): Promise<number> {
    return this.backend.run(
      `DELETE FROM usage_samples WHERE cluster_id = $cluster AND (subject, namespace, name, time_ms) IN (
        SELECT subject, namespace, name, time_ms FROM usage_samples
          WHERE cluster_id = $cluster AND time_ms < $before LIMIT $limit)`,
      { cluster: clusterId, before: beforeMs, limit: batch },
    );
  }

  /** The clusters that hold samples: retention also reaches those no longer sampled. */
  async clusters(): Promise<string[]> {
    const rows = await this.backend.all<{ cluster_id: string }>(
      'SELECT DISTINCT cluster_id FROM usage_samples ORDER BY cluster_id',
    );
    return rows.map((r) => r.cluster_id);
  }
}

interface Bucket extends Series {
  bucket: number;
  samples: ContainerUsage[];
}

/** Rows ordered by series and time, as one group per series and bucket, in that order. */
export function groupByBucket(rows: readonly RawRow[], stepMs: number): Bucket[] {
  const groups: Bucket[] = [];
  let last: Bucket | undefined;
  for (const r of rows) {
    const bucket = Math.floor(r.time_ms / stepMs) * stepMs;
    if (
      !last ||
      last.bucket !== bucket ||
      last.name !== r.name ||
      last.namespace !== r.namespace ||
      last.subject !== r.subject
    ) {
      last = { subject: r.subject, namespace: r.namespace, name: r.name, bucket, samples: [] };
      groups.push(last);
    }
    last.samples.push(JSON.parse(r.containers) as ContainerUsage);
  }
  return groups;
}
