import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LEVEL, recordingLogger } from '../http/recording-logger.test-support';
import { type Logger, silentLogger } from '../logger';
import type { StorageBackend } from './backend';
import { AppDatabase } from './database';
import { SCHEMA_VERSION } from './migrations';
import { postgresSkipReason, startPostgres, type TestPostgres } from './postgres.test-support';
import { openPostgresBackend } from './postgres-backend';
import { SqliteBackend } from './sqlite-backend';

/**
 * The seam's rules (backend.ts), the same tests on both backends: SQLite in memory and a real
 * PostgreSQL server (postgres.test-support.ts). A storage test that runs on one runs on both.
 */

const logger = silentLogger();
let pg: TestPostgres | undefined;
const opened: StorageBackend[] = [];
const folders: string[] = [];

beforeAll(async () => {
  if (!postgresSkipReason) pg = await startPostgres();
});
afterAll(async () => {
  try {
    await Promise.all(opened.map((b) => b.close()));
  } finally {
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
    await pg?.stop();
  }
});

const backends: {
  name: string;
  skip: string | undefined;
  open: (log?: Logger) => Promise<StorageBackend>;
  /** Two backends on the same database, as two replicas (or, on SQLite, two services on one file) have. */
  openTwo: () => Promise<[StorageBackend, StorageBackend]>;
}[] = [
  {
    name: 'sqlite',
    skip: undefined,
    open: async (log = logger) => new SqliteBackend(AppDatabase.open(':memory:', log), log),
    openTwo: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'skiff-conformance-'));
      folders.push(dir);
      const file = join(dir, 'skiff.db');
      return [
        new SqliteBackend(AppDatabase.open(file, logger), logger),
        new SqliteBackend(AppDatabase.open(file, logger), logger),
      ];
    },
  },
  {
    name: 'postgres',
    skip: postgresSkipReason,
    open: async (log = logger) => openPostgresBackend(await pg!.createDatabase(), log, { max: 3 }),
    openTwo: async () => {
      const url = await pg!.createDatabase();
      return [
        await openPostgresBackend(url, logger, { max: 3 }),
        await openPostgresBackend(url, logger, { max: 3 }),
      ];
    },
  },
];

/** Resolves with the next `count` payloads heard on `channel`. */
function heard(count: number): { payloads: string[]; done: Promise<string[]>; on: (p: string) => void } {
  const payloads: string[] = [];
  let resolve!: (p: string[]) => void;
  const done = new Promise<string[]>((r) => {
    resolve = r;
  });
  return {
    payloads,
    done,
    on: (p) => {
      payloads.push(p);
      if (payloads.length === count) resolve(payloads);
    },
  };
}

const insert = 'INSERT INTO auth_meta (key, value) VALUES ($key, $value)';

describe.each(backends)('the $name backend', ({ name, skip, open }) => {
  const fresh = async (log?: Logger) => {
    const b = await open(log);
    opened.push(b);
    return b;
  };

  it.skipIf(skip !== undefined)(
    'notify reaches every listener on the channel, in order, and only after listen; unlisten stops it',
    async () => {
      const db = await fresh();
      const a = heard(3);
      const b = heard(3);
      const other = heard(1);
      let listened = 0;
      const unlistenA = await db.listen('skiff_test', a.on, () => {
        listened++;
      });
      await db.listen('skiff_test', b.on);
      await db.listen('skiff_other', other.on);
      // onListen runs once the subscription is in place (and again after a reconnect).
      await vi.waitFor(() => expect(listened).toBe(1));
      for (const id of ['1', '2', 'ws:é "quoted"']) await db.notify('skiff_test', id);
      expect(await a.done).toEqual(['1', '2', 'ws:é "quoted"']);
      expect(await b.done).toEqual(['1', '2', 'ws:é "quoted"']);
      await unlistenA();
      await db.notify('skiff_test', 'after');
      await db.notify('skiff_other', 'o');
      expect(await other.done).toEqual(['o']);
      await vi.waitFor(() => expect(b.payloads).toHaveLength(4));
      expect(a.payloads).toHaveLength(3);
      expect(b.payloads[3]).toBe('after');
    },
  );

  it.skipIf(skip !== undefined)(
    'a listener that throws or rejects is logged, and the next payload is still delivered',
    async () => {
      const { logger: log, entries } = recordingLogger();
      const db = await fresh(log);
      const got: string[] = [];
      await db.listen('skiff_test', (p) => {
        got.push(p);
        if (p === 'throw') throw new Error('listener broke');
      });
      await db.listen('skiff_test', async (p) => {
        if (p === 'throw') throw new Error('async listener broke');
      });
      // onListen is the receiver's code too: its throw is logged, and listen still answers.
      await db.listen(
        'skiff_test',
        () => {},
        () => {
          throw new Error('onListen broke');
        },
      );
      await db.notify('skiff_test', 'throw');
      await db.notify('skiff_test', 'next');
      await vi.waitFor(() => expect(got).toEqual(['throw', 'next']));
      await vi.waitFor(() =>
        expect(entries.filter((e) => e.level === LEVEL.error)).toEqual([
          expect.objectContaining({ channel: 'skiff_test', err: 'onListen broke', msg: 'a listener failed' }),
          expect.objectContaining({ channel: 'skiff_test', err: 'listener broke', msg: 'a listener failed' }),
          expect.objectContaining({
            channel: 'skiff_test',
            err: 'async listener broke',
            msg: 'a listener failed',
          }),
        ]),
      );
    },
  );

  it.skipIf(skip !== undefined)('after close, notify is dropped and no lease is granted', async () => {
    const db = await open();
    const got: string[] = [];
    await db.listen('skiff_test', (p) => got.push(p));
    await db.close();
    await db.notify('skiff_test', 'late');
    expect(await db.tryLease('recorder:late')).toBeNull();
    expect(got).toEqual([]);
  });

  it.skipIf(skip !== undefined)(
    `answers $name statements as the stores write them${skip ? ` (skipped: ${skip})` : ''}`,
    async () => {
      const db = await fresh();
      expect(db.dialect).toBe(name);
      expect(await db.run(insert, { key: 'signingKey', value: '{"k":1}' })).toBe(1);
      const upsert = `${insert} ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
      expect(await db.run(upsert, { key: 'signingKey', value: '{"k":2}' })).toBe(1);
      expect(await db.run(`${insert} ON CONFLICT DO NOTHING`, { key: 'signingKey', value: 'ignored' })).toBe(
        0,
      );
      expect(await db.all('SELECT key, value FROM auth_meta')).toEqual([
        { key: 'signingKey', value: '{"k":2}' },
      ]);
      expect(await db.get('SELECT value FROM auth_meta WHERE key = $key', { key: 'none' })).toBeUndefined();
      expect(
        await db.all(
          `INSERT INTO activity (activity_id, type, at, account_id) VALUES ($id, 'login', $at, $id || '-acc')
         RETURNING seq, at, account_id`,
          { id: 'a1', at: 1_780_000_000_123 },
        ),
      ).toEqual([{ seq: 1, at: 1_780_000_000_123, account_id: 'a1-acc' }]);
      expect(await db.get('SELECT count(*) AS n FROM activity')).toEqual({ n: 1 });
      // A placeholder without a value is a mistake on both, never a NULL.
      await expect(db.get('SELECT $given AS a, $missing AS b', { given: 1 })).rejects.toThrow(
        'no value for $missing',
      );
      await expect(db.all('SELECT $missing AS b')).rejects.toThrow('no value for $missing');
      await expect(db.run('DELETE FROM activity WHERE seq = $missing')).rejects.toThrow(
        'no value for $missing',
      );
      expect(await db.get('SELECT count(*) AS n FROM activity')).toEqual({ n: 1 });
      expect(SCHEMA_VERSION).toBeGreaterThan(0);
    },
  );

  it.skipIf(skip !== undefined)(
    'commits a transaction whole, and rolls one back whole when it throws',
    async () => {
      const db = await fresh();
      expect(
        await db.transaction('two', async (tx) => {
          await tx.run(insert, { key: 'a', value: '1' });
          await tx.run(insert, { key: 'b', value: '2' });
        }),
      ).toBe(true);
      await expect(
        db.transaction('fails', async (tx) => {
          await tx.run(insert, { key: 'c', value: '3' });
          expect(await tx.get('SELECT value FROM auth_meta WHERE key = $key', { key: 'c' })).toEqual({
            value: '3',
          });
          await tx.run(insert, { key: 'a', value: 'duplicate' });
        }),
      ).rejects.toThrow(/UNIQUE|duplicate key/);
      expect(await db.all('SELECT key FROM auth_meta ORDER BY key')).toEqual([{ key: 'a' }, { key: 'b' }]);
    },
  );

  it.skipIf(skip !== undefined)('never shows another caller a transaction’s uncommitted write', async () => {
    const db = await fresh();
    let inside!: () => void;
    const entered = new Promise<void>((r) => {
      inside = r;
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const tx = db.transaction('held open', async (t) => {
      await t.run(insert, { key: 'uncommitted', value: 'x' });
      inside();
      await gate;
      throw new Error('rolled back on purpose');
    });
    await entered;
    // Started while the transaction is open: it must not see the row, now or after the rollback.
    const read = db.get('SELECT value FROM auth_meta WHERE key = $key', { key: 'uncommitted' });
    release();
    await expect(tx).rejects.toThrow('rolled back on purpose');
    expect(await read).toBeUndefined();
    // And the backend is usable afterwards.
    expect(await db.run(insert, { key: 'after', value: 'y' })).toBe(1);
  });

  it.skipIf(skip !== undefined)('drops writes once sealed and logs each, reads still answering', async () => {
    const { logger: log, entries } = recordingLogger();
    const db = await fresh(log);
    expect(db.where).toMatch(
      name === 'sqlite' ? /^:memory:$/ : /^postgres:\/\/skiff@127\.0\.0\.1:\d+\/t\d+_\d+$/,
    );
    await db.run(insert, { key: 'before', value: 'x' });
    db.seal();
    expect(db.isSealed).toBe(true);
    let ran = false;
    expect(
      await db.transaction('late', async () => {
        ran = true;
      }),
    ).toBe(false);
    expect(ran).toBe(false);
    expect(await db.run(insert, { key: 'late', value: 'x' })).toBe(0);
    expect(await db.all('SELECT key FROM auth_meta')).toEqual([{ key: 'before' }]);
    expect(entries.filter((e) => e.level === LEVEL.warn)).toEqual([
      expect.objectContaining({
        where: db.where,
        write: 'late',
        msg: 'write after the service closed was dropped',
      }),
      expect.objectContaining({
        where: db.where,
        write: 'statement',
        msg: 'write after the service closed was dropped',
      }),
    ]);
  });

  it.skipIf(skip !== undefined)(
    'seals at once on close: a write asked while close waits is dropped',
    async () => {
      const db = await open();
      const closed = db.close();
      expect(db.isSealed).toBe(true);
      expect(await db.run(insert, { key: 'late', value: 'x' })).toBe(0);
      await closed;
    },
  );

  it.skipIf(skip !== undefined)('closes after a transaction in flight, which commits', async () => {
    const db = await open();
    const tx = db.transaction('in flight', async (t) => {
      await t.run(insert, { key: 'k', value: 'v' });
    });
    const closed = db.close();
    expect(await tx).toBe(true);
    await closed;
    await expect(db.get('SELECT 1 AS one')).rejects.toThrow();
  });
});

describe('leases on sqlite: one process is the whole service', () => {
  it('grants every lease, never loses one, and release is harmless', async () => {
    const [a, b] = await backends[0]!.openTwo();
    try {
      const one = await a.tryLease('recorder:c1');
      const two = await b.tryLease('recorder:c1');
      expect(one?.key).toBe('recorder:c1');
      expect(two?.key).toBe('recorder:c1');
      let lost = false;
      void one!.lost.then(() => {
        lost = true;
      });
      await one!.release();
      await two!.release();
      await new Promise((r) => setTimeout(r, 20));
      expect(lost).toBe(false);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe.skipIf(postgresSkipReason !== undefined)(
  `leases on postgres: one holder across replicas${postgresSkipReason ? ` (skipped: ${postgresSkipReason})` : ''}`,
  () => {
    const openTwo = () => backends[1]!.openTwo();
    /** The pids of the sessions holding an advisory lock on this database. */
    const holders = (db: StorageBackend) =>
      db.all<{ pid: number }>(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND database =
           (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );

    it('is refused to a second replica while held, and granted once the holder releases it', async () => {
      const [a, b] = await openTwo();
      try {
        const held = await a.tryLease('recorder:c1');
        expect(held?.key).toBe('recorder:c1');
        expect(await b.tryLease('recorder:c1')).toBeNull();
        // The same replica asking again is a second holder too: refused.
        expect(await a.tryLease('recorder:c1')).toBeNull();
        // Another key is another lease.
        const other = await b.tryLease('recorder:c2');
        expect(other?.key).toBe('recorder:c2');
        expect(await holders(a)).toHaveLength(2);
        let lost = false;
        void held!.lost.then(() => {
          lost = true;
        });
        await held!.release();
        const taken = await b.tryLease('recorder:c1');
        expect(taken?.key).toBe('recorder:c1');
        expect(lost).toBe(false);
        // Refused answers leave no connection behind: only the two held leases remain.
        expect(await holders(a)).toHaveLength(2);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('is granted to another replica once the holder closes, at once', async () => {
      const [a, b] = await openTwo();
      try {
        expect(await a.tryLease('recorder:c1')).not.toBeNull();
        expect(await b.tryLease('recorder:c1')).toBeNull();
        await a.close();
        expect((await b.tryLease('recorder:c1'))?.key).toBe('recorder:c1');
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('is lost when its connection is killed: lost resolves and another replica takes it', async () => {
      const [a, b] = await openTwo();
      try {
        const held = await a.tryLease('recorder:c1');
        expect(held).not.toBeNull();
        expect(await b.tryLease('recorder:c1')).toBeNull();
        const [holder] = await holders(b);
        expect(await b.get('SELECT pg_terminate_backend($pid) AS killed', { pid: holder!.pid })).toEqual({
          killed: true,
        });
        await held!.lost;
        await vi.waitFor(async () => expect((await b.tryLease('recorder:c1'))?.key).toBe('recorder:c1'), {
          timeout: 10_000,
          interval: 50,
        });
        // Release after loss is harmless.
        await held!.release();
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('hears another replica’s notify, and listens again after its connection is killed', async () => {
      const [a, b] = await openTwo();
      try {
        const got: string[] = [];
        let listened = 0;
        await a.listen(
          'skiff_test',
          (p) => got.push(p),
          () => {
            listened++;
          },
        );
        await vi.waitFor(() => expect(listened).toBe(1));
        await b.notify('skiff_test', 'from b');
        await vi.waitFor(() => expect(got).toEqual(['from b']));
        const listeners = await b.all<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'listen%'`,
        );
        expect(listeners).toHaveLength(1);
        await b.get('SELECT pg_terminate_backend($pid) AS killed', { pid: listeners[0]!.pid });
        // Re-subscribed on a new connection; onListen tells the receiver to re-read what it missed.
        await vi.waitFor(() => expect(listened).toBe(2), { timeout: 15_000, interval: 50 });
        await b.notify('skiff_test', 'after reconnect');
        await vi.waitFor(() => expect(got).toEqual(['from b', 'after reconnect']), { timeout: 10_000 });
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  },
);
