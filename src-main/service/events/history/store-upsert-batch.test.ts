/**
 * HistoryStore.upsert writes a batch of events in one statement (one round trip to PostgreSQL, not
 * one per row: a restart's relist of 100,000 events made every history read, which flushes first,
 * wait for 100,000 round trips), on both backends.
 *
 * Rules: real backends (PostgreSQL skipped, with its reason, where it cannot run); the statements
 * are counted on the caller's real transaction handle, wrapped, not mocked.
 */
import { describe, expect, it } from 'vitest';
import type { Params, Queryable } from '../../storage/backend';
import { ALL, eachBackend, entry, ids, MIN, storePerTest, T0 } from './history.test-support';

eachBackend((kind) => {
  const s = storePerTest(kind);

  describe('upsert', () => {
    it('writes 100 events in one statement, every row as given', async () => {
      const entries = Array.from({ length: 100 }, (_, i) =>
        entry(`e${String(i).padStart(3, '0')}`, T0 - i * MIN),
      );
      let statements = 0;
      await s.backend.transaction('test', (tx) => {
        const counted: Queryable = {
          all<T>(sql: string, params?: Params) {
            statements++;
            return tx.all<T>(sql, params);
          },
          get<T>(sql: string, params?: Params) {
            statements++;
            return tx.get<T>(sql, params);
          },
          run(sql: string, params?: Params) {
            statements++;
            return tx.run(sql, params);
          },
        };
        return s.store.upsert(counted, 'c1', entries, T0);
      });
      expect(statements).toBe(1);
      const rows = await s.store.page('c1', ALL, 200, 0);
      expect(ids(rows)).toEqual(entries.map((e) => e.eventId));
      expect(rows.map((r) => r.lastMs)).toEqual(entries.map((e) => e.lastMs));
    });

    it('keeps the last of an event id named twice in one batch, as row by row did', async () => {
      await s.put('c1', [
        entry('a', T0, { count: 1, message: 'first' }),
        entry('b', T0 - MIN),
        entry('a', T0 + MIN, { count: 2, message: 'second' }),
      ]);
      const rows = await s.store.page('c1', ALL, 10, 0);
      expect(ids(rows)).toEqual(['a', 'b']);
      expect(rows[0]).toMatchObject({ lastMs: T0 + MIN, count: 2, message: 'second' });
    });

    it('rewrites only changed rows of a batch and writes an empty batch as nothing', async () => {
      await s.put('c1', [entry('a', T0, { count: 1 }), entry('b', T0 - MIN, { count: 1 })], T0);
      await s.put('c1', [entry('a', T0, { count: 1 }), entry('b', T0, { count: 3 })], T0 + MIN);
      await s.put('c1', [], T0 + 2 * MIN);
      const rows = await s.store.page('c1', ALL, 10, 0);
      expect(rows.map((r) => [r.eventId, r.count, r.lastMs])).toEqual([
        ['a', 1, T0],
        ['b', 3, T0],
      ]);
    });
  });
});
