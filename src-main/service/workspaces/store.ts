import type { MonitoringFlags } from '../../../src-shared/contract/models';
import type { Logger } from '../logger';
import type { Params, Queryable, StorageBackend } from '../storage/backend';
import type { AppDatabase } from '../storage/database';
import type { KeyValueStore } from '../storage/store';
import {
  DEFAULT_WORKSPACE_ID,
  loadWorkspaceConfig,
  monitoringOf,
  type WorkspaceConfig,
  workspaceConfigSchema,
} from './config';

/**
 * Workspaces, context ids and monitoring flags in the database (migration 3), which replicas share;
 * they were the conf file's `workspaceConfig`, copied in once.
 *
 * Rules:
 * - Read whole at open, before the service answers, and kept in memory: the registry reads it on
 *   every request, synchronously.
 * - `save(next)` writes only what differs from what this replica last read, row by row, in one
 *   transaction: two replicas editing two workspaces never overwrite each other (the same
 *   workspace edited on two at once: the last write wins, whole). A context's id, once stored, is
 *   kept (first writer wins). Memory changes after the commit, never before.
 * - Every save is followed by a notify on `skiff_workspaces`; every replica then re-reads (the
 *   whole configuration is small), and also when its listening connection comes back and every 30 s
 *   at most, in case a notification was lost. `onChange` hears each re-read that changed something.
 * - The conf file's configuration is copied in by the first start that finds the marker
 *   `imported.conf` missing in service_settings, in the same transaction as the marker, so two
 *   replicas starting together copy it once. The file is left as it was (a downgrade still reads it).
 */

export const WORKSPACES_CHANNEL = 'skiff_workspaces';
export const IMPORT_MARKER = 'imported.conf';
/** The bounded fallback: a replica that missed a notification is at most this stale. */
export const REREAD_MS = 30_000;

interface Rows {
  workspaces: { workspace_id: string; name: string; cluster_ids: string | null; member_groups?: string }[];
  ids: { context: string; cluster_id: string }[];
  monitoring: { cluster_id: string; resource_events: number; system_events: number }[];
}

const READS = {
  workspaces:
    'SELECT workspace_id, name, cluster_ids, member_groups FROM workspaces ORDER BY position, workspace_id',
  ids: 'SELECT context, cluster_id FROM cluster_ids ORDER BY context',
  monitoring: 'SELECT cluster_id, resource_events, system_events FROM cluster_monitoring ORDER BY cluster_id',
} as const;

const PUT_WORKSPACE = `INSERT INTO workspaces (workspace_id, name, cluster_ids, member_groups, position, updated_at)
  VALUES ($id, $name, $clusterIds, $groups, (SELECT coalesce(max(position), 0) + 1 FROM workspaces), $now)
  ON CONFLICT (workspace_id) DO UPDATE SET name = excluded.name, cluster_ids = excluded.cluster_ids,
    member_groups = excluded.member_groups, updated_at = excluded.updated_at`;
const DELETE_WORKSPACE = 'DELETE FROM workspaces WHERE workspace_id = $id';
const PUT_ID = `INSERT INTO cluster_ids (context, cluster_id) VALUES ($context, $clusterId)
  ON CONFLICT (context) DO NOTHING`;
const PUT_MONITORING = `INSERT INTO cluster_monitoring (cluster_id, resource_events, system_events, updated_at)
  VALUES ($clusterId, $resource, $system, $now)
  ON CONFLICT (cluster_id) DO UPDATE SET resource_events = excluded.resource_events,
    system_events = excluded.system_events, updated_at = excluded.updated_at`;
const MARK_IMPORTED = `INSERT INTO service_settings (key, value, updated_at) VALUES ($key, $value, $now)
  ON CONFLICT (key) DO NOTHING`;

type Statement = { sql: string; params: Params };

function configOf(rows: Rows): WorkspaceConfig {
  const config = workspaceConfigSchema.parse({
    workspaces: rows.workspaces.map((w) => ({
      workspaceId: w.workspace_id,
      name: w.name,
      ...(w.cluster_ids === null ? {} : { clusterIds: JSON.parse(w.cluster_ids) as string[] }),
      ...(w.member_groups && w.member_groups !== '[]'
        ? { groups: JSON.parse(w.member_groups) as string[] }
        : {}),
    })),
    clusterIds: Object.fromEntries(rows.ids.map((r) => [r.context, r.cluster_id])),
    clusters: Object.fromEntries(
      rows.monitoring.map((m) => [
        m.cluster_id,
        {
          clusterAgent: {
            monitoring: {
              resourceEventsEnabled: m.resource_events === 1,
              systemEventsEnabled: m.system_events === 1,
            },
          },
        },
      ]),
    ),
  });
  // The default workspace always exists, first, even before anything was stored.
  if (!config.workspaces.some((w) => w.workspaceId === DEFAULT_WORKSPACE_ID))
    config.workspaces.unshift({ workspaceId: DEFAULT_WORKSPACE_ID, name: 'Default' });
  return config;
}

/** What turns `from` into `to`, as statements; empty when nothing differs. */
export function changes(from: WorkspaceConfig, to: WorkspaceConfig, now: number): Statement[] {
  const out: Statement[] = [];
  const before = new Map(from.workspaces.map((w) => [w.workspaceId, w]));
  for (const w of to.workspaces) {
    const old = before.get(w.workspaceId);
    const clusterIds = w.clusterIds === undefined ? null : JSON.stringify(w.clusterIds);
    const oldIds = old?.clusterIds === undefined ? null : JSON.stringify(old.clusterIds);
    const groups = JSON.stringify(w.groups ?? []);
    if (!old || old.name !== w.name || oldIds !== clusterIds || JSON.stringify(old.groups ?? []) !== groups)
      out.push({ sql: PUT_WORKSPACE, params: { id: w.workspaceId, name: w.name, clusterIds, groups, now } });
  }
  const kept = new Set(to.workspaces.map((w) => w.workspaceId));
  for (const w of from.workspaces)
    if (!kept.has(w.workspaceId)) out.push({ sql: DELETE_WORKSPACE, params: { id: w.workspaceId } });
  for (const [context, clusterId] of Object.entries(to.clusterIds))
    if (from.clusterIds[context] !== clusterId) out.push({ sql: PUT_ID, params: { context, clusterId } });
  for (const clusterId of Object.keys(to.clusters)) {
    const next: MonitoringFlags = monitoringOf(to, clusterId);
    const prev = from.clusters[clusterId] ? monitoringOf(from, clusterId) : undefined;
    if (
      prev?.resourceEventsEnabled !== next.resourceEventsEnabled ||
      prev?.systemEventsEnabled !== next.systemEventsEnabled
    )
      out.push({
        sql: PUT_MONITORING,
        params: {
          clusterId,
          resource: next.resourceEventsEnabled ? 1 : 0,
          system: next.systemEventsEnabled ? 1 : 0,
          now,
        },
      });
  }
  return out;
}

const EMPTY = configOf({ workspaces: [], ids: [], monitoring: [] });

/** The conf file's configuration as statements, or none when it holds nothing to copy. */
function importStatements(conf: KeyValueStore | undefined, now: number): Statement[] {
  // An unreadable configuration is refused here as it was before (WorkspaceConfigError).
  return conf ? changes(EMPTY, loadWorkspaceConfig(conf), now) : [];
}

export class WorkspaceStore {
  private current: WorkspaceConfig;
  private readonly listeners = new Set<(config: WorkspaceConfig) => void>();
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private closed = false;
  private chain: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly backend: StorageBackend,
    private readonly logger: Logger,
    private readonly now: () => number,
    rows: Rows,
  ) {
    this.current = configOf(rows);
  }

  /** SQLite, synchronously (openStorage is): the conf file copied in once, then read. */
  static openSqlite(opts: {
    db: AppDatabase;
    backend: StorageBackend;
    conf?: KeyValueStore | undefined;
    logger: Logger;
    now?: () => number;
  }): WorkspaceStore {
    const { db } = opts;
    const now = opts.now ?? Date.now;
    const copy = importStatements(opts.conf, now());
    db.write('workspaces: copy the conf file in', () => {
      if (db.run(MARK_IMPORTED, { key: IMPORT_MARKER, value: 'true', now: now() }) === 0) return;
      for (const s of copy) db.run(s.sql, { ...s.params });
    });
    const rows: Rows = {
      workspaces: db.all(READS.workspaces),
      ids: db.all(READS.ids),
      monitoring: db.all(READS.monitoring),
    };
    return new WorkspaceStore(opts.backend, opts.logger, now, rows);
  }

  /** PostgreSQL: the same, through the backend; replicas starting together copy the file once. */
  static async open(opts: {
    backend: StorageBackend;
    conf?: KeyValueStore | undefined;
    logger: Logger;
    now?: () => number;
  }): Promise<WorkspaceStore> {
    const { backend } = opts;
    const now = opts.now ?? Date.now;
    const copy = importStatements(opts.conf, now());
    await backend.transaction('workspaces: copy the conf file in', async (tx) => {
      if ((await tx.run(MARK_IMPORTED, { key: IMPORT_MARKER, value: 'true', now: now() })) === 0) return;
      for (const s of copy) await tx.run(s.sql, s.params);
    });
    return new WorkspaceStore(backend, opts.logger, now, await read(backend));
  }

  get config(): WorkspaceConfig {
    return this.current;
  }

  /** Called with the configuration after a save, and after a re-read that changed it (another replica's save). */
  onChange(fn: (config: WorkspaceConfig) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Starts hearing other replicas' saves: a notification, a reconnect, or every REREAD_MS. */
  async start(rereadMs = REREAD_MS): Promise<void> {
    this.unlisten = await this.backend.listen(
      WORKSPACES_CHANNEL,
      () => void this.reread(),
      () => void this.reread(),
    );
    this.timer = setInterval(() => void this.reread(), rereadMs);
    this.timer.unref();
  }

  /**
   * Writes what differs from the last read, then notifies. False when the database was closed
   * (nothing written, memory unchanged); a failed write throws, memory unchanged. Saves and
   * re-reads take turns, so a re-read begun before a save never puts the old state back.
   */
  save(next: WorkspaceConfig): Promise<boolean> {
    return this.serial(async () => {
      const statements = changes(this.current, next, this.now());
      if (statements.length === 0) {
        this.current = next;
        return true;
      }
      const done = await this.backend.transaction('workspaces', async (tx: Queryable) => {
        for (const s of statements) await tx.run(s.sql, s.params);
      });
      if (!done) return false;
      this.current = next;
      // Every registry over this store hears it (in one process several may share it: tests).
      for (const fn of this.listeners) fn(next);
      await this.backend.notify(WORKSPACES_CHANNEL, 'saved').catch((err: unknown) =>
        // The others still see it within REREAD_MS.
        this.logger.warn(
          { err: (err as Error).message },
          'workspaces saved, but other replicas were not told',
        ),
      );
      return true;
    });
  }

  /** Reads everything again; a change is told to onChange's listeners. Never throws. */
  reread(): Promise<void> {
    return this.serial(async () => {
      if (this.closed) return;
      try {
        const next = configOf(await read(this.backend));
        if (this.closed || JSON.stringify(next) === JSON.stringify(this.current)) return;
        this.current = next;
        for (const fn of this.listeners) fn(next);
      } catch (err) {
        this.logger.warn(
          { err: (err as Error).message },
          'workspaces could not be read again; keeping the last read',
        );
      }
    });
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn);
    this.chain = next.catch(() => {});
    return next;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.unlisten?.().catch(() => {});
    await this.chain;
  }
}

async function read(q: Queryable): Promise<Rows> {
  return {
    workspaces: await q.all(READS.workspaces),
    ids: await q.all(READS.ids),
    monitoring: await q.all(READS.monitoring),
  };
}
