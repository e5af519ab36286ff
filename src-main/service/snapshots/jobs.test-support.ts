import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { KubeClient } from '../kube/kube-client';
import { silentLogger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { AppDatabase } from '../storage/database';
import { postgresSkipReason, startPostgres, type TestPostgres } from '../storage/postgres.test-support';
import { openPostgresBackend } from '../storage/postgres-backend';
import { SqliteBackend } from '../storage/sqlite-backend';
import { NINE } from './capture-kinds';
import { SnapshotJobs, type SnapshotJobsOptions } from './jobs';
import type { CaptureSource } from './source';

/**
 * What the capture job registry's tests share: small clusters of our own making (one that answers
 * at once with no objects, one held until released, one whose objects cannot be listed, one with a
 * damaged pod), and the two storage backends, each able to give one database to several
 * registries as replicas share one. Call `setUpJobBackends()` at the top of a test file: it starts
 * one PostgreSQL server for the file (none when `postgresSkipReason` says there is none), closes
 * each test's registries after it and the backends after the file.
 */

export const OPTIONS = { logLines: 10, logs: 'all' } as const;
export const HOUR = 60 * 60_000;
const FIRST = JSON.stringify({ metadata: { name: 'first' } });

/**
 * A cluster with nothing in it; `gate` holds its object lists until resolved (with `oneObject`, all
 * but the first, which answers one object at once: a capture held with progress made).
 */
export function source(
  clusterId: string,
  opts: { gate?: Promise<void>; fail?: boolean; badPod?: boolean; oneObject?: boolean } = {},
): CaptureSource {
  let first = true;
  const client = { getJson: async () => ({ items: [] }) } as unknown as KubeClient;
  return {
    clusterId,
    context: clusterId,
    server: 'https://example.invalid',
    client,
    timeoutMs: 1000,
    async objects(kind, signal) {
      // The first list answers at once with one object (the capture has made progress), the rest wait.
      if (opts.oneObject && first) {
        first = false;
        return [{ namespace: '', name: 'first', labels: undefined, json: FIRST }] as never;
      }
      if (opts.gate)
        await Promise.race([
          opts.gate,
          new Promise((_, reject) => {
            if (signal.aborted) reject(signal.reason);
            signal.addEventListener('abort', () => reject(signal.reason));
          }),
        ]);
      if (opts.fail) throw new Error('connection refused');
      if (opts.badPod && kind.singular === 'pod')
        return [{ namespace: 'shop', name: 'cart', labels: undefined, json: '{"metadata":' }] as never;
      return [];
    },
    discovery: async () => ({ kinds: NINE, gaps: [] }),
    history: async () => undefined,
  };
}

export function held() {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  return { gate, release };
}

export interface JobBackend {
  name: 'sqlite' | 'postgres';
  skip: string | undefined;
  /** A fresh database; each call of the answer is one more connection to it, as one more replica has. */
  database(): Promise<() => StorageBackend | Promise<StorageBackend>>;
}

/** Starts what the backends need for this file, and closes every registry and backend opened. */
export function setUpJobBackends(): {
  backends: JobBackend[];
  registry(backend: StorageBackend, opts: Partial<SnapshotJobsOptions> & { now: () => number }): SnapshotJobs;
  folder(): string;
} {
  const logger = silentLogger();
  let pg: TestPostgres | undefined;
  const opened: StorageBackend[] = [];
  const registries: SnapshotJobs[] = [];
  const folders: string[] = [];
  let replicas = 0;
  beforeAll(async () => {
    if (!postgresSkipReason) pg = await startPostgres();
  }, 120_000);
  afterEach(async () => {
    for (const r of registries.splice(0)) await r.close();
  });
  afterAll(async () => {
    try {
      await Promise.all(opened.map((b) => b.close()));
    } finally {
      for (const dir of folders) rmSync(dir, { recursive: true, force: true });
      await pg?.stop();
    }
  });
  const keep = <T extends StorageBackend>(b: T) => {
    opened.push(b);
    return b;
  };
  return {
    backends: [
      {
        name: 'sqlite',
        skip: undefined,
        // One process is the whole service on SQLite: its "replicas" share the one connection.
        database: async () => {
          const shared = keep(new SqliteBackend(AppDatabase.open(':memory:', logger), logger));
          return () => shared;
        },
      },
      {
        name: 'postgres',
        skip: postgresSkipReason,
        database: async () => {
          const url = await pg!.createDatabase();
          return async () => keep(await openPostgresBackend(url, logger, { max: 3 }));
        },
      },
    ],
    registry(backend, opts) {
      const r = new SnapshotJobs({
        backend,
        replicaId: `replica-${++replicas}`,
        skiffVersion: 'test',
        logger,
        ...opts,
      });
      registries.push(r);
      return r;
    },
    folder() {
      const dir = mkdtempSync(join(tmpdir(), 'skiff-jobs-'));
      folders.push(dir);
      return dir;
    },
  };
}

/** Polls until the job is no longer running (a capture of an empty cluster takes milliseconds). */
export async function settled(jobs: SnapshotJobs, snapshotId: string) {
  for (let i = 0; i < 1000; i++) {
    const job = await jobs.get(snapshotId);
    if (job?.status !== 'running') return job;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${snapshotId} still running`);
}
