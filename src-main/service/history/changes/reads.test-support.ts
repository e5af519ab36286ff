/**
 * Fixtures of the change reads' tests: a real database per test on either backend (the event
 * history's openBackend: SQLite in a temp dir, or a database of the file's PostgreSQL server), and
 * change_history rows written straight through the storage backend, as the recorder would leave
 * them, in whatever order a test gives (never the order the reads answer in).
 */
import { afterEach, beforeEach } from 'vitest';
import { type BackendKind, openBackend, postgresPerFile } from '../../events/history/history.test-support';
import type { StorageBackend } from '../../storage/backend';
import type { RecordedSource } from '../source';

export const T0 = Date.UTC(2026, 0, 31, 2, 0, 0);
export const MIN = 60_000;

export interface FixtureRow {
  cluster?: string;
  timeMs: number;
  resourceType?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  change: 'created' | 'updated' | 'deleted' | 'seen';
  resourceVersion: string;
  patch?: unknown[];
  summary?: string;
  object?: unknown;
}

/** Inserts the rows in the order given, in one transaction; answers their ids in that order. */
export async function insertRows(backend: StorageBackend, rows: readonly FixtureRow[]): Promise<number[]> {
  const ids: number[] = [];
  await backend.transaction('test', async (tx) => {
    for (const r of rows) {
      const got = await tx.all<{ id: number }>(
        `INSERT INTO change_history
          (cluster_id, time_ms, resource_type, kind, namespace, name, uid, change, resource_version, patch, summary, object, recorded_at)
          VALUES ($cluster, $time, $type, $kind, $ns, $name, $uid, $change, $rv, $patch, $summary, $object, $time)
          RETURNING id`,
        {
          cluster: r.cluster ?? 'c1',
          time: r.timeMs,
          type: r.resourceType ?? 'deployment',
          kind: r.kind ?? 'Deployment',
          ns: r.namespace ?? 'shop',
          name: r.name ?? 'checkout',
          uid: r.uid ?? 'uid-1',
          change: r.change,
          rv: r.resourceVersion,
          patch: JSON.stringify(r.patch ?? []),
          summary: r.summary ?? r.change,
          object: r.object === undefined ? null : JSON.stringify(r.object),
        },
      );
      ids.push(got[0]!.id);
    }
  });
  return ids;
}

export interface ReadsRig {
  readonly backend: StorageBackend;
  /** The live cluster `c1`'s rows (or another cluster's). */
  source(clusterId?: string, asOfMs?: number): RecordedSource;
}

/** A database of its own for each test of the file (or describe), on `kind`. */
export function readsPerTest(kind: BackendKind): ReadsRig {
  if (kind === 'postgres') postgresPerFile();
  let current: Awaited<ReturnType<typeof openBackend>> | undefined;
  beforeEach(async () => {
    current = await openBackend(kind);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const backend = () => {
    if (!current) throw new Error('the backend is opened in beforeEach: use it inside a test');
    return current.backend;
  };
  return {
    get backend() {
      return backend();
    },
    source: (clusterId = 'c1', asOfMs) => ({
      db: backend(),
      clusterId,
      frozen: asOfMs !== undefined,
      ...(asOfMs !== undefined ? { asOfMs } : {}),
    }),
  };
}

/** A Deployment as the recorder stores it (no managedFields, no resourceVersion). */
export function deployment(image: string, replicas = 3): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'checkout', namespace: 'shop', uid: 'uid-1' },
    spec: { replicas, template: { spec: { containers: [{ name: 'app', image }] } } },
  };
}
