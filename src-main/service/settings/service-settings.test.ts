import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LEVEL, recordingLogger } from '../http/recording-logger.test-support';
import { type Logger, silentLogger } from '../logger';
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
  log?: Logger,
) => Promise<[ServiceSettings, ServiceSettings, StorageBackend]>;

const backends: { name: string; skip: string | undefined; open: Open }[] = [
  {
    name: 'sqlite',
    skip: undefined,
    open: async ([c1, c2], log = logger) => {
      const db = AppDatabase.open(':memory:', log);
      const backend = new SqliteBackend(db, log);
      const a = ServiceSettings.openSqlite({ db, backend, conf: c1, logger: log });
      const b = ServiceSettings.openSqlite({ db, backend, conf: c2, logger: log });
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
    open: async ([c1, c2], log = logger) => {
      const url = await pg!.createDatabase();
      const one = await openPostgresBackend(url, log, { max: 2 });
      const two = await openPostgresBackend(url, log, { max: 2 });
      const a = await ServiceSettings.open({ backend: one, conf: c1, logger: log });
      const b = await ServiceSettings.open({ backend: two, conf: c2, logger: log });
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
    expect(await backend.all('SELECT key, value FROM service_settings ORDER BY key')).toEqual([
      { key: 'appSettings', value: '{"accessTokenMinutes":30}' },
      { key: SETTINGS_MARKER, value: 'true' },
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
    expect(a.get('appSettings')).toBeUndefined();
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
      const { logger: log, entries } = recordingLogger();
      const [a, , backend] = await open([conf({ accessTokenMinutes: 30 }), undefined], log);
      backend.seal();
      a.set('appSettings', { accessTokenMinutes: 60 });
      await expect(a.saved()).rejects.toThrow('the service is closing: the setting was not saved');
      expect(a.get('appSettings')).toEqual({ accessTokenMinutes: 30 });
      await vi.waitFor(() =>
        expect(entries.filter((e) => e.level === LEVEL.warn)).toContainEqual(
          expect.objectContaining({
            key: 'appSettings',
            err: 'the service is closing: the setting was not saved',
            msg: 'a setting could not be saved',
          }),
        ),
      );
    },
  );

  it.skipIf(skip !== undefined)('copies nothing from a conf file without settings', async () => {
    const empty = memoryStore();
    empty.set('workspaceConfig', { workspaces: [] });
    const [a, , backend] = await open([empty, undefined]);
    expect(a.get('appSettings')).toBeUndefined();
    expect(await backend.all('SELECT key FROM service_settings ORDER BY key')).toEqual([
      { key: SETTINGS_MARKER },
    ]);
  });

  it.skipIf(skip !== undefined)('reads again when it starts listening, and not once closed', async () => {
    const [, b, backend] = await open([undefined, undefined]);
    const put = (value: string) =>
      backend.run(
        "INSERT INTO service_settings (key, value, updated_at) VALUES ('k', $value, 0) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        { value },
      );
    // Written behind its back, with no notification: read when it starts listening.
    await put('1');
    await b.start(600_000);
    await vi.waitFor(() => expect(b.get('k')).toBe(1), { timeout: 5_000 });
    await b.close();
    await put('3');
    await b.reread();
    expect(b.get('k')).toBe(1);
  });

  it.skipIf(skip !== undefined)(
    're-reads on its own every so often, in case a notification was lost',
    async () => {
      const [, b, backend] = await open([undefined, undefined]);
      await b.start(50);
      await backend.run("INSERT INTO service_settings (key, value, updated_at) VALUES ('k', '2', 0)");
      await vi.waitFor(() => expect(b.get('k')).toBe(2), { timeout: 5_000 });
    },
  );

  it.skipIf(skip !== undefined)(
    'keeps the last read when the database does not answer, and says so',
    async () => {
      const { logger: log, entries } = recordingLogger();
      const [a, , backend] = await open([conf({ accessTokenMinutes: 30 }), undefined], log);
      await backend.close();
      await a.reread();
      expect(a.get('appSettings')).toEqual({ accessTokenMinutes: 30 });
      expect(entries.filter((e) => e.level === LEVEL.warn)).toEqual([
        expect.objectContaining({
          err: expect.any(String),
          msg: 'settings could not be read again; keeping the last read',
        }),
      ]);
    },
  );
});
