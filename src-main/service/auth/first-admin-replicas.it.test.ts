/**
 * Replicas starting at the same moment on one empty PostgreSQL database (issue 25 §2): each finds
 * no account and makes the first administrator before it listens. Exactly one `admin` must come
 * of it, every replica must start, and the admin's password must work on each of them.
 *
 * The race is made certain, not left to timing: each replica's first read of the accounts table
 * hands its rows over only once both replicas have read (both saw it empty), so both go on to
 * create the administrator. Against a real server (storage/postgres.test-support.ts), never a mock.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createService, type Service } from '../index';
import { silentLogger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { openDatabaseStorage, type Storage } from '../storage/index';
import { postgresSkipReason } from '../storage/postgres.test-support';
import { login as loginOverHttp, TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import { openPostgres, postgresUrl, withPostgres } from './backends.test-support';
import { type AuthService, createAuth } from './index';
import { login } from './login';
import type { AdminCreatedInfo } from './options';
import { FAST_HASH } from './stack.test-support';

withPostgres();

const SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
const CLIENT = { address: '127.0.0.1', userAgent: 'first-admin-replicas-test' };
const logger = silentLogger();

/**
 * Wraps each of `n` backends so that its first read of the whole accounts table (what a starting
 * replica decides "first start" by) answers only once all `n` have read it.
 */
function togetherOnFirstRead(n: number): (b: StorageBackend) => StorageBackend {
  let arrived = 0;
  let allRead = () => {};
  const together = new Promise<void>((resolve) => (allRead = resolve));
  return (backend) => {
    let first = true;
    return new Proxy(backend, {
      get(target, prop, receiver) {
        if (prop !== 'all') return Reflect.get(target, prop, receiver);
        return async (sql: string, params?: Parameters<StorageBackend['all']>[1]) => {
          const rows = await target.all(sql, params);
          if (first && /FROM accounts ORDER BY/.test(sql)) {
            first = false;
            if (++arrived === n) allRead();
            await together;
          }
          return rows;
        };
      },
    });
  };
}

const running: AuthService[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((a) => a.close()));
});

async function startReplica(
  backend: StorageBackend,
  opts: { adminPassword?: string; told: AdminCreatedInfo[] },
) {
  const auth = createAuth({
    backend,
    logger,
    ...(opts.adminPassword !== undefined ? { adminPassword: opts.adminPassword } : {}),
    secretKey: SECRET_KEY,
    passwordCost: FAST_HASH,
    onAdminCreated: (info) => opts.told.push(info),
    geoipDb: false,
  });
  running.push(auth);
  await auth.ready;
  return auth.core();
}

async function accountRows(url: string) {
  const backend = await openPostgres(url);
  return backend.all<{ username: string; role: string }>('SELECT username, role FROM accounts');
}

describe.skipIf(postgresSkipReason)('replicas starting together on one empty PostgreSQL', () => {
  it('both start with the configured password, one admin exists, and it logs in on both', async () => {
    const url = await postgresUrl();
    const wrap = togetherOnFirstRead(2);
    const told: AdminCreatedInfo[] = [];
    const [a, b] = await Promise.all(
      [0, 1].map(async () =>
        startReplica(wrap(await openPostgres(url)), { adminPassword: TEST_ADMIN_PASSWORD, told }),
      ),
    );
    expect(await accountRows(url)).toEqual([{ username: 'admin', role: 'admin' }]);
    // Said once, by the replica that made it: the other found it made.
    expect(told).toEqual([{ username: 'admin' }]);
    for (const core of [a!, b!]) {
      expect(core.accounts.list().map((x) => x.username)).toEqual(['admin']);
      const session = await login(core, 'admin', TEST_ADMIN_PASSWORD, CLIENT);
      expect(session.accessToken).toBeTruthy();
    }
  });

  it('with a generated password, only the one that works is shown, and it logs in on both', async () => {
    const url = await postgresUrl();
    const wrap = togetherOnFirstRead(2);
    const told: AdminCreatedInfo[] = [];
    const [a, b] = await Promise.all(
      [0, 1].map(async () => startReplica(wrap(await openPostgres(url)), { told })),
    );
    expect(await accountRows(url)).toEqual([{ username: 'admin', role: 'admin' }]);
    // A password shown by the replica that lost would let nobody in.
    expect(told).toHaveLength(1);
    const password = told[0]!.generatedPassword!;
    expect(password).toBeTruthy();
    for (const core of [a!, b!]) {
      const session = await login(core, 'admin', password, CLIENT);
      expect(session.accessToken).toBeTruthy();
    }
  });
});

describe.skipIf(postgresSkipReason)('two services starting together on one empty PostgreSQL', () => {
  const services: Service[] = [];
  let url: string;
  beforeAll(async () => {
    url = await postgresUrl();
  });
  afterAll(async () => {
    await Promise.all(services.splice(0).map((s) => s.close()));
  });

  it('both listen, and the admin logs in over HTTP through each', async () => {
    const wrap = togetherOnFirstRead(2);
    const storages: Storage[] = await Promise.all(
      ['replica-a', 'replica-b'].map(async (replicaId) => {
        const storage = await openDatabaseStorage({ url, logger, replicaId });
        return { ...storage, backend: wrap(storage.backend) };
      }),
    );
    for (const storage of storages) {
      services.push(
        createService({
          storage,
          contexts: [],
          logger,
          adminPassword: TEST_ADMIN_PASSWORD,
          auth: { secretKey: SECRET_KEY, passwordCost: FAST_HASH, onAdminCreated: () => {} },
        }),
      );
    }
    const urls = await Promise.all(services.map(async (s) => (await s.listen(0, '127.0.0.1')).url));
    for (const base of urls) expect((await loginOverHttp(base)).accessToken).toBeTruthy();
    expect(await accountRows(url)).toEqual([{ username: 'admin', role: 'admin' }]);
  });
});
