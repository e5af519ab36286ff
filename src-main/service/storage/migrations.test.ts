import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from './migrations';

/** A migration step that fails: all of it or none of it, and the database is left as it was. */
describe('a migration step that fails', () => {
  it('is rolled back whole: the version stays, no transaction is left open, and the error says why', () => {
    const db = new DatabaseSync(':memory:');
    try {
      db.exec(MIGRATIONS[0]!.sql);
      db.exec('PRAGMA user_version = 1');
      // In the way of step 2, which creates this table.
      db.exec('CREATE TABLE event_history (x)');
      expect(() => migrate(db, 'test.db')).toThrow(/event_history already exists/);
      expect(db.isTransaction).toBe(false);
      expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(1);
      const indexes = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'event_history'")
        .all();
      expect(indexes).toEqual([]);
    } finally {
      db.close();
    }
  });
});
