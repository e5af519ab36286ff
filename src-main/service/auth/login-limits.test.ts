import { describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { silentLogger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { FailureBackoff } from './login-backoff';
import { loginLimits, SharedFailureBackoff, SharedRateLimiter, SWEEP_EVERY_MS } from './login-limits';
import { RateLimiter } from './rate-limit';
import { sharedDatabases } from './shared-database.test-support';
import { FakeClock } from './stack.test-support';

/**
 * The login limits shared through the database (login-limits.ts), on both backends: two limiters
 * over one database stand for two replicas, and the in-memory classes on the same clock say what
 * every answer must be. Each test has its own database.
 */

const backends = sharedDatabases();
const WINDOW = { limit: 3, windowMs: 10_000 };
const BACKOFF = { free: 2, baseMs: 1_000, maxMs: 8_000, forgetMs: 60_000 };

const hitRows = (b: StorageBackend, key?: string) =>
  b.all<{ key: string; at: number }>(
    `SELECT key, at FROM auth_login_hits${key ? ' WHERE key = $key' : ''} ORDER BY id`,
    key ? { key } : {},
  );

describe.each(backends)('login limits on $name', ({ name, skip, shared }) => {
  const test = it.skipIf(skip !== undefined);

  async function replicas() {
    const db = await shared();
    const clock = new FakeClock();
    const logger = silentLogger();
    const [a, b] = [await db.open(), await db.open()];
    return {
      clock,
      a,
      b,
      limiters: [
        new SharedRateLimiter(a, clock.now, logger),
        new SharedRateLimiter(b, clock.now, logger),
      ] as const,
      backoffs: [
        new SharedFailureBackoff(a, clock.now, logger),
        new SharedFailureBackoff(b, clock.now, logger),
      ] as const,
    };
  }

  test('attempts counted on one replica count on the other, and its refusal is the usual 429', async () => {
    const { clock, limiters } = await replicas();
    const [a, b] = limiters;
    await a.hit('k', WINDOW);
    clock.advance(1_000);
    await b.hit('k', WINDOW);
    expect(await a.wait('k', WINDOW)).toBe(0);
    await a.hit('k', WINDOW);
    // The third stamp from the newest was made 1 s ago: one more is allowed 9 s from now.
    expect(await b.wait('k', WINDOW)).toBe(9_000);
    const refused = await Promise.resolve(b.enforce('k', WINDOW, 'login attempts from this address')).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ProblemError);
    expect((refused as ProblemError).status).toBe(429);
    expect((refused as ProblemError).headers['Retry-After']).toBe('9');
    expect(await b.wait('other', WINDOW)).toBe(0);
    // Forgiven on B, the newest stamp (A's) goes: one more is allowed again.
    await b.forgive('k');
    expect(await a.wait('k', WINDOW)).toBe(0);
    await a.enforce('k', WINDOW, 'x');
  });

  test('answers what the in-memory limiter answers, step by step', async () => {
    const { clock, limiters } = await replicas();
    const memory = new RateLimiter(clock.now);
    const steps = ['hit', 'hit', 'hit', 'hit', 'forgive', 'hit', 'hit', 'forgive', 'forgive', 'hit'] as const;
    for (const [i, step] of steps.entries()) {
      const shared = limiters[i % 2]!;
      if (step === 'hit') {
        memory.hit('k', WINDOW);
        await shared.hit('k', WINDOW);
      } else {
        memory.forgive('k');
        await shared.forgive('k');
      }
      clock.advance(1_700);
      expect(await limiters[(i + 1) % 2]!.wait('k', WINDOW), `after step ${i} (${step})`).toBe(
        memory.wait('k', WINDOW),
      );
    }
  });

  test('a key keeps at most its limit of stamps, none older than its window, and old rows are swept', async () => {
    const { clock, limiters, a } = await replicas();
    const [la] = limiters;
    for (let i = 0; i < 5; i++) {
      await la.hit('k', WINDOW);
      clock.advance(1);
    }
    expect((await hitRows(a, 'k')).map((r) => r.at)).toEqual([2, 3, 4].map((i) => clock.t - 5 + i));
    await la.hit('gone', WINDOW);
    clock.advance(WINDOW.windowMs);
    await la.hit('k', WINDOW);
    // The window's stamps of 'k' are gone with their age; 'gone' waits for the sweep.
    expect((await hitRows(a)).map((r) => r.key)).toEqual(['gone', 'k']);
    clock.advance(SWEEP_EVERY_MS);
    await la.hit('k', WINDOW);
    expect((await hitRows(a)).map((r) => r.key)).toEqual(['k']);
  });

  test('failures counted on one replica slow the source on the other, and a success there forgets them', async () => {
    const { clock, backoffs } = await replicas();
    const [a, b] = backoffs;
    await a.failed('src', BACKOFF);
    await b.failed('src', BACKOFF);
    expect(await a.wait('src', BACKOFF)).toBe(1_000);
    clock.advance(400);
    expect(await b.wait('src', BACKOFF)).toBe(600);
    // An account under attack leaves each source one free failure.
    expect(await b.wait('src', BACKOFF, 1)).toBe(1_600);
    expect(await b.wait('other', BACKOFF)).toBe(0);
    await b.reset('src');
    expect(await a.wait('src', BACKOFF)).toBe(0);
  });

  test('answers what the in-memory backoff answers, up to its ceiling and after it forgets', async () => {
    const { clock, backoffs } = await replicas();
    const memory = new FailureBackoff(clock.now);
    const gaps = [0, 100, 100, 3_000, 100, 100, 100, 100, 100, 60_000, 100];
    for (const [i, gap] of gaps.entries()) {
      clock.advance(gap);
      memory.failed('src', BACKOFF);
      await backoffs[i % 2]!.failed('src', BACKOFF);
      clock.advance(50);
      for (const free of [undefined, 1, 3]) {
        expect(await backoffs[(i + 1) % 2]!.wait('src', BACKOFF, free), `failure ${i}, free ${free}`).toBe(
          memory.wait('src', BACKOFF, free),
        );
      }
    }
    clock.advance(BACKOFF.forgetMs);
    expect(await backoffs[0].wait('src', BACKOFF)).toBe(0);
  });

  test('a source is forgotten forgetMs after its last failure, even while its wait would still run', async () => {
    const { clock, backoffs } = await replicas();
    const long = { free: 1, baseMs: 100_000, maxMs: 200_000, forgetMs: 60_000 };
    await backoffs[0].failed('src', long);
    await backoffs[1].failed('src', long);
    clock.advance(long.forgetMs - 1);
    expect(await backoffs[0].wait('src', long)).toBe(200_000 - long.forgetMs + 1);
    clock.advance(1);
    expect(await backoffs[1].wait('src', long)).toBe(0);
    expect(new FailureBackoff(clock.now).wait('src', long)).toBe(0);
  });

  test('failures made on both replicas at once all count; the count stops at 64', async () => {
    const { backoffs, a } = await replicas();
    await Promise.all(Array.from({ length: 40 }, (_, i) => backoffs[i % 2]!.failed('src', BACKOFF)));
    const count = async () =>
      (await a.get<{ count: number }>('SELECT count FROM auth_login_failures WHERE key = $key', {
        key: 'src',
      }))!.count;
    expect(await count()).toBe(40);
    await Promise.all(Array.from({ length: 40 }, (_, i) => backoffs[i % 2]!.failed('src', BACKOFF)));
    expect(await count()).toBe(64);
  });

  test('forgotten failures are swept', async () => {
    const { clock, backoffs, a } = await replicas();
    await backoffs[0].failed('old', BACKOFF);
    // A sweep is due exactly SWEEP_EVERY_MS after the last one, and 'old' is then exactly forgotten.
    expect(BACKOFF.forgetMs).toBe(SWEEP_EVERY_MS);
    clock.advance(SWEEP_EVERY_MS);
    await backoffs[0].failed('new', BACKOFF);
    expect(await a.all('SELECT key FROM auth_login_failures')).toEqual([{ key: 'new' }]);
  });

  test(`are ${name === 'postgres' ? 'kept in the database' : 'kept in memory, as one process is the whole service'}`, async () => {
    const { clock, a } = await replicas();
    const inMemory = { limiter: new RateLimiter(clock.now), backoff: new FailureBackoff(clock.now) };
    const chosen = loginLimits(a, clock.now, inMemory, silentLogger());
    if (name === 'sqlite') {
      expect(chosen).toBe(inMemory);
    } else {
      expect(chosen.limiter).toBeInstanceOf(SharedRateLimiter);
      expect(chosen.backoff).toBeInstanceOf(SharedFailureBackoff);
    }
  });
});
