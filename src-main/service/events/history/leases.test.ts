/**
 * The recorder leases of a replica (leases.ts) on real databases: SQLite, where one process is the
 * whole service and every lease is granted, and two replicas on one real PostgreSQL database,
 * where one holds a cluster's lease and the other takes it when it is given back, lost or unwanted.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, silentLogger } from '../../logger';
import type { StorageBackend } from '../../storage/backend';
import type { TestPostgres } from '../../storage/postgres.test-support';
import { openPostgresBackend } from '../../storage/postgres-backend';
import { BACKENDS, becomes, openBackend, postgresPerFile } from './history.test-support';
import { RecorderLeases, recorderLeaseKey } from './leases';

const WARN = 40;

/** A real logger whose lines are kept, parsed. */
function recordingLogger() {
  const entries: Array<Record<string, unknown>> = [];
  const logger = createLogger('debug', { write: (line: string) => void entries.push(JSON.parse(line)) });
  return { logger, entries };
}

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close().catch(() => {});
});

interface Rig {
  leases: RecorderLeases;
  backend: StorageBackend;
  taken: string[];
  lost: string[];
}

function rig(backend: StorageBackend, retryMs = 20, logger = silentLogger()): Rig {
  const r: Rig = {
    backend,
    taken: [],
    lost: [],
    leases: new RecorderLeases({
      backend,
      retryMs,
      logger,
      onTaken: (c) => r.taken.push(c),
      onLost: (c) => r.lost.push(c),
    }),
  };
  closing.push(() => r.leases.releaseAll());
  return r;
}

it('names a lease after its cluster, the same on every replica', () => {
  expect(recorderLeaseKey('prod-eu')).toBe('recorder:prod-eu');
});

describe('on sqlite', () => {
  it('grants every wanted lease at once, and lists the held clusters sorted', async () => {
    const { backend, close } = await openBackend('sqlite');
    closing.push(close);
    const r = rig(backend);
    expect(r.leases.holds('b')).toBe(false);
    await r.leases.want('b');
    await r.leases.want('a');
    expect([r.leases.holds('a'), r.leases.holds('b'), r.leases.holds('c')]).toEqual([true, true, false]);
    expect(r.leases.clusters()).toEqual(['a', 'b']);
    expect(r.taken).toEqual(['b', 'a']);
    // Wanting a held lease again asks nothing more.
    await r.leases.want('a');
    expect(r.taken).toEqual(['b', 'a']);
  });

  it('gives a lease back when the cluster is no longer wanted, and every lease at releaseAll, then takes none', async () => {
    const { backend, close } = await openBackend('sqlite');
    closing.push(close);
    const r = rig(backend);
    await r.leases.want('a');
    await r.leases.want('b');
    await r.leases.unwant('a');
    expect(r.leases.clusters()).toEqual(['b']);
    await r.leases.releaseAll();
    expect(r.leases.clusters()).toEqual([]);
    await r.leases.want('c');
    expect(r.leases.holds('c')).toBe(false);
    expect(r.lost).toEqual([]);
  });

  it('runs work under a lease held, or one taken for it alone, but not for a cluster wanted and not yet held', async () => {
    const { backend, close } = await openBackend('sqlite');
    closing.push(close);
    const r = rig(backend);
    await r.leases.want('mine');
    const ran: string[] = [];
    expect(await r.leases.whileHeld('mine', async () => void ran.push('mine'))).toBe(true);
    expect(await r.leases.whileHeld('nobody', async () => void ran.push('nobody'))).toBe(true);
    // Taken for the work alone: not held after it.
    expect(r.leases.holds('nobody')).toBe(false);
    await r.leases.releaseAll();
    expect(await r.leases.whileHeld('later', async () => void ran.push('later'))).toBe(false);
    expect(ran).toEqual(['mine', 'nobody']);
  });

  it('asks once for a cluster wanted twice before the answer came', async () => {
    const { backend, close } = await openBackend('sqlite');
    closing.push(close);
    const r = rig(backend);
    await Promise.all([r.leases.want('a'), r.leases.want('a')]);
    expect(r.taken).toEqual(['a']);
  });

  it('work asked for while the lease is on its way waits for the answer', async () => {
    const { backend, close } = await openBackend('sqlite');
    closing.push(close);
    const r = rig(backend);
    const asked = r.leases.want('a');
    expect(await r.leases.whileHeld('a', async () => {})).toBe(true);
    await asked;
  });

  it('a lease answered after its cluster stopped being wanted is given back, not kept', async () => {
    const { backend, close } = await openBackend('sqlite');
    closing.push(close);
    const r = rig(backend);
    const asked = r.leases.want('a');
    await r.leases.unwant('a');
    await asked;
    expect(r.leases.holds('a')).toBe(false);
    expect(r.taken).toEqual([]);
  });
});

const skip = BACKENDS.find((b) => b.kind === 'postgres')!.skip;

describe.skipIf(skip !== undefined)('on postgres: two replicas on one database', () => {
  const server = postgresPerFile();
  let pg: TestPostgres;
  beforeAll(async () => {
    pg = await server();
  });

  async function twoReplicas(retryMs = 20) {
    const url = await pg.createDatabase();
    const open = async () => {
      const b = await openPostgresBackend(url, silentLogger(), { max: 2 });
      closing.push(() => b.close());
      return b;
    };
    return { url, one: rig(await open(), retryMs), two: rig(await open(), retryMs) };
  }

  /** The server process holding the database's one advisory lock. */
  const holderPid = async (b: StorageBackend) => {
    const rows = await b.all<{ pid: number }>(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(rows).toHaveLength(1);
    return rows[0]!.pid;
  };

  it('one replica holds a cluster; the other takes it once it is given back', async () => {
    const { one, two } = await twoReplicas();
    await one.leases.want('c1');
    await two.leases.want('c1');
    expect([one.leases.holds('c1'), two.leases.holds('c1')]).toEqual([true, false]);
    expect(await two.leases.whileHeld('c1', async () => {})).toBe(false);
    await one.leases.releaseAll();
    expect(await becomes(() => two.leases.holds('c1'))).toBe(true);
    expect(two.taken).toEqual(['c1']);
    expect([one.lost, two.lost]).toEqual([[], []]);
  });

  it('a lease still on its way when every lease is given back is given back too before releaseAll answers', async () => {
    const { one, two } = await twoReplicas();
    const asked = one.leases.want('c1');
    await one.leases.releaseAll();
    expect(await two.leases.whileHeld('c1', async () => {})).toBe(true);
    await asked;
    expect(one.leases.holds('c1')).toBe(false);
  });

  it('an unwanted lease is given back at once, and the other replica takes it', async () => {
    const { one, two } = await twoReplicas();
    await one.leases.want('c1');
    await two.leases.want('c1');
    await one.leases.unwant('c1');
    expect(one.leases.holds('c1')).toBe(false);
    expect(await becomes(() => two.leases.holds('c1'))).toBe(true);
  });

  it('work for a cluster nobody records runs under a lease taken for it alone, and not while another holds it', async () => {
    const { one, two } = await twoReplicas();
    let inside: boolean | undefined;
    expect(
      await one.leases.whileHeld('idle', async () => {
        // While the work runs, the lease is taken: the other replica cannot have it.
        inside = await two.leases.whileHeld('idle', async () => {});
      }),
    ).toBe(true);
    expect(inside).toBe(false);
    // Given back after the work.
    expect(await two.leases.whileHeld('idle', async () => {})).toBe(true);
  });

  it('a lease whose session the server ends is reported lost, and taken again by whoever asks first', async () => {
    const { one, two } = await twoReplicas();
    const log = recordingLogger();
    const three = rig(one.backend, 20, log.logger);
    await three.leases.want('c1');
    await two.leases.want('c1');
    expect(three.leases.holds('c1')).toBe(true);
    await two.backend.all('SELECT pg_terminate_backend($pid) AS done', { pid: await holderPid(two.backend) });
    expect(await becomes(() => three.lost.length === 1)).toBe(true);
    expect(three.lost).toEqual(['c1']);
    expect(log.entries).toContainEqual(
      expect.objectContaining({ level: WARN, clusterId: 'c1', msg: expect.stringContaining('lost') }),
    );
    // Both still want it: one of them holds it again.
    expect(await becomes(() => three.leases.holds('c1') !== two.leases.holds('c1'))).toBe(true);
    expect(three.taken.length + two.taken.length).toBe(2);
  });

  it('a lease that cannot be asked for (no connection to be had) is logged and asked for again', async () => {
    const { url, one } = await twoReplicas();
    const log = recordingLogger();
    const r = rig(one.backend, 20, log.logger);
    const dbName = new URL(url).pathname.slice(1);
    const admin = await openPostgresBackend(pg.url('postgres'), silentLogger(), { max: 1 });
    closing.push(() => admin.close());
    await admin.run(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS false`);
    await r.leases.want('c1');
    expect(r.leases.holds('c1')).toBe(false);
    expect(log.entries).toContainEqual(
      expect.objectContaining({ level: WARN, clusterId: 'c1', msg: expect.stringContaining('asking') }),
    );
    await admin.run(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`);
    expect(await becomes(() => r.leases.holds('c1'))).toBe(true);
  });
});
