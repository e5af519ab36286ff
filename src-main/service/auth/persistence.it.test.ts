import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ActivityEntry, SessionRecord } from '../../../src-shared/contract/auth-models';
import { FakeClock, startAuthStack } from './stack.test-support';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiff-auth-restart-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

it('keeps the signing key, accounts, sessions, API keys and the activity log across a restart', async () => {
  const clock = new FakeClock();
  const before = await startAuthStack({ dataDir, clock });
  const kept = await before.login('admin', undefined, 'curl/8.5.0');
  const ended = await before.login('admin', undefined, 'node');
  await before.call('POST', `/v1/auth/sessions/${ended.sessionId}/logout`, { headers: kept.bearer });
  const rotated = await before.call<{ refreshToken: string; accessToken: string }>(
    'POST',
    '/v1/auth/refresh',
    {
      body: { refreshToken: kept.refreshToken },
    },
  );
  const key = await before.call<{ key: string }>('POST', '/v1/auth/api-keys', {
    headers: kept.bearer,
    body: { name: 'k' },
  });
  await before.call('POST', '/v1/auth/accounts', {
    headers: kept.bearer,
    body: { username: 'carol', password: 'carol-password', workspaces: ['default'] },
  });
  await before.stop();

  // One database, readable by its owner only; a clean stop leaves no WAL or temporary file beside it.
  expect((await stat(join(dataDir, 'skiff.db'))).mode & 0o777).toBe(0o600);
  expect((await readdir(dataDir)).filter((f) => f.startsWith('skiff.db')).sort()).toEqual(['skiff.db']);

  const after = await startAuthStack({ dataDir, clock });
  try {
    const bearer = { authorization: `Bearer ${rotated.body.accessToken}` };
    // An access token issued before the restart still verifies: the key was kept.
    const sessions = await after.call<SessionRecord[]>('GET', '/v1/auth/sessions?includeExpired=true', {
      headers: bearer,
    });
    expect(sessions.status).toBe(200);
    expect(sessions.body.map((s) => [s.sessionId, s.status, s.current])).toEqual([
      [ended.sessionId, 'logged_out', false],
      [kept.sessionId, 'active', true],
    ]);
    // Logged out stays logged out; a rotated refresh token stays dead (and is seen as reuse).
    expect((await after.call('GET', '/v1/workspaces', { headers: ended.bearer })).status).toBe(401);
    expect(
      (await after.call('POST', '/v1/auth/refresh', { body: { refreshToken: ended.refreshToken } })).status,
    ).toBe(401);
    const next = await after.call('POST', '/v1/auth/refresh', {
      body: { refreshToken: rotated.body.refreshToken },
    });
    expect(next.status).toBe(200);
    expect(
      (await after.call('GET', '/v1/workspaces', { headers: { 'x-api-key': key.body.key } })).status,
    ).toBe(200);
    await after.login('carol', 'carol-password');
    const log = await after.call<ActivityEntry[]>('GET', '/v1/auth/activity', { headers: bearer });
    expect(log.body.map((e) => e.type)).toEqual(
      expect.arrayContaining(['login', 'logout', 'refresh', 'api_key_created']),
    );
  } finally {
    await after.stop();
  }
});

it('refuses to start on an auth file it cannot read rather than replace it', async () => {
  const { writeFile } = await import('node:fs/promises');
  await writeFile(join(dataDir, 'auth.json'), JSON.stringify({ accounts: [{ username: 7 }] }));
  await expect(startAuthStack({ dataDir })).rejects.toThrow(/auth\.json.*accounts/);
});

it('writes a generated first password to a 0600 file, and removes it once the admin changes it', async () => {
  let shown: string | undefined;
  const stack = await startAuthStack({
    dataDir,
    config: { adminPassword: undefined },
    auth: { onAdminCreated: (info) => (shown = info.generatedPassword) },
  });
  try {
    const file = join(dataDir, 'initial-admin-password');
    expect(shown).toMatch(/^[\w-]{24}$/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const me = await stack.login('admin', shown!);
    const changed = await stack.call('POST', '/v1/auth/password', {
      headers: me.bearer,
      body: { currentPassword: shown, newPassword: 'a-better-password' },
    });
    expect(changed.status).toBe(200);
    await expect(stat(file)).rejects.toThrow();
    await stack.login('admin', 'a-better-password');
  } finally {
    await stack.stop();
  }
});
