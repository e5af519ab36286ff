import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StorageBackend } from '../storage/backend';
import { postgresSkipReason } from '../storage/postgres.test-support';
import { openBackend, openPostgres, postgresUrl, withPostgres } from './backends.test-support';
import { AUTH_CHANNEL, type AuthChangeKind, ReplicaSync } from './replica-sync';

/**
 * What replicas tell each other (replica-sync.ts), over a real PostgreSQL's LISTEN/NOTIFY, and that
 * SQLite sends and hears nothing. Waits poll for what must arrive, with a generous bound.
 */

withPostgres();

const SEEN = { timeout: 10_000, interval: 20 };
const started: ReplicaSync[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop()));
});

/** A sync over `backend` whose handlers record what they were asked. */
async function recording(backend: StorageBackend, reloadMs?: number, failing = false) {
  const warnings: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) });
  const sync = new ReplicaSync(backend, logger, reloadMs);
  const changes: Array<[AuthChangeKind, string]> = [];
  let reloads = 0;
  started.push(sync);
  await sync.start({
    async changed(kind, id) {
      changes.push([kind, id]);
      if (failing) throw new Error('the table is out of reach');
    },
    async reloadAll() {
      reloads++;
      if (failing) throw new Error('the table is out of reach');
    },
  });
  return { sync, changes, warnings, reloads: () => reloads };
}

/** Every payload on the channel, as a third party hears it. */
async function overhear(backend: StorageBackend) {
  const heard: string[] = [];
  const stop = await backend.listen(AUTH_CHANNEL, (p) => heard.push(p));
  return { heard, stop };
}

describe.skipIf(postgresSkipReason)('on PostgreSQL', () => {
  it('a change on one replica reaches the others, named by kind and id, and not itself', async () => {
    const url = await postgresUrl();
    const a = await recording(await openPostgres(url));
    const b = await recording(await openPostgres(url));
    expect(a.sync.shared).toBe(true);
    await a.sync.changed('session', 'sess 1');
    await a.sync.changed('api_key', 'key-1');
    await b.sync.changed('account', 'acc-1');
    await a.sync.changed('account_sessions', 'acc-2');
    await vi.waitFor(
      () =>
        expect(b.changes).toEqual([
          ['session', 'sess 1'],
          ['api_key', 'key-1'],
          ['account_sessions', 'acc-2'],
        ]),
      SEEN,
    );
    await vi.waitFor(() => expect(a.changes).toEqual([['account', 'acc-1']]), SEEN);
  });

  it('says what changed and who said it, never more', async () => {
    const url = await postgresUrl();
    const a = await recording(await openPostgres(url));
    const ear = await overhear(await openPostgres(url));
    await a.sync.changed('session', 'sess-9');
    await vi.waitFor(() => expect(ear.heard).toHaveLength(1), SEEN);
    expect(ear.heard[0]).toMatch(/^\S+ session sess-9$/);
    await ear.stop();
  });

  it('ignores a payload that names no known kind or no id', async () => {
    const url = await postgresUrl();
    const backend = await openPostgres(url);
    const b = await recording(await openPostgres(url));
    for (const p of ['x session', 'x toaster t-1', 'x', 'x session ', 'y account acc-3'])
      await backend.notify(AUTH_CHANNEL, p);
    await vi.waitFor(() => expect(b.changes).toEqual([['account', 'acc-3']]), SEEN);
  });

  it('re-reads everything when it starts listening, and again every period', async () => {
    const url = await postgresUrl();
    const a = await recording(await openPostgres(url), 50);
    await vi.waitFor(() => expect(a.reloads()).toBeGreaterThanOrEqual(3), SEEN);
  });

  it('once stopped, sends nothing and hears nothing', async () => {
    const url = await postgresUrl();
    const a = await recording(await openPostgres(url));
    const b = await recording(await openPostgres(url));
    const ear = await overhear(await openPostgres(url));
    await b.sync.stop();
    await a.sync.changed('session', 'sess-before');
    await vi.waitFor(() => expect(ear.heard).toHaveLength(1), SEEN);
    await a.sync.stop();
    await a.sync.changed('session', 'sess-after');
    // A marker sent after: once it is heard, anything sent before it would have been too.
    await (await openPostgres(url)).notify(AUTH_CHANNEL, 'z account marker');
    await vi.waitFor(() => expect(ear.heard).toHaveLength(2), SEEN);
    expect(ear.heard[1]).toBe('z account marker');
    expect(b.changes).toEqual([]);
    await ear.stop();
  });
});

describe.skipIf(postgresSkipReason)('on PostgreSQL, what goes wrong', () => {
  it('a notification that cannot be sent is logged with what changed, not thrown: the write has committed', async () => {
    const a = await recording(await openPostgres(await postgresUrl()));
    // PostgreSQL refuses a payload of 8000 bytes or more.
    const id = 'x'.repeat(9_000);
    await expect(a.sync.changed('session', id)).resolves.toBeUndefined();
    expect(a.warnings).toEqual([
      expect.objectContaining({
        kind: 'session',
        id,
        err: expect.any(Object),
        msg: 'could not tell the other replicas of an auth change',
      }),
    ]);
  });

  it('a re-read that fails is logged, and the next notification is still heard', async () => {
    const url = await postgresUrl();
    const a = await recording(await openPostgres(url));
    const b = await recording(await openPostgres(url), undefined, true);
    await a.sync.changed('session', 'sess-1');
    await a.sync.changed('session', 'sess-2');
    await vi.waitFor(() => expect(b.changes).toHaveLength(2), SEEN);
    await vi.waitFor(
      () => expect(b.warnings.filter((w) => w.msg === 'could not re-read auth state')).toHaveLength(3),
      SEEN,
    );
    expect(b.warnings[0]).toMatchObject({
      err: expect.objectContaining({ message: 'the table is out of reach' }),
    });
  });

  it('re-reads everything as soon as it listens, before any period has passed', async () => {
    const a = await recording(await openPostgres(await postgresUrl()), 3_600_000);
    await vi.waitFor(() => expect(a.reloads()).toBe(1), SEEN);
  });

  it('stops re-reading when stopped', async () => {
    const a = await recording(await openPostgres(await postgresUrl()), 20);
    await vi.waitFor(() => expect(a.reloads()).toBeGreaterThanOrEqual(2), SEEN);
    await a.sync.stop();
    const after = a.reloads();
    await new Promise((r) => setTimeout(r, 200));
    expect(a.reloads()).toBe(after);
  });
});

describe('on SQLite', () => {
  it('is one process: nothing is sent, nothing listened to, nothing re-read', async () => {
    const backend = await openBackend('sqlite');
    const ear = await overhear(backend);
    const a = await recording(backend, 10);
    expect(a.sync.shared).toBe(false);
    await a.sync.changed('session', 'sess-1');
    await new Promise((r) => setTimeout(r, 50));
    expect(ear.heard).toEqual([]);
    expect(a.reloads()).toBe(0);
    await ear.stop();
  });
});

describe.skipIf(postgresSkipReason)('on PostgreSQL, the order of reads', () => {
  const shared = async (reloadMs?: number) => {
    const sync = new ReplicaSync(
      await openPostgres(await postgresUrl()),
      pino({ level: 'silent' }),
      reloadMs,
    );
    started.push(sync);
    return sync;
  };
  /** A read that answers `value` once `release` is called; `stamp` is known as it is issued. */
  const pending = <T>(sync: ReplicaSync, value: T) => {
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const read = sync.read(async () => {
      await gate;
      return value;
    });
    return { read, release };
  };

  it('a row read before a newer read of it was applied is refused; the newer one and other rows are not', async () => {
    const sync = await shared();
    const older = pending(sync, 'old');
    const newer = pending(sync, 'new');
    newer.release();
    const n = await newer.read;
    expect(sync.accepts('session', 's1', n.stamp)).toBe(true);
    older.release();
    const o = await older.read;
    expect(o.stamp).toBeLessThan(n.stamp);
    expect(sync.accepts('session', 's1', o.stamp)).toBe(false);
    expect(sync.accepts('session', 's2', o.stamp)).toBe(true);
    expect(sync.accepts('api_key', 's1', o.stamp)).toBe(true);
    // The same read may apply its row more than once (reloadAll checks before dropping and merging).
    expect(sync.accepts('session', 's1', n.stamp)).toBe(true);
  });

  it('a write made here after a read was issued wins over that read, and a read issued after it does not', async () => {
    const sync = await shared();
    const before = pending(sync, 'before');
    await sync.changed('account', 'a1');
    before.release();
    expect(sync.accepts('account', 'a1', (await before.read).stamp)).toBe(false);
    const after = await sync.read(async () => 'after');
    expect(sync.accepts('account', 'a1', after.stamp)).toBe(true);
  });

  it('the stamps older than every read in flight are dropped at the period; one a read in flight needs is kept', async () => {
    const sync = await shared(50);
    await sync.start({ changed: async () => {}, reloadAll: async () => {} });
    const done = await sync.read(async () => 'y');
    expect(sync.accepts('session', 'dropped', done.stamp)).toBe(true); // older than any read in flight
    const inFlight = pending(sync, 'x');
    await sync.changed('session', 'kept'); // newer than the read in flight: it must still refuse it
    const map = (sync as unknown as { applied: Map<string, number> }).applied;
    await vi.waitFor(() => expect(map.has('session dropped')).toBe(false), SEEN);
    expect(map.has('session kept')).toBe(true);
    inFlight.release();
    expect(sync.accepts('session', 'kept', (await inFlight.read).stamp)).toBe(false);
  });
});

describe('on SQLite, the order of reads', () => {
  it('accepts every read: memory there takes every write and nothing is re-read', async () => {
    const sync = new ReplicaSync(await openBackend('sqlite'), pino({ level: 'silent' }));
    const old = await sync.read(async () => 1);
    await sync.changed('session', 's1');
    expect(sync.accepts('session', 's1', old.stamp)).toBe(true);
    expect(await sync.read(async () => 'value')).toEqual({ stamp: old.stamp + 1, value: 'value' });
  });
});
