import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../../src-shared/contract/auth-models';
import type { AppSettings } from '../../../src-shared/contract/settings-models';
import { FakeClock, startAuthStack, type Tokens } from '../auth/stack.test-support';

/**
 * Token lifetimes kept through PATCH /v1/app/settings apply at the next start (service/index.ts):
 * a lifetime the process is started with wins over the kept one, and the kept one over the default.
 */
let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiff-settings-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The access token's lifetime in minutes and the new session's in days, as a login hands them out. */
async function lifetimes(s: Awaited<ReturnType<typeof startAuthStack>>, tokens: Tokens) {
  const sessions = await s.call<SessionRecord[]>('GET', '/v1/auth/sessions', { headers: tokens.bearer });
  const mine = sessions.body.find((x) => x.sessionId === tokens.sessionId)!;
  return {
    accessMinutes: (tokens.auth.exp - tokens.auth.iat) / 60,
    sessionDays: (Date.parse(mine.expiresAt) - Date.parse(mine.firstLoginAt)) / DAY,
  };
}

describe('token lifetimes kept in the settings', () => {
  it('are used from the next start on, and no restart is asked for then', async () => {
    const clock = new FakeClock();
    const first = await startAuthStack({ dataDir, clock });
    const admin = await first.login();
    const defaults = await lifetimes(first, admin);
    const kept = await first.call<AppSettings>('PATCH', '/v1/app/settings', {
      headers: admin.bearer,
      body: { tokens: { accessTokenMinutes: 40, refreshTokenDays: 3 } },
    });
    expect(kept.body.tokens).toEqual({ accessTokenMinutes: 40, refreshTokenDays: 3, restartRequired: true });
    // Kept where docs/configuration.md says: the database's service_settings (migration 3).
    const db = new DatabaseSync(join(dataDir, 'skiff.db'), { readOnly: true });
    try {
      const row = db.prepare("SELECT value FROM service_settings WHERE key = 'appSettings'").get() as {
        value: string;
      };
      expect(JSON.parse(row.value)).toEqual({ accessTokenMinutes: 40, refreshTokenDays: 3 });
    } finally {
      db.close();
    }
    // Not before the restart: this run keeps handing out the lifetimes it started with.
    expect(await lifetimes(first, await first.login())).toEqual(defaults);
    await first.stop();

    const second = await startAuthStack({ dataDir, clock });
    try {
      const again = await second.login();
      expect(await lifetimes(second, again)).toEqual({ accessMinutes: 40, sessionDays: 3 });
      const shown = await second.call<AppSettings>('GET', '/v1/app/settings', { headers: again.bearer });
      expect(shown.body.tokens).toEqual({
        accessTokenMinutes: 40,
        refreshTokenDays: 3,
        restartRequired: false,
      });
    } finally {
      await second.stop();
    }
  });

  it('give way to lifetimes the service is started with', async () => {
    const clock = new FakeClock();
    const first = await startAuthStack({ dataDir, clock });
    const admin = await first.login();
    await first.call('PATCH', '/v1/app/settings', {
      headers: admin.bearer,
      body: { tokens: { accessTokenMinutes: 40, refreshTokenDays: 3 } },
    });
    await first.stop();

    const configured = await startAuthStack({
      dataDir,
      clock,
      auth: { accessTokenMinutes: 25, refreshTokenDays: 9 },
    });
    try {
      const again = await configured.login();
      expect(await lifetimes(configured, again)).toEqual({ accessMinutes: 25, sessionDays: 9 });
      const shown = await configured.call<AppSettings>('GET', '/v1/app/settings', { headers: again.bearer });
      expect(shown.body.tokens).toEqual({
        accessTokenMinutes: 40,
        refreshTokenDays: 3,
        restartRequired: true,
      });
    } finally {
      await configured.stop();
    }
  });
});

describe('accounts', () => {
  it('made before a restart can sign in after it: the service keeps them in its data dir', async () => {
    const clock = new FakeClock();
    const first = await startAuthStack({ dataDir, clock });
    const admin = await first.login();
    const made = await first.call('POST', '/v1/auth/accounts', {
      headers: admin.bearer,
      body: { username: 'walt', password: 'walt-password' },
    });
    expect(made.status).toBe(201);
    await first.stop();

    const second = await startAuthStack({ dataDir, clock });
    try {
      const walt = await second.login('walt', 'walt-password');
      expect(walt.accessToken).not.toBe('');
    } finally {
      await second.stop();
    }
  });
});
