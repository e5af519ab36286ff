/**
 * Readiness (readiness.ts): every check run at once and bounded, a failure named with its reason,
 * and not ready while draining, as 503 service_not_ready with Retry-After.
 */
import { describe, expect, it } from 'vitest';
import { ProblemError } from './errors';
import { Readiness } from './readiness';

async function refusal(r: Readiness): Promise<ProblemError> {
  try {
    await r.probe();
  } catch (err) {
    expect(err).toBeInstanceOf(ProblemError);
    return err as ProblemError;
  }
  throw new Error('answered ready');
}

describe('Readiness', () => {
  it('is ready with no checks, and with every check passed (no reason on a pass)', async () => {
    const r = new Readiness();
    expect(await r.probe()).toEqual({ status: 'ready', checks: [] });
    r.add({ name: 'database', check: async () => ({ ok: true, reason: 'ignored' }) });
    expect(await r.probe()).toEqual({ status: 'ready', checks: [{ name: 'database', ok: true }] });
  });

  it('answers 503 service_not_ready naming each failed check, with Retry-After', async () => {
    const r = new Readiness();
    r.add({ name: 'a', check: async () => ({ ok: true }) });
    r.add({ name: 'b', check: async () => ({ ok: false, reason: 'down' }) });
    r.add({ name: 'c', check: async () => ({ ok: false }) });
    r.add({
      name: 'd',
      check: async () => {
        throw new Error('boom');
      },
    });
    r.add({
      name: 'e',
      check: () => Promise.reject('plain'),
    });
    const err = await refusal(r);
    expect([err.status, err.code, err.message]).toEqual([
      503,
      'service_not_ready',
      'not ready: b: down; c: failed; d: boom; e: plain',
    ]);
    expect(err.headers).toEqual({ 'Retry-After': '5' });
    expect(err.extensions).toEqual({
      draining: false,
      checks: [
        { name: 'a', ok: true },
        { name: 'b', ok: false, reason: 'down' },
        { name: 'c', ok: false, reason: 'failed' },
        { name: 'd', ok: false, reason: 'boom' },
        { name: 'e', ok: false, reason: 'plain' },
      ],
    });
  });

  it('bounds a check that does not answer, and aborts its signal', async () => {
    const r = new Readiness(50);
    let signal: AbortSignal | undefined;
    r.add({
      name: 'hung',
      check: (s) => {
        signal = s;
        return new Promise(() => {});
      },
    });
    const err = await refusal(r);
    expect(err.extensions.checks).toEqual([{ name: 'hung', ok: false, reason: 'no answer within 0.05 s' }]);
    expect(signal?.aborted).toBe(true);
  });

  it('leaves the signal of a check that answered in time alone', async () => {
    const r = new Readiness(50);
    let signal: AbortSignal | undefined;
    r.add({
      name: 'quick',
      check: async (s) => {
        signal = s;
        return { ok: true };
      },
    });
    await r.probe();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(signal?.aborted).toBe(false);
  });

  it('runs the checks at once, not one after another', async () => {
    const r = new Readiness(1_000);
    let secondStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      secondStarted = resolve;
    });
    r.add({
      name: 'first',
      check: async () => {
        await started;
        return { ok: true };
      },
    });
    r.add({
      name: 'second',
      check: async () => {
        secondStarted();
        return { ok: true };
      },
    });
    expect((await r.probe()).checks).toEqual([
      { name: 'first', ok: true },
      { name: 'second', ok: true },
    ]);
  });

  it('once draining, is not ready whatever the checks say', async () => {
    const r = new Readiness();
    r.add({ name: 'database', check: async () => ({ ok: true }) });
    r.drain();
    const err = await refusal(r);
    expect(err.message).toBe('not ready: the service is shutting down');
    expect(err.extensions).toEqual({ draining: true, checks: [{ name: 'database', ok: true }] });
  });
});
