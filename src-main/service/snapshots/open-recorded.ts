/**
 * What Skiff had recorded of a cluster when a snapshot of it was taken (issue 27: change_history,
 * usage_samples, kept_logs), served from an opened snapshot as FrozenCluster.recorded: the file's
 * rows (version 3) in an in-memory database of the app's own schema (storage migration 8), under
 * the connection's clusterId, so the very reads that answer a live cluster (history/source.ts
 * recordedSource) answer the snapshot, as of its takenAt.
 *
 * Rules:
 * - Nothing of a snapshot is ever written into the app's skiff.db; the database is the snapshot's
 *   own, built on the first read that needs it and closed with the snapshot.
 * - A file before version 3 holds no recorded data: undefined, and every such read answers empty.
 * - The rows passed the check (inspect.ts, recorded-tables.ts) and go in as they are; rowids
 *   (change_history.id, kept_logs.id) are kept, so the order of rows recorded in the same
 *   millisecond is the order they were recorded in.
 * - Batches of BATCH rows, yielding between them; the tables' indexes are built once after the
 *   rows are in (far faster than kept up row by row), as the snapshot's event history does.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { RecordedTables } from '../clusters/source-frozen';
import type { Logger } from '../logger';
import { AppDatabase } from '../storage/database';
import { SqliteBackend } from '../storage/sqlite-backend';
import type { SnapshotFile } from './reader';
import { RECORDED_COLUMNS, type RecordedTable } from './recorded-tables';

/** Rows per transaction; between two the service answers other requests. */
const BATCH = 2_000;

const TABLES: readonly RecordedTable[] = ['change_history', 'usage_samples', 'kept_logs'];

/** The app schema's indexes of those tables (SQLite's own automatic ones have no SQL). */
const INDEXES_SQL = `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${TABLES.map((t) => `'${t}'`).join(', ')})`;

/** What a write is called in the log if it is dropped (the database closed under it). */
const WRITE_LABEL = 'snapshot recorded rows';

/** The recorded tables of an opened snapshot, and the database to close with it. */
export interface SnapshotRecorded {
  tables: RecordedTables;
  db: AppDatabase;
}

/** Undefined for a file that holds no recorded tables (a version before 3). */
export async function buildSnapshotRecorded(
  file: SnapshotFile,
  clusterId: string,
  logger: Logger,
): Promise<SnapshotRecorded | undefined> {
  if (file.facts.schemaVersion < 3) return undefined;
  const db = AppDatabase.open(':memory:', logger);
  try {
    const indexes = db.all<{ name: string; sql: string }>(INDEXES_SQL);
    for (const { name } of indexes) db.run(`DROP INDEX ${name}`);
    for (const table of TABLES) {
      const columns = RECORDED_COLUMNS[table];
      const insert = `INSERT INTO ${table} (cluster_id, ${columns.join(', ')}) VALUES ($cluster_id, ${columns.map((c) => `$${c}`).join(', ')})`;
      for (const batch of file.recordedBatches(table, BATCH)) {
        db.write(WRITE_LABEL, () => {
          for (const row of batch) db.run(insert, { ...row, cluster_id: clusterId });
        });
        await yieldToEventLoop();
      }
    }
    for (const { sql } of indexes) db.run(sql);
  } catch (err) {
    db.close();
    throw err;
  }
  const tables: RecordedTables = {
    db: new SqliteBackend(db, logger),
    asOfMs: Date.parse(file.facts.takenAt),
  };
  return { tables, db };
}
