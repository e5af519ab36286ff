import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SessionRecord } from '../../../src-shared/contract/auth-models';
import { type AuthStack, queryDataDir, startAuthStack, T0, type Tokens } from './stack.test-support';

/**
 * A session's lastSeenAt is the time of its last request. It moves in memory on every request and
 * reaches the disk at most once a minute (and within one, when requests go on), and at close.
 */

const MINUTE = 60_000;

let dataDir: string;
let stack: AuthStack;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiff-auth-last-seen-'));
  stack = await startAuthStack({ dataDir });
});
afterEach(async () => {
  await stack.close();
  await rm(dataDir, { recursive: true, force: true });
});

const use = async (t: Tokens) =>
  expect((await stack.call('GET', '/v1/workspaces', { headers: t.bearer })).status).toBe(200);

const lastSeen = async (t: Tokens, asker: Tokens) => {
  const res = await stack.call<SessionRecord[]>('GET', '/v1/auth/sessions', { headers: asker.bearer });
  return Date.parse(res.body.find((s) => s.sessionId === t.sessionId)!.lastSeenAt) - T0;
};

const lastSeenOnDisk = (t: Tokens) =>
  queryDataDir<{ last_seen_at: number }>(
    dataDir,
    `SELECT last_seen_at FROM sessions WHERE session_id = '${t.sessionId}'`,
  )[0]!.last_seen_at - T0;

it('shows when each session last made a request', async () => {
  const a = await stack.login();
  const b = await stack.login();
  stack.clock.advance(5_000);
  await use(a);
  stack.clock.advance(5_000);
  expect(await lastSeen(a, b)).toBe(5_000);
  // The listing is itself a request of b's.
  expect(await lastSeen(b, b)).toBe(10_000);
});

it('writes the last request to disk at most once a minute, and within one while requests go on', async () => {
  const a = await stack.login();
  expect(lastSeenOnDisk(a)).toBe(0);
  // Nothing was written for over a minute (never, since the start): this request is.
  stack.clock.advance(1_000);
  await use(a);
  expect(lastSeenOnDisk(a)).toBe(1_000);
  // Within the minute, requests move it in memory only.
  stack.clock.advance(MINUTE / 2);
  await use(a);
  expect(lastSeenOnDisk(a)).toBe(1_000);
  // A minute after that write, the next request writes.
  stack.clock.advance(MINUTE / 2);
  await use(a);
  expect(lastSeenOnDisk(a)).toBe(1_000 + MINUTE);
});

it('keeps each session’s last request across a restart: close writes what memory still held', async () => {
  const a = await stack.login();
  stack.clock.advance(1_000);
  await use(a);
  stack.clock.advance(5_000);
  await use(a);
  await stack.stop();
  stack = await startAuthStack({ dataDir, clock: stack.clock });

  const b = await stack.login();
  expect(await lastSeen(a, b)).toBe(6_000);
});
