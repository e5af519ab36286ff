/**
 * How the usage store writes, on SQLite (where one process is the whole service and a transaction
 * runs at once): in transactions of at most 500 rows, yielding to the event loop between them; a
 * write or a merge refused once the database is sealed (the service closed) answers so and is
 * logged under its own label; a batch that is not full merges every bucket it holds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Queryable, StorageBackend } from '../../storage/backend';
import { type AppDatabase, openAppDatabase } from '../../storage/database';
import { SqliteBackend } from '../../storage/sqlite-backend';
import type { SampleRow } from './samples';
import { UsageStore } from './store';
import { allRows } from './usage.test-support';

const T = Date.UTC(2026, 0, 10, 12, 0, 0);
const row = (name: string, v = 1): SampleRow => ({
  subject: 'pod',
  namespace: 'ns',
  name,
  containers: { app: { cpuMillicores: v, memoryBytes: v } },
});

let dir: string;
let db: AppDatabase;
let backend: SqliteBackend;
let lines: Array<Record<string, unknown>>;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skiff-usage-'));
  lines = [];
  const logger = pino({ level: 'warn' }, { write: (s: string) => lines.push(JSON.parse(s)) });
  db = openAppDatabase({ dataDir: dir, logger });
  backend = new SqliteBackend(db, logger);
});
afterEach(async () => {
  await backend.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The real backend, telling each transaction's statements and whether the loop ran before it began. */
function counting(inner: StorageBackend) {
  const transactions: { statements: number; loopRan: boolean }[] = [];
  let loopRan = false;
  setImmediate(() => {
    loopRan = true;
  });
  const wrapped: StorageBackend = Object.assign(Object.create(inner) as StorageBackend, {
    transaction: (label: string, fn: (tx: Queryable) => Promise<void>) => {
      const t = { statements: 0, loopRan };
      transactions.push(t);
      return inner.transaction(label, (tx) =>
        fn({
          all: (sql, p) => tx.all(sql, p),
          get: (sql, p) => tx.get(sql, p),
          run: (sql, p) => {
            t.statements++;
            return tx.run(sql, p);
          },
        }),
      );
    },
  });
  return { wrapped, transactions };
}

describe('usage store writes', () => {
  it('writes in transactions of at most 500 rows, letting the event loop run between them', async () => {
    const { wrapped, transactions } = counting(backend);
    const rows = Array.from({ length: 1_203 }, (_, i) => row(`p${i}`));
    expect(await new UsageStore(wrapped).write('c', T, 30_000, rows)).toBe(true);
    expect(transactions).toEqual([
      { statements: 500, loopRan: false },
      { statements: 500, loopRan: true },
      { statements: 203, loopRan: true },
    ]);
    expect(await allRows(backend)).toHaveLength(1_203);
  });

  it('writing no rows is no transaction at all', async () => {
    const { wrapped, transactions } = counting(backend);
    expect(await new UsageStore(wrapped).write('c', T, 30_000, [])).toBe(true);
    expect(transactions).toEqual([]);
  });

  it('a non-full batch merges every bucket it holds', async () => {
    const store = new UsageStore(backend);
    await store.write('c', T, 60_000, [row('a', 1), row('b', 2)]);
    await store.write('c', T + 60_000, 60_000, [row('a', 3), row('b', 4)]);
    expect(await store.downsample('c', T + 300_000, 300_000, 100)).toBe(4);
    expect((await allRows(backend)).map((r) => [r.name, r.resolution_ms])).toEqual([
      ['a', 300_000],
      ['b', 300_000],
    ]);
  });

  it('once sealed, a write answers false and a merge 0, each logged under its own label', async () => {
    const store = new UsageStore(backend);
    await store.write('c', T, 60_000, [row('a')]);
    db.seal();
    expect(await store.write('c', T + 1, 60_000, [row('a')])).toBe(false);
    expect(await store.downsample('c', T + 300_000, 300_000, 100)).toBe(0);
    expect(lines.map((l) => l.write)).toEqual(['usage samples', 'usage downsampling']);
  });
});
