import { jwtVerify } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../logger';
import { AppDatabase } from '../storage/database';
import { SqliteBackend } from '../storage/sqlite-backend';
import { FakeClock } from './stack.test-support';
import { AccessTokens } from './tokens';

/**
 * The cache of verified access tokens (tokens.ts): a token whose signature checked out is not
 * checked again while it is remembered, and at most 1 024 are. jose's jwtVerify is the real one,
 * wrapped only to count the signature checks. Each test loads its own key.
 */

vi.mock('jose', async (importOriginal) => {
  const jose = await importOriginal<typeof import('jose')>();
  return { ...jose, jwtVerify: vi.fn(jose.jwtVerify) };
});

const CACHE_SIZE = 1_024;
const TTL_MS = 15 * 60_000;

async function openTokens() {
  const clock = new FakeClock();
  const tokens = await AccessTokens.load({
    backend: new SqliteBackend(AppDatabase.open(':memory:', silentLogger()), silentLogger()),
    now: clock.now,
    ttlMs: TTL_MS,
    logger: silentLogger(),
  });
  const checksBefore = vi.mocked(jwtVerify).mock.calls.length;
  return {
    clock,
    tokens,
    /** Signature checks made since this key was loaded. */
    checks: () => vi.mocked(jwtVerify).mock.calls.length - checksBefore,
    /** `n` tokens of distinct sessions, valid for the whole access-token lifetime. */
    async sign(n: number, notAfterMs = clock.now() + TTL_MS) {
      const out: string[] = [];
      for (let i = 0; i < n; i++) out.push((await tokens.sign('alice', `session-${i}`, notAfterMs)).token);
      return out;
    },
  };
}

describe('the cache of verified access tokens', () => {
  it('answers a token again without a signature check until 1 024 newer ones push it out', async () => {
    const t = await openTokens();
    const [first, second, ...more] = await t.sign(CACHE_SIZE + 1);
    const newest = more.pop()!;
    await t.tokens.verify(first!);
    await t.tokens.verify(first!);
    expect(t.checks()).toBe(1);
    await t.tokens.verify(second!);
    for (const token of more) await t.tokens.verify(token);
    // 1 024 remembered: the first is still among them.
    await t.tokens.verify(first!);
    expect(t.checks()).toBe(CACHE_SIZE);
    // One more pushes out the oldest, the first, and no other.
    await t.tokens.verify(newest);
    await t.tokens.verify(second!);
    expect(t.checks()).toBe(CACHE_SIZE + 1);
    expect((await t.tokens.verify(first!)).sid).toBe('session-0');
    expect(t.checks()).toBe(CACHE_SIZE + 2);
  });

  it('forgets a token it finds expired, so that it takes no place from a live one', async () => {
    const t = await openTokens();
    const [live] = await t.sign(1);
    const [shortLived] = await t.sign(1, t.clock.now() + 1_000);
    const others = await t.sign(CACHE_SIZE - 1);
    const later = others.pop()!;
    // The live token, the short-lived one and 1 022 others: the cache is full.
    for (const token of [live!, shortLived!, ...others]) await t.tokens.verify(token);
    t.clock.advance(2_000);
    await expect(t.tokens.verify(shortLived!)).rejects.toMatchObject({ code: 'invalid_token' });
    const checks = t.checks();
    await t.tokens.verify(later);
    // The place the expired token left was enough: the live token is still remembered.
    await t.tokens.verify(live!);
    expect(t.checks()).toBe(checks + 1);
  });
});
