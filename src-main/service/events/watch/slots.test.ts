/**
 * The per-credential watch slots: whose watches count together, the 429 past the bound, and a
 * release that counts once.
 */
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../context';
import { ProblemError } from '../../errors';
import { credentialKey, WatchSlots } from './slots';

const session = (sessionId: string, accountId = 'alice'): Principal => ({
  accountId,
  sessionId,
  workspaces: 'all',
});
const apiKey = (apiKeyId: string, accountId = 'alice'): Principal => ({
  accountId,
  apiKeyId,
  workspaces: 'all',
});

function refusal(take: () => unknown): ProblemError {
  try {
    take();
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  throw new Error('the slot was granted');
}

describe('whose watches count together', () => {
  it('a session counts by its session, an API key by its key, anything else by its account', () => {
    expect(credentialKey(session('s1'))).toBe('session:s1');
    expect(credentialKey(apiKey('k1'))).toBe('key:k1');
    expect(credentialKey({ accountId: 'bob', workspaces: [] })).toBe('account:bob');
    // A session wins over a key when both are named.
    expect(credentialKey({ ...apiKey('k2'), sessionId: 's2' })).toBe('session:s2');
  });
});

describe('WatchSlots', () => {
  it('grants up to the limit, then refuses one more with 429 rate_limited naming the limit and Retry-After', () => {
    const slots = new WatchSlots(3);
    for (let i = 0; i < 3; i++) slots.take(session('s'));
    expect(slots.total).toBe(3);
    const refused = refusal(() => slots.take(session('s')));
    expect(refused.code).toBe('rate_limited');
    expect(refused.status).toBe(429);
    expect(refused.extensions).toEqual({ limit: 3 });
    expect(Number(refused.headers['Retry-After'])).toBeGreaterThan(0);
    expect(slots.total).toBe(3);
  });

  it('a limit of one refuses the second watch', () => {
    const slots = new WatchSlots(1);
    slots.take(apiKey('k'));
    expect(refusal(() => slots.take(apiKey('k'))).code).toBe('rate_limited');
  });

  it('a released slot can be taken again', () => {
    const slots = new WatchSlots(2);
    const first = slots.take(session('s'));
    slots.take(session('s'));
    first();
    expect(slots.total).toBe(1);
    slots.take(session('s'));
    expect(slots.total).toBe(2);
    expect(() => slots.take(session('s'))).toThrow(ProblemError);
  });

  it('releasing the same slot twice gives back one slot only', () => {
    const slots = new WatchSlots(2);
    const a = slots.take(session('s'));
    slots.take(session('s'));
    a();
    a();
    a();
    expect(slots.total).toBe(1);
    slots.take(session('s'));
    // Had the repeated releases counted, a third watch would now fit.
    expect(() => slots.take(session('s'))).toThrow(ProblemError);
  });

  it('every slot released leaves nothing open, and the full limit is available again', () => {
    const slots = new WatchSlots(2);
    const releases = [slots.take(session('s')), slots.take(session('s'))];
    for (const r of releases.reverse()) r();
    expect(slots.total).toBe(0);
    slots.take(session('s'));
    slots.take(session('s'));
    expect(slots.total).toBe(2);
  });

  it('each session and each key has its own limit: one at the limit does not refuse another', () => {
    const slots = new WatchSlots(2);
    for (let i = 0; i < 2; i++) slots.take(session('s-full'));
    expect(() => slots.take(session('s-full'))).toThrow(ProblemError);
    // Another session of the same account, and a key of that account, are not counted with it.
    const other = slots.take(session('s-other'));
    slots.take(apiKey('k-1'));
    slots.take(apiKey('k-1'));
    expect(() => slots.take(apiKey('k-1'))).toThrow(ProblemError);
    expect(slots.total).toBe(5);
    // Releasing another credential's slot frees nothing for the full one.
    other();
    expect(() => slots.take(session('s-full'))).toThrow(ProblemError);
    expect(slots.total).toBe(4);
  });
});
