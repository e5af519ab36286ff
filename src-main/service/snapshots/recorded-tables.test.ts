import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger';
import { AppDatabase } from '../storage/database';
import { FILE_LIMITS } from './connection';
import { RECORDED_LIMITS } from './format';
import {
  fitsChange,
  fitsKeptLog,
  fitsUsage,
  RECORDED_COLUMNS,
  type RecordedTable,
  recordedInsertSql,
  recordedRowBytes,
  recordedSizeSql,
  recordedTablesProblem,
  recordedValues,
} from './recorded-tables';
import {
  changeRow,
  keptLogRow,
  openChecked,
  tempFolder,
  toVersion2,
  usageRow,
  writeSnapshot,
} from './skiff-file.test-support';

/**
 * The recorded tables of a version-3 file (recorded-tables.ts): what the writer puts in is what the
 * reader gives back, the file's tables are the app's without cluster_id, and the bounds a capture
 * keeps to are the ones the check holds files to. Hostile files are in hostile-files.test-support.ts
 * (checked by inspect.test.ts and, uploaded, by snapshot-hostile.it.test.ts).
 */

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder();
});
afterEach(() => folder.remove());

const TABLES: RecordedTable[] = ['change_history', 'usage_samples', 'kept_logs'];

describe('the recorded tables of a file', () => {
  it("are the app database's tables of the same names without cluster_id, column for column", () => {
    const db = AppDatabase.open(':memory:', silentLogger());
    try {
      for (const table of TABLES) {
        const columns = db
          .all<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
          .map((c) => c.name);
        expect(columns.filter((c) => c !== 'cluster_id')).toEqual([...RECORDED_COLUMNS[table]]);
      }
    } finally {
      db.close();
    }
  });

  it('give back every row as it was written, nulls included, in key order; a version-2 file has none', async () => {
    const changes = [
      changeRow({ id: 7, object: JSON.stringify({ metadata: { name: 'checkout' }, spec: { replicas: 3 } }) }),
      changeRow({ id: 9, change: 'deleted', time_ms: changeRow().time_ms + 1 }),
    ];
    const usage = [usageRow({ subject: 'node', namespace: '', name: 'n1' }), usageRow()];
    const keptLogs = [keptLogRow({ exit_code: null, finished_at: null, reason: 'OOMKilled' })];
    const path = folder.path('v3.skiff');
    writeSnapshot(path, { changes, usage, keptLogs });
    const file = await openChecked(path);
    try {
      expect([...file.recordedBatches('change_history', 1)]).toEqual([[changes[0]], [changes[1]]]);
      // usage_samples is kept in its key's order: node before pod.
      expect([...file.recordedBatches('usage_samples', 10)]).toEqual([usage]);
      expect([...file.recordedBatches('kept_logs', 10)]).toEqual([keptLogs]);
    } finally {
      file.close();
    }
    toVersion2(path);
    const v2 = await openChecked(path);
    try {
      expect(v2.facts.schemaVersion).toBe(2);
      for (const table of TABLES) expect([...v2.recordedBatches(table, 10)]).toEqual([]);
    } finally {
      v2.close();
    }
  });

  it('an empty table has no batch', async () => {
    const path = folder.path('empty.skiff');
    writeSnapshot(path, {});
    const file = await openChecked(path);
    try {
      for (const table of TABLES) expect([...file.recordedBatches(table, 10)]).toEqual([]);
    } finally {
      file.close();
    }
  });
});

describe('rows', () => {
  it('insert in the columns’ order', () => {
    expect(recordedInsertSql('usage_samples')).toBe(
      'INSERT INTO usage_samples (subject, namespace, name, time_ms, resolution_ms, containers) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const row = keptLogRow({ finished_at: null });
    expect(recordedValues('kept_logs', row)).toEqual(RECORDED_COLUMNS.kept_logs.map((c) => row[c]));
    expect(recordedValues('kept_logs', row)[6]).toBeNull();
  });

  it('count their text as their bytes', () => {
    expect(recordedRowBytes({ a: 'é', b: 12, c: null, d: 'xy' })).toBe(4);
  });

  it('fit a file up to each bound, and not a byte past it', () => {
    const key = 'k'.repeat(FILE_LIMITS.keyBytes);
    const over = `${key}k`;
    expect(fitsChange(changeRow({ name: key, uid: key, resource_version: key }))).toBe(true);
    for (const field of ['resource_type', 'kind', 'namespace', 'name', 'uid', 'resource_version'] as const)
      expect(fitsChange(changeRow({ [field]: over })), field).toBe(false);
    const json = (n: number) => `"${'x'.repeat(n - 2)}"`;
    expect(fitsChange(changeRow({ patch: json(RECORDED_LIMITS.jsonBytes) }))).toBe(true);
    expect(fitsChange(changeRow({ patch: json(RECORDED_LIMITS.jsonBytes + 1) }))).toBe(false);
    expect(fitsChange(changeRow({ object: json(RECORDED_LIMITS.jsonBytes) }))).toBe(true);
    expect(fitsChange(changeRow({ object: json(RECORDED_LIMITS.jsonBytes + 1) }))).toBe(false);
    expect(fitsChange(changeRow({ summary: 's'.repeat(RECORDED_LIMITS.summaryBytes) }))).toBe(true);
    expect(fitsChange(changeRow({ summary: 's'.repeat(RECORDED_LIMITS.summaryBytes + 1) }))).toBe(false);

    expect(fitsUsage(usageRow({ namespace: key, name: key }))).toBe(true);
    expect(fitsUsage(usageRow({ namespace: over }))).toBe(false);
    expect(fitsUsage(usageRow({ name: over }))).toBe(false);
    expect(fitsUsage(usageRow({ containers: json(RECORDED_LIMITS.containersBytes) }))).toBe(true);
    expect(fitsUsage(usageRow({ containers: json(RECORDED_LIMITS.containersBytes + 1) }))).toBe(false);

    expect(fitsKeptLog(keptLogRow({ pod: key, finished_at: null }))).toBe(true);
    for (const field of ['namespace', 'pod', 'pod_uid', 'container', 'reason', 'finished_at'] as const)
      expect(fitsKeptLog(keptLogRow({ [field]: over })), field).toBe(false);
    expect(fitsKeptLog(keptLogRow({ lines: 'l'.repeat(RECORDED_LIMITS.linesBytes) }))).toBe(true);
    expect(fitsKeptLog(keptLogRow({ lines: 'l'.repeat(RECORDED_LIMITS.linesBytes + 1) }))).toBe(false);
  });
});

describe('recordedTablesProblem', () => {
  // The sizes as SQLite answers them for tables at and past their bounds; the rows' own check is
  // the file's (hostile-files.test-support.ts builds files whose tables are too large).
  const answering =
    (sizes: Partial<Record<RecordedTable, { n: number; bytes: number }>>) =>
    async <T>(sql: string): Promise<T[]> => {
      const table = TABLES.find((t) => sql === recordedSizeSql(t));
      if (table) return [(sizes[table] ?? { n: 0, bytes: 0 }) as T];
      return [];
    };

  it('takes tables up to their bounds, and names the first table past one', async () => {
    const full = {
      change_history: RECORDED_LIMITS.changes,
      usage_samples: RECORDED_LIMITS.usage,
      kept_logs: RECORDED_LIMITS.keptLogs,
    };
    const at = Object.fromEntries(
      TABLES.map((t) => [t, { n: full[t].rows, bytes: full[t].totalBytes }]),
    ) as Record<RecordedTable, { n: number; bytes: number }>;
    expect(await recordedTablesProblem(answering(at))).toBeUndefined();
    expect(await recordedTablesProblem(answering({ ...at, usage_samples: { n: 500_001, bytes: 0 } }))).toBe(
      'its usage_samples table has more than 500000 rows',
    );
    expect(
      await recordedTablesProblem(
        answering({ ...at, kept_logs: { n: 1, bytes: RECORDED_LIMITS.keptLogs.totalBytes + 1 } }),
      ),
    ).toBe('its kept_logs table is larger than a snapshot allows (256 MiB)');
    expect(
      await recordedTablesProblem(
        answering({ change_history: { n: 1, bytes: RECORDED_LIMITS.changes.totalBytes + 1 } }),
      ),
    ).toBe('its change_history table is larger than a snapshot allows (256 MiB)');
  });

  it('reads no more rows of a table than one past its bound', () => {
    expect(recordedSizeSql('change_history')).toMatch(/FROM change_history LIMIT 200001\)$/);
    expect(recordedSizeSql('kept_logs')).toMatch(/FROM kept_logs LIMIT 10001\)$/);
  });
});
