import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TokenPair } from '../../src-shared/contract/auth-models';
import { ApiError } from './client';
import { type SessionMarker, TokenKeeper } from './token-keeper';

const NOW = 1_800_000_000_000;

/** The browser's cookie answers: no refresh token in the body. */
function pair(n: number, lifetimeS = 900, sid = 'sid'): TokenPair {
  const iat = Math.floor(Date.now() / 1000);
  return {
    accessToken: `a${n}`,
    auth: { sub: 's', sid, jti: `j${n}`, iat, exp: iat + lifetimeS },
  };
}

function memoryMarker(on = false): SessionMarker & { on: boolean } {
  const m = {
    on,
    get: () => m.on,
    set: (v: boolean) => {
      m.on = v;
    },
  };
  return m;
}

const apiError = (status: number, detail: string) =>
  new ApiError({
    type: 'x',
    title: 't',
    status,
    detail,
    code: status === 0 ? 'internal_error' : 'invalid_grant',
  });

describe('TokenKeeper', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it('sends the access token and takes the new one on refresh', async () => {
    let n = 1;
    const refresh = vi.fn(async () => pair(++n));
    const keeper = new TokenKeeper({ refresh, onEnded: vi.fn(), marker: memoryMarker() });
    keeper.start({ ...pair(1), sessionId: 'sid' });
    expect(await keeper.authorize()).toEqual({ Authorization: 'Bearer a1' });
    expect(await keeper.refresh()).toBe(true);
    expect(await keeper.authorize()).toEqual({ Authorization: 'Bearer a2' });
    await keeper.refresh();
    expect(await keeper.authorize()).toEqual({ Authorization: 'Bearer a3' });
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('marks a cookie session on login and forgets it on a logout', () => {
    const marker = memoryMarker();
    const keeper = new TokenKeeper({ refresh: vi.fn(), onEnded: vi.fn(), marker });
    keeper.start({ ...pair(1), sessionId: 'sid' });
    expect(marker.on).toBe(true);
    keeper.clear();
    expect(marker.on).toBe(false);
  });

  it('after a reload resumes the marked session from the cookie, under the session the refresh names', async () => {
    const refresh = vi.fn(async () => pair(7, 900, 'other-tab'));
    const keeper = new TokenKeeper({ refresh, onEnded: vi.fn(), marker: memoryMarker(true) });
    expect(keeper.signedIn).toBe(false);
    expect(await keeper.resume()).toBe(true);
    expect(keeper.signedIn).toBe(true);
    expect(keeper.sessionId).toBe('other-tab');
    expect(await keeper.authorize()).toEqual({ Authorization: 'Bearer a7' });
    // Already holding one: nothing more is sent.
    expect(await keeper.resume()).toBe(true);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('sends no refresh without a marked session (a first visit)', async () => {
    const refresh = vi.fn(async () => pair(1));
    const keeper = new TokenKeeper({ refresh, onEnded: vi.fn(), marker: memoryMarker(false) });
    expect(await keeper.resume()).toBe(false);
    expect(refresh).not.toHaveBeenCalled();
  });

  it('forgets a cookie the service refuses, without an end notice', async () => {
    const marker = memoryMarker(true);
    const onEnded = vi.fn();
    const keeper = new TokenKeeper({
      refresh: vi.fn(async () => Promise.reject(apiError(401, 'ended'))),
      onEnded,
      marker,
    });
    expect(await keeper.resume()).toBe(false);
    expect(marker.on).toBe(false);
    expect(onEnded).not.toHaveBeenCalled();
  });

  it('keeps the mark when the service is unreachable, and says so', async () => {
    const marker = memoryMarker(true);
    const keeper = new TokenKeeper({
      refresh: vi.fn(async () => Promise.reject(apiError(0, 'down'))),
      onEnded: vi.fn(),
      marker,
    });
    await expect(keeper.resume()).rejects.toThrow(/down/);
    expect(marker.on).toBe(true);
  });

  it('refreshes once for many concurrent 401s (a refresh token is single-use)', async () => {
    let resolve!: (p: TokenPair) => void;
    const refresh = vi.fn(() => new Promise<TokenPair>((r) => (resolve = r)));
    const keeper = new TokenKeeper({ refresh, onEnded: vi.fn(), marker: memoryMarker() });
    keeper.start({ ...pair(1), sessionId: 'sid' });
    const all = Promise.all([keeper.refresh(), keeper.refresh(), keeper.refresh()]);
    resolve(pair(2));
    expect(await all).toEqual([true, true, true]);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('refreshes by itself before the access token expires', async () => {
    const refresh = vi.fn(async () => pair(2));
    const keeper = new TokenKeeper({ refresh, onEnded: vi.fn(), marker: memoryMarker() });
    keeper.start({ ...pair(1, 900), sessionId: 'sid' });
    await vi.advanceTimersByTimeAsync(839_000);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2_000); // a minute before the 15-minute expiry
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('ends the session when the service refuses the refresh token', async () => {
    const onEnded = vi.fn();
    const refused = new ApiError({
      type: 'x',
      title: 'Unauthorized',
      status: 401,
      detail: 'session ended',
      code: 'invalid_grant',
    });
    const keeper = new TokenKeeper({
      refresh: vi.fn(async () => Promise.reject(refused)),
      onEnded,
      marker: memoryMarker(),
    });
    keeper.start({ ...pair(1), sessionId: 'sid' });
    expect(await keeper.refresh()).toBe(false);
    expect(onEnded).toHaveBeenCalledWith({ reason: 'refresh-failed', detail: 'session ended' });
    expect(keeper.signedIn).toBe(false);
    expect(await keeper.authorize()).toEqual({});
  });

  it('keeps the session through a network failure and retries', async () => {
    const onEnded = vi.fn();
    const down = new ApiError({
      type: 'x',
      title: 'Service unreachable',
      status: 0,
      detail: 'down',
      code: 'internal_error',
    });
    const refresh = vi.fn().mockRejectedValueOnce(down).mockResolvedValue(pair(2));
    const keeper = new TokenKeeper({ refresh, onEnded, marker: memoryMarker() });
    keeper.start({ ...pair(1), sessionId: 'sid' });
    expect(await keeper.refresh()).toBe(false);
    expect(onEnded).not.toHaveBeenCalled();
    expect(keeper.signedIn).toBe(true);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(await keeper.authorize()).toEqual({ Authorization: 'Bearer a2' });
  });

  it('does not resurrect a session logged out during a refresh', async () => {
    let resolve!: (p: TokenPair) => void;
    const keeper = new TokenKeeper({
      refresh: () => new Promise((r) => (resolve = r)),
      onEnded: vi.fn(),
      marker: memoryMarker(),
    });
    keeper.start({ ...pair(1), sessionId: 'sid' });
    const pending = keeper.refresh();
    keeper.clear();
    resolve(pair(2));
    expect(await pending).toBe(false);
    expect(keeper.signedIn).toBe(false);
  });
});
