import { chmodSync, closeSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SnapshotGap } from '../../../src-shared/contract/snapshot-models';
import { SNAPSHOT_DDL, type SnapshotMeta } from './format';
import { KIND_INSERT_SQL, kindRow, type SnapshotKind } from './kinds-table';
import { type RecordedRowOf, type RecordedTable, recordedInsertSql, recordedValues } from './recorded-tables';

/**
 * Writes one `.skiff` file under a temporary name and puts it in place only once it is whole.
 *
 * The temporary file is nobody else's until the rename, and a crash leaves only a temporary name
 * behind, so durability is bought once at the end instead of per commit: no journal file
 * (`journal_mode = MEMORY`) and no fsync per commit (`synchronous = OFF`); `finish` commits meta
 * with `complete = 1` last, closes, fsyncs the file, renames it, and fsyncs the folder.
 *
 * Callers group rows into a few long transactions (`begin`/`commit`) and may yield to the event
 * loop between batches inside one: the connection is this writer's alone.
 */
export class SnapshotWriter {
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private finished = false;

  constructor(readonly tempPath: string) {
    rmSync(tempPath, { force: true });
    this.db = new DatabaseSync(tempPath);
    try {
      // A cluster's objects carry environment values and annotations: readable by its owner only.
      chmodSync(tempPath, 0o600);
      this.db.exec('PRAGMA journal_mode = MEMORY');
      this.db.exec('PRAGMA synchronous = OFF');
      this.db.exec(SNAPSHOT_DDL);
    } catch (err) {
      this.discard();
      throw err;
    }
  }

  begin(): void {
    if (!this.db.isTransaction) this.db.exec('BEGIN');
  }

  commit(): void {
    if (this.db.isTransaction) this.db.exec('COMMIT');
  }

  /** A row of the kinds table (kinds-table.ts); the same resourceType again replaces it. */
  kind(k: SnapshotKind): void {
    this.run(KIND_INSERT_SQL, kindRow(k));
  }

  /** `kind` is the resourceType of a row of the kinds table. */
  object(kind: string, namespace: string, name: string, json: string): void {
    this.run('INSERT OR REPLACE INTO objects (kind, namespace, name, json) VALUES (?, ?, ?, ?)', [
      kind,
      namespace,
      name,
      json,
    ]);
  }

  /** Removes the objects of a kind written so far (a list started over); answers how many. */
  dropObjects(kind: string): number {
    return this.run('DELETE FROM objects WHERE kind = ?', [kind]);
  }

  /** False when an event with this uid is already written (the first one written stays). */
  event(uid: string, namespace: string, lastTimestamp: string, expired: boolean, json: string): boolean {
    return (
      this.run(
        'INSERT OR IGNORE INTO events (uid, namespace, last_timestamp, expired, json) VALUES (?, ?, ?, ?, ?)',
        [uid, namespace, lastTimestamp, expired ? 1 : 0, json],
      ) > 0
    );
  }

  log(namespace: string, pod: string, container: string, previous: boolean, lines: readonly string[]): void {
    const text = lines.length === 0 ? '' : `${lines.join('\n')}\n`;
    this.run(
      'INSERT OR REPLACE INTO logs (namespace, pod, container, previous, line_count, text) VALUES (?, ?, ?, ?, ?, ?)',
      [namespace, pod, container, previous ? 1 : 0, lines.length, text],
    );
  }

  metric(kind: 'pod' | 'node', namespace: string, name: string, json: string): void {
    this.run('INSERT OR REPLACE INTO metrics (kind, namespace, name, json) VALUES (?, ?, ?, ?)', [
      kind,
      namespace,
      name,
      json,
    ]);
  }

  /** A row of a recorded table (version 3), as the app's table held it (recorded-tables.ts). */
  recorded<T extends RecordedTable>(table: T, row: RecordedRowOf[T]): void {
    this.run(recordedInsertSql(table), recordedValues(table, row));
  }

  /**
   * The last transaction: the gaps, then every meta key with `complete = 1`. Then the file is
   * closed, made durable and renamed to `finalPath`; returns its size in bytes.
   */
  finish(meta: Omit<SnapshotMeta, 'complete'>, gaps: readonly SnapshotGap[], finalPath: string): number {
    this.commit();
    this.begin();
    for (const g of gaps)
      this.run('INSERT INTO gaps (part, target, reason) VALUES (?, ?, ?)', [
        g.part,
        g.target ?? null,
        g.reason,
      ]);
    const entries: Array<[string, string]> = Object.entries(meta).filter(
      (e): e is [string, string] => typeof e[1] === 'string',
    );
    for (const [key, value] of [...entries, ['complete', '1'] as [string, string]])
      this.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [key, value]);
    this.commit();
    this.close();
    fsyncPath(this.tempPath);
    renameSync(this.tempPath, finalPath);
    fsyncPath(dirname(finalPath));
    this.finished = true;
    return statSync(finalPath).size;
  }

  /** Closes and removes the temporary file; a no-op once finished. */
  discard(): void {
    if (this.finished) return;
    this.close();
    rmSync(this.tempPath, { force: true });
    rmSync(`${this.tempPath}-journal`, { force: true });
  }

  private close(): void {
    if (!this.db.isOpen) return;
    if (this.db.isTransaction) this.db.exec('ROLLBACK');
    this.statements.clear();
    this.db.close();
  }

  private run(sql: string, params: ReadonlyArray<string | number | null>): number {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return Number(s.run(...params).changes);
  }
}

function fsyncPath(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    fsyncSync(fd);
  } catch (err) {
    // Some file systems (and Windows, for folders) cannot fsync a folder: the rename still happened.
    if (statSync(path).isFile()) throw err;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
