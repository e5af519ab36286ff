import type { ClientDescription } from '../../../src-shared/contract/auth-models';
import { silentLogger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import type { AppDatabase } from '../storage/database';
import { ActivityLog } from './activity';
import { saveAccount } from './auth-tables';
import { memoryBackend } from './backends.test-support';
import { noReplicas } from './replica-sync';
import { SessionStore } from './sessions';
import { FakeClock } from './stack.test-support';
import type { StoredSession } from './state';

/**
 * Test support for the SessionStore unit tests (not itself a test): a store over an in-memory
 * database with real accounts and a real activity log, on a fake clock. Each test builds its own,
 * so that Stryker counts what the store does as covered by that test (not by a beforeAll).
 */

export const SECOND = 1_000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const CLIENT: ClientDescription = {
  clientType: 'script',
  device: { type: 'desktop', vendor: null, model: null },
  browser: { name: null, version: null },
  os: { name: null, version: null },
  location: {
    kind: 'loopback',
    label: 'This device',
    city: null,
    region: null,
    country: null,
    countryCode: null,
    network: null,
  },
};

export interface StoreFixture {
  db: AppDatabase;
  /** The same database as the stores see it. */
  backend: StorageBackend;
  clock: FakeClock;
  activity: ActivityLog;
  store: SessionStore;
  /** A second store over the same database: what the next start of the service would load. */
  reopen(): Promise<SessionStore>;
  /** Rotates `s` to `newHash` in `store` (another store: `on`), as the token issuer does; false if it lost. */
  rotate(s: StoredSession, newHash: string, idleMs: number, on?: SessionStore): Promise<boolean>;
  /** A session's row as the table holds it, or undefined when there is none. */
  row(sessionId: string): SessionRow | undefined;
  /** The refresh-token hashes the table keeps for a session, oldest generation first. */
  tokenRows(sessionId: string): string[];
  /** The types of the activity entries about a session, oldest first, with when they happened. */
  activityOf(sessionId: string): Promise<{ type: string; at: string }[]>;
  close(): void;
}

export interface SessionRow {
  status: string;
  last_seen_at: number;
  expires_at: number;
  ended_at: number | null;
  end_reason: string | null;
  refresh_hash: string;
  refresh_generation: number;
  refresh_previous_hash: string | null;
}

/** A store with the given accounts (by id) already in the accounts table. */
export async function openStore(accountIds: readonly string[] = ['alice', 'bob']): Promise<StoreFixture> {
  const clock = new FakeClock();
  const { db, backend } = memoryBackend();
  await backend.transaction('accounts', async (tx) => {
    for (const id of accountIds)
      await saveAccount(tx, {
        accountId: id,
        username: id,
        role: 'member',
        workspaces: [],
        passwordHash: 'x',
        createdAt: clock.now(),
        passwordChangedAt: clock.now(),
        source: 'local',
        groups: [],
      });
  });
  const activity = await ActivityLog.load(backend, clock.now);
  const sync = noReplicas(backend, silentLogger());
  const store = await SessionStore.load(backend, clock.now, activity, sync);
  return {
    db,
    backend,
    clock,
    activity,
    store,
    reopen: () => SessionStore.load(backend, clock.now, activity, sync),
    rotate: (s, newHash, idleMs, on = store) => on.rotate(s, on.nextRotation(s, newHash, idleMs), null),
    row: (sessionId) =>
      db.get<SessionRow>('SELECT * FROM sessions WHERE session_id = $id', { id: sessionId }),
    tokenRows: (sessionId) =>
      db
        .all<{ hash: string }>('SELECT hash FROM refresh_tokens WHERE session_id = $id ORDER BY generation', {
          id: sessionId,
        })
        .map((r) => r.hash),
    activityOf: async (sessionId) =>
      (await activity.page({ sessionId }, 100, 0)).items.reverse().map((e) => ({ type: e.type, at: e.at })),
    close: () => db.close(),
  };
}
