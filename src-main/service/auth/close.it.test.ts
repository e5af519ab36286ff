import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { reappears } from '../test-support/eventually.test-support';
import { queryDataDir, startAuthStack } from './stack.test-support';

/**
 * A closed service leaves its data dir alone: every run used to leave a `skiff-auth-*` folder
 * holding an activity entry (then `auth-activity.json`) written after the test had closed the service and removed it.
 */

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiff-auth-close-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

async function activityTypes(): Promise<string[]> {
  return queryDataDir<{ type: string }>(dataDir, 'SELECT type FROM activity').map((e) => e.type);
}

it('close waits for the failed-login entry written after the 401, and nothing is written after it', async () => {
  // A public client address (through a trusted proxy) makes the entry wait for the GeoIP database,
  // which this fresh process has not opened yet: the write is still pending when close starts.
  const stack = await startAuthStack({ dataDir, auth: { trustProxy: ['127.0.0.1'] } });
  const failed = await stack.call('POST', '/v1/auth/login', {
    body: { username: 'admin', password: 'not-the-password' },
    headers: { 'x-forwarded-for': '8.8.8.8' },
  });
  expect(failed.status).toBe(401);
  await stack.stop();

  expect(await activityTypes()).toContain('login_failed');
  await rm(dataDir, { recursive: true, force: true });
  expect(await reappears(dataDir, 1_000)).toBe(false);
});

it('a closed service writes nothing, even when its parts are still asked to', async () => {
  const stack = await startAuthStack({ dataDir });
  const admin = await stack.login();
  const core = await stack.service.auth.core();
  await stack.stop();
  await rm(dataDir, { recursive: true, force: true });

  // What a request cut off by close could still do once its awaits return: end a session, log it.
  expect(await core.sessions.endAllFor(admin.auth.sub, 'logout')).toHaveLength(1);
  await core.activity.record({ type: 'logout', accountId: admin.auth.sub, sessionId: admin.sessionId });
  expect(await reappears(dataDir, 200)).toBe(false);
});
