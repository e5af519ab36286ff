/**
 * What a start does before anyone asks anything: sessions that ended past their retention while
 * the service was down leave the disk, and the activity log drops entries past its retention. A
 * service restarted once a quarter must not wait for its hourly sweep to forget old logins.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { eventually } from '../test-support/eventually.test-support';
import { ENDED_RETENTION_MS } from './sessions';
import { type AuthStack, FakeClock, queryDataDir, startAuthStack } from './stack.test-support';

const DAY = 86_400_000;

let dataDir = '';
let stack: AuthStack | undefined;
afterEach(async () => {
  await stack?.stop();
  stack = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

const sessionIds = () =>
  queryDataDir<{ session_id: string }>(dataDir, 'SELECT session_id FROM sessions').map((r) => r.session_id);
const activityCount = () => queryDataDir<{ n: number }>(dataDir, 'SELECT count(*) AS n FROM activity')[0]!.n;

it('drops from the disk the sessions that ended past their retention while it was down', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiff-start-'));
  const clock = new FakeClock();
  stack = await startAuthStack({ dataDir, clock });
  const gone = await stack.login();
  const me = await stack.login();
  expect(
    (await stack.call('POST', `/v1/auth/sessions/${gone.sessionId}/logout`, { headers: me.bearer })).status,
  ).toBe(200);
  const endedAt = clock.t;
  await stack.stop();

  clock.t = endedAt + ENDED_RETENTION_MS + 1;
  stack = await startAuthStack({ dataDir, clock });
  await stack.service.auth.ready;
  // `me` ended too, idle, but later than `gone` was logged out: it is still within its retention.
  expect(sessionIds()).toEqual([me.sessionId]);
});

it('prunes the activity log past its retention at once', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiff-start-'));
  const clock = new FakeClock();
  const auth = { activityRetentionDays: 1 };
  stack = await startAuthStack({ dataDir, clock, auth });
  await stack.login();
  await stack.login();
  await stack.stop();
  const before = activityCount();
  expect(before).toBeGreaterThanOrEqual(2);

  clock.advance(2 * DAY);
  stack = await startAuthStack({ dataDir, clock, auth });
  await stack.service.auth.ready;
  await eventually(async () => expect(activityCount()).toBe(0));
});
