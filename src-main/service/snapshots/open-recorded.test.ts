import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger';
import { AppDatabase } from '../storage/database';
import { buildSnapshotRecorded } from './open-recorded';
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
 * An opened snapshot's recorded tables (open-recorded.ts): the file's rows in a database of the
 * app's own schema, under the connection's cluster id, as of takenAt, with the app's indexes; a
 * file before version 3 has none.
 */

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder();
});
afterEach(() => folder.remove());

const APP_INDEXES = (() => {
  const db = AppDatabase.open(':memory:', silentLogger());
  try {
    return db
      .all<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('change_history', 'usage_samples', 'kept_logs') ORDER BY name",
      )
      .map((r) => r.name);
  } finally {
    db.close();
  }
})();

describe('buildSnapshotRecorded', () => {
  it("holds the file's rows under the cluster id, rowids kept, as of takenAt, indexed as the app's tables", async () => {
    // More changes than one batch, with ids out of insertion order.
    const changes = Array.from({ length: 4_501 }, (_, i) =>
      changeRow({ id: 10_000 - i, time_ms: changeRow().time_ms + (i % 10) }),
    );
    const usage = [usageRow({ subject: 'node', namespace: '', name: 'n1' }), usageRow()];
    const keptLogs = [keptLogRow({ id: 42, exit_code: null })];
    const path = folder.path('v3.skiff');
    writeSnapshot(path, { changes, usage, keptLogs }, { takenAt: '2026-03-01T12:00:00.000Z' });
    const file = await openChecked(path);
    const built = await buildSnapshotRecorded(file, 'prod-eu-snapshot', silentLogger());
    try {
      expect(built).toBeDefined();
      const { tables, db } = built!;
      expect(tables.asOfMs).toBe(Date.parse('2026-03-01T12:00:00.000Z'));
      const count = (table: string, cluster: string) =>
        tables.db.get<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE cluster_id = $cluster`, {
          cluster,
        });
      expect(await count('change_history', 'prod-eu-snapshot')).toEqual({ n: changes.length });
      expect(await count('change_history', 'other')).toEqual({ n: 0 });
      const byId = await tables.db.all<Record<string, unknown>>(
        'SELECT * FROM change_history WHERE id IN (10000, 5500) ORDER BY id',
      );
      const { cluster_id, ...first } = byId[1]!;
      expect(cluster_id).toBe('prod-eu-snapshot');
      expect(first).toEqual(changes[0]);
      expect(byId[0]).toMatchObject({ id: 5500, cluster_id: 'prod-eu-snapshot' });
      expect(
        await tables.db.all('SELECT cluster_id, subject, name FROM usage_samples ORDER BY subject'),
      ).toEqual([
        { cluster_id: 'prod-eu-snapshot', subject: 'node', name: 'n1' },
        { cluster_id: 'prod-eu-snapshot', subject: 'pod', name: 'checkout-1' },
      ]);
      expect(await tables.db.all('SELECT id, cluster_id, exit_code, lines FROM kept_logs')).toEqual([
        { id: 42, cluster_id: 'prod-eu-snapshot', exit_code: null, lines: keptLogs[0]!.lines },
      ]);
      expect(
        db
          .all<{ name: string }>(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('change_history', 'usage_samples', 'kept_logs') ORDER BY name",
          )
          .map((r) => r.name),
      ).toEqual(APP_INDEXES);
      expect(APP_INDEXES.length).toBeGreaterThan(3);
    } finally {
      built?.db.close();
      file.close();
    }
  });

  it('is undefined for a version-2 file', async () => {
    const path = folder.path('v2.skiff');
    writeSnapshot(path, { changes: [changeRow()] });
    toVersion2(path);
    const file = await openChecked(path);
    try {
      expect(await buildSnapshotRecorded(file, 'c', silentLogger())).toBeUndefined();
    } finally {
      file.close();
    }
  });

  it('fails, closing its database, when the file cannot be read any more', async () => {
    const path = folder.path('closed.skiff');
    writeSnapshot(path, { changes: [changeRow()] });
    const file = await openChecked(path);
    file.close();
    await expect(buildSnapshotRecorded(file, 'c', silentLogger())).rejects.toMatchObject({
      code: 'cluster_not_found',
    });
  });
});
