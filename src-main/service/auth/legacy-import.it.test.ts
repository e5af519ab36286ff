import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ActivityEntry, SessionRecord } from '../../../src-shared/contract/auth-models';
import { hashPassword } from './passwords';
import { API_KEY_PREFIX, hashSecret, newSecret, REFRESH_TOKEN_PREFIX } from './secrets';
import { FAST_HASH, FakeClock, queryDataDir, startAuthStack, T0 } from './stack.test-support';
import type { StoredAccount, StoredActivity, StoredApiKey, StoredSession } from './state';

/** A data dir as the JSON-file version of Skiff left it, and its first start on the database. */

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiff-auth-import-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const HOUR = 3_600_000;
const client: StoredSession['client'] = {
  clientType: 'browser',
  device: { type: 'desktop', vendor: null, model: null },
  browser: { name: 'Firefox', version: '126.0' },
  os: { name: 'Linux', version: null },
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

async function writeLegacyDataDir() {
  const admin: StoredAccount = {
    accountId: 'acc-admin',
    username: 'admin',
    role: 'admin',
    workspaces: [],
    passwordHash: await hashPassword('legacy-password-1', FAST_HASH),
    createdAt: T0 - 48 * HOUR,
    passwordChangedAt: T0 - 48 * HOUR,
    source: 'local',
    groups: [],
  };
  const refreshToken = newSecret(REFRESH_TOKEN_PREFIX);
  const usedToken = newSecret(REFRESH_TOKEN_PREFIX);
  const session: StoredSession = {
    sessionId: 'sess-1',
    accountId: admin.accountId,
    status: 'active',
    client,
    firstLoginAt: T0 - 2 * HOUR,
    lastSeenAt: T0 - HOUR,
    expiresAt: T0 + 24 * HOUR,
    absoluteExpiresAt: T0 + 80 * 24 * HOUR,
    endedAt: null,
    endReason: null,
    refresh: {
      hash: hashSecret(refreshToken),
      generation: 3,
      rotatedAt: T0 - HOUR,
      previousHash: hashSecret(usedToken),
      usedHashes: [hashSecret(newSecret(REFRESH_TOKEN_PREFIX)), hashSecret(usedToken)],
    },
  };
  // A session of an account removed long ago: it cannot be used, and is not carried over.
  const orphan: StoredSession = { ...session, sessionId: 'sess-orphan', accountId: 'acc-gone' };
  const apiKey = newSecret(API_KEY_PREFIX);
  const key: StoredApiKey = {
    apiKeyId: 'key-1',
    accountId: admin.accountId,
    name: 'ci',
    hash: hashSecret(apiKey),
    hint: `${apiKey.slice(0, 13)}…`,
    workspaces: null,
    createdAt: T0 - HOUR,
    expiresAt: T0 + 30 * 24 * HOUR,
    lastUsedAt: null,
    revokedAt: null,
  };
  const entries: StoredActivity[] = [
    {
      activityId: 'a1',
      type: 'login',
      at: T0 - 2 * HOUR,
      accountId: admin.accountId,
      sessionId: 'sess-1',
      apiKeyId: null,
      client,
      detail: null,
    },
    {
      activityId: 'a2',
      type: 'api_key_created',
      at: T0 - HOUR,
      accountId: admin.accountId,
      sessionId: 'sess-1',
      apiKeyId: 'key-1',
      client,
      detail: 'ci',
    },
  ];
  await writeFile(
    join(dataDir, 'auth.json'),
    JSON.stringify({ accounts: [admin], sessions: [session, orphan], apiKeys: [key] }),
  );
  await writeFile(join(dataDir, 'auth-activity.json'), JSON.stringify({ activity: entries }));
  await writeFile(join(dataDir, 'auth-activity.json.tmp-1712345678901abc'), '{"activity": [');
  return { refreshToken, usedToken, apiKey };
}

it('moves accounts, sessions, refresh-token families, API keys and the log into the database, keeping the files as a backup', async () => {
  const legacy = await writeLegacyDataDir();
  const clock = new FakeClock();
  const stack = await startAuthStack({ dataDir, clock });
  try {
    const files = (await readdir(dataDir)).sort();
    expect(files.filter((f) => !f.startsWith('skiff.db'))).toEqual([
      expect.stringMatching(/^auth-activity\.json\.migrated-\d{4}-\d\d-\d\dT[\d-]+Z\.bak$/),
      expect.stringMatching(/^auth\.json\.migrated-\d{4}-\d\d-\d\dT[\d-]+Z\.bak$/),
    ]);
    expect(queryDataDir<{ session_id: string }>(dataDir, 'SELECT session_id FROM sessions')).toEqual([
      { session_id: 'sess-1' },
    ]);

    // The imported session's current refresh token works; its family's older one is reuse.
    const refreshed = await stack.call<{ accessToken: string }>('POST', '/v1/auth/refresh', {
      body: { refreshToken: legacy.refreshToken },
    });
    expect(refreshed.status).toBe(200);
    const bearer = { authorization: `Bearer ${refreshed.body.accessToken}` };
    const sessions = await stack.call<SessionRecord[]>('GET', '/v1/auth/sessions', { headers: bearer });
    expect(sessions.body.map((s) => [s.sessionId, s.browser.name, s.current])).toEqual([
      ['sess-1', 'Firefox', true],
    ]);
    const key = await stack.call('GET', '/v1/workspaces', { headers: { 'x-api-key': legacy.apiKey } });
    expect(key.status).toBe(200);
    await stack.login('admin', 'legacy-password-1');

    const log = await stack.call<ActivityEntry[]>('GET', '/v1/auth/activity?limit=50', { headers: bearer });
    expect(log.body.map((e) => e.activityId)).toEqual(expect.arrayContaining(['a1', 'a2']));
    const reused = await stack.call('POST', '/v1/auth/refresh', { body: { refreshToken: legacy.usedToken } });
    expect(reused.status).toBe(401);
    expect(JSON.stringify(reused.body)).toContain('refresh_token_reused');
  } finally {
    await stack.stop();
  }
  // The next start reads the database only; the backups are not imported again.
  const again = await startAuthStack({ dataDir, clock });
  try {
    await again.login('admin', 'legacy-password-1');
  } finally {
    await again.stop();
  }
});

it('changes nothing when an older file cannot be read, so a fixed file imports on the next start', async () => {
  await writeLegacyDataDir();
  const good = await readFile(join(dataDir, 'auth-activity.json'), 'utf8');
  const broken = good.replace('"type":"login"', '"type":"teleport"');
  await writeFile(join(dataDir, 'auth-activity.json'), broken);
  const before = (await readdir(dataDir)).sort();
  await expect(startAuthStack({ dataDir })).rejects.toThrow(/auth-activity\.json.*activity\.0\.type/);
  expect((await readdir(dataDir)).sort()).toEqual(before);
  expect(await readFile(join(dataDir, 'auth-activity.json'), 'utf8')).toBe(broken);
  expect(existsSync(join(dataDir, 'skiff.db'))).toBe(false);

  await writeFile(join(dataDir, 'auth-activity.json'), good);
  const stack = await startAuthStack({ dataDir });
  try {
    await stack.login('admin', 'legacy-password-1');
    expect((await readdir(dataDir)).some((f) => f.includes('.tmp-'))).toBe(false);
  } finally {
    await stack.stop();
  }
});
