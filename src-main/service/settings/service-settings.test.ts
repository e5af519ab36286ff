import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { AppDatabase } from '../storage/database';
import { postgresSkipReason, startPostgres, type TestPostgres } from '../storage/postgres.test-support';
import { openPostgresBackend } from '../storage/postgres-backend';
import { SqliteBackend } from '../storage/sqlite-backend';
import { type KeyValueStore, memoryStore } from '../storage/store';
import { SETTINGS_MARKER, ServiceSettings } from './service-settings';

/**
 * The service's settings in the database (service-settings.ts) on both backends: copied from the
 * conf file once, written in order behind memory, a failed write told to saved() with memory put
 * back, and another replica's write heard.
 */

const logger = silentLogger();
let pg: TestPostgres | undefined;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  if (!postgresSkipReason) pg = await startPostgres();
});
afterAll(async () => {
  try {
    for (const close of closers) await close();
  } finally {
    await pg?.stop();
  }
});

type Open = (
  confs: [KeyValueStore?, KeyValueStore?],
) => Promise<[ServiceSettings, ServiceSettings, StorageBackend]>;

const backends: { name: string; skip: string | undefined; open: Open }[] = [
  {
    name: 'sqlite',
    skip: undefined,
    open: async ([c1, c2]) => {
      const db = AppDatabase.open(':memory:', logger);
      const backend = new SqliteBackend(db, logger);
      const a = ServiceSettings.openSqlite({ db, backend, conf: c1, logger });
      const b = ServiceSettings.openSqlite({ db, backend, conf: c2, logger });
      closers.push(async () => {
        await Promise.all([a.close(), b.close()]);
        await backend.close();
      });
      return [a, b, backend];
    },
  },
  {
    name: 'postgres',
    skip: postgresSkipReason,
    open: async ([c1, c2]) => {
      const url = await pg!.createDatabase();
      const one = await openPostgresBackend(url, logger, { max: 2 });
      const two = await openPostgresBackend(url, logger, { max: 2 });
      const a = await ServiceSettings.open({ backend: one, conf: c1, logger });
      const b = await ServiceSettings.open({ backend: two, conf: c2, logger });
      closers.push(async () => {
        await Promise.all([a.close(), b.close()]);
        await Promise.all([one.close(), two.close()]);
      });
      return [a, b, one];
    },
  },
];

const conf = (value: unknown) => {
  const s = memoryStore();
  s.set('appSettings', value);
  s.set('workspaceConfig', { workspaces: [] });
  return s;
};

describe.each(backends)('service settings on $name', ({ skip, open }) => {
  it.skipIf(skip !== undefined)('copies appSettings from the conf file once, and nothing else', async () => {
    const [a, b, backend] = await open([conf({ accessTokenMinutes: 30 }), conf({ accessTokenMinutes: 50 })]);
    expect(a.get('appSettings')).toEqual({ accessTokenMinutes: 30 });
    expect(b.get('appSettings')).toEqual({ accessTokenMinutes: 30 });
    expect(a.get('workspaceConfig')).toBeUndefined();
    expect(a.get(SETTINGS_MARKER)).toBeUndefined();
    expect(await backend.all('SELECT key FROM service_settings ORDER BY key')).toEqual([
      { key: 'appSettings' },
      { key: SETTINGS_MARKER },
    ]);
    expect(a.path).toContain('(service_settings)');
  });

  it.skipIf(skip !== undefined)('writes behind memory, in order, and another replica hears it', async () => {
    const [a, b] = await open([undefined, undefined]);
    await b.start();
    a.set('appSettings', { refreshTokenDays: 1 });
    a.set('appSettings', { refreshTokenDays: 2 });
    expect(a.get('appSettings')).toEqual({ refreshTokenDays: 2 });
    await a.saved();
    await vi.waitFor(() => expect(b.get('appSettings')).toEqual({ refreshTokenDays: 2 }), { timeout: 5_000 });
    a.delete('appSettings');
    await a.saved();
    await vi.waitFor(() => expect(b.get('appSettings')).toBeUndefined(), { timeout: 5_000 });
    // What get answers is a copy: changing it changes nothing stored.
    a.set('k', { n: 1 });
    (a.get('k') as { n: number }).n = 2;
    expect(a.get('k')).toEqual({ n: 1 });
  });

  it.skipIf(skip !== undefined)(
    'a write refused once closed rejects saved(), memory back to what is stored',
    async () => {
      const [a, , backend] = await open([conf({ accessTokenMinutes: 30 }), undefined]);
      backend.seal();
      a.set('appSettings', { accessTokenMinutes: 60 });
      await expect(a.saved()).rejects.toThrow('the service is closing: the setting was not saved');
      expect(a.get('appSettings')).toEqual({ accessTokenMinutes: 30 });
    },
  );
});
