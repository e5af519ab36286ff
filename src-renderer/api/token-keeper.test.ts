import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TokenPair } from '../../src-shared/contract/auth-models';
import { ApiError } from './client';
import { TokenKeeper } from './token-keeper';

const NOW = 1_800_000_000_000;

function pair(n: number, lifetimeS = 900): TokenPair {
  const iat = Math.floor(Date.now() / 1000);
  return {
    accessToken: `a${n}`,
    refreshToken: `r${n}`,
    auth: { sub: 's', sid: 'sid', jti: `j${n}`, iat, exp: iat + lifetimeS },
  };
}

describe('TokenKeeper', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it('sends the access token and rotates both tokens on refresh', async () => {
    const refresh = vi.fn(async (rt: string) => pair(Number(rt.slice(1)) + 1));
    const keeper = new TokenKeeper({ refresh, onEnded: vi.fn() });
    keeper.start({ ...pair(1), sessionId: 'sid' });
    expect(await keeper.authorize()).toEqual({ Authorization: 'Bearer a1' });
    expect(await keeper.refresh()).toBe(true);
    expect(refresh).toHaveBeenCalledWith('r1');
    expect(await keeper.authorize()).toEqual({ Authorization: 'Bearer a2' });
    await keeper.refresh();
    expect(refresh).toHaveBeenLastCalledWith('r2');
  });

  it('refreshes once for many concurrent 401s (a refresh token is single-use)', async () => {
    let resolve!: (p: TokenPair) => void;
    const refresh = vi.fn(() => new Promise<TokenPair>((r) => (resolve = r)));
    const keeper = new TokenKeeper({ refresh, onEnded: vi.fn() });
    keeper.start({ ...pair(1), sessionId: 'sid' });
    const all = Promise.all([keeper.refresh(), keeper.refresh(), keeper.refresh()]);
    resolve(pair(2));
    expect(await all).toEqual([true, true, true]);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('refreshes by itself before the access token expires', async () => {
    const refresh = vi.fn(async () => pair(2));
    const keeper = new TokenKeeper({ refresh, onEnded: vi.fn() });
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
    const keeper = new TokenKeeper({ refresh: vi.fn(async () => Promise.reject(refused)), onEnded });
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
    const keeper = new TokenKeeper({ refresh, onEnded });
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
    const keeper = new TokenKeeper({ refresh: () => new Promise((r) => (resolve = r)), onEnded: vi.fn() });
    keeper.start({ ...pair(1), sessionId: 'sid' });
    const pending = keeper.refresh();
    keeper.clear();
    resolve(pair(2));
    expect(await pending).toBe(false);
    expect(keeper.signedIn).toBe(false);
  });
});
