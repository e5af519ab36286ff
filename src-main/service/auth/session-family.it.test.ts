import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { hashSecret } from './secrets';
import { type AuthStack, queryDataDir, startAuthStack, type Tokens } from './stack.test-support';

/**
 * A session's refresh tokens are one family: any token it was handed before the current one is
 * reuse when it comes back, however many rotations ago, up to the 200 most recent used ones (older
 * ones are merely unknown). The family is kept on disk, one row per token, so a restart changes
 * none of this.
 */

/** Used tokens remembered per session (sessions.ts). */
const REMEMBERED = 200;
/** The refresh rate limits are not what these tests are about. */
const rateLimits = {
  refreshPerAddress: { limit: 1_000, windowMs: 60_000 },
  refreshPerAccount: { limit: 1_000, windowMs: 60_000 },
};

let dataDir: string;
let stack: AuthStack;
let me: Tokens;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiff-auth-family-'));
  stack = await startAuthStack({ dataDir, auth: { rateLimits } });
  me = await stack.login();
});
afterEach(async () => {
  await stack.close();
  await rm(dataDir, { recursive: true, force: true });
});

const refresh = (token: string) =>
  stack.call<{ refreshToken: string; code?: string }>('POST', '/v1/auth/refresh', {
    body: { refreshToken: token },
  });

/** The login's token followed by `n` rotations: the last one is current. */
async function rotations(n: number): Promise<string[]> {
  const tokens = [me.refreshToken];
  for (let i = 0; i < n; i++) {
    const res = await refresh(tokens.at(-1)!);
    expect(res.status).toBe(200);
    tokens.push(res.body.refreshToken);
  }
  return tokens;
}

const familyOnDisk = (sessionId: string) =>
  queryDataDir<{ hash: string; generation: number }>(
    dataDir,
    `SELECT hash, generation FROM refresh_tokens WHERE session_id = '${sessionId}' ORDER BY generation`,
  );

it('any earlier token of the family is reuse, however many rotations ago', async () => {
  const tokens = await rotations(5);
  const res = await refresh(tokens[0]!);
  expect([res.status, res.body.code]).toEqual([401, 'refresh_token_reused']);
  // The whole family is dead, the current token too.
  expect((await refresh(tokens[5]!)).body.code).toBe('invalid_grant');
});

it('the family is stored as one row per token handed out, numbered by generation', async () => {
  const tokens = await rotations(3);
  expect(familyOnDisk(me.sessionId)).toEqual(
    tokens.map((t, i) => ({ hash: hashSecret(t), generation: i + 1 })),
  );
});

it(`only the ${REMEMBERED} most recent used tokens are remembered: an older one is merely unknown and ends nothing`, async () => {
  const tokens = await rotations(REMEMBERED + 2);
  expect(familyOnDisk(me.sessionId)).toHaveLength(REMEMBERED + 1);
  for (const forgotten of tokens.slice(0, 2)) {
    const res = await refresh(forgotten);
    expect([res.status, res.body.code]).toEqual([401, 'invalid_grant']);
  }
  // The session goes on; the oldest token still remembered is reuse.
  const next = await refresh(tokens.at(-1)!);
  expect(next.status).toBe(200);
  const reuse = await refresh(tokens[3]!);
  expect([reuse.status, reuse.body.code]).toEqual([401, 'refresh_token_reused']);
}, 60_000);

it('a restart keeps the family: the current token refreshes, and any earlier one is still reuse', async () => {
  const other = await stack.login();
  const tokens = await rotations(3);
  await stack.stop();
  stack = await startAuthStack({ dataDir, clock: stack.clock, auth: { rateLimits } });

  expect((await refresh(tokens[3]!)).status).toBe(200);
  const reuse = await refresh(tokens[1]!);
  expect([reuse.status, reuse.body.code]).toEqual([401, 'refresh_token_reused']);
  // The other session, never rotated, was kept as well.
  expect((await refresh(other.refreshToken)).status).toBe(200);
});
