import { describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { ApiKeys, DEFAULT_API_KEY_DAYS } from './api-keys';
import { API_KEY_PREFIX } from './secrets';
import { DAY, HOUR, MINUTE, openStore, SECOND } from './session-store.test-support';

/**
 * API keys called directly on their store, over an in-memory database on a fake clock; each test
 * builds its own store and keys (see docs/mutation-testing.md). The HTTP side is in
 * credentials.it.test.ts and api-keys.it.test.ts.
 */

function openKeys() {
  const f = openStore(['alice', 'bob']);
  return {
    ...f,
    keys: new ApiKeys(f.db, f.clock.now),
    /** What the next start of the service would load. */
    reopenKeys: () => new ApiKeys(f.db, f.clock.now),
    lastUsedRow: (apiKeyId: string) =>
      f.db.get<{ last_used_at: number | null }>('SELECT last_used_at FROM api_keys WHERE api_key_id = $id', {
        id: apiKeyId,
      })?.last_used_at,
  };
}

const ids = (list: { apiKeyId: string }[]) => list.map((k) => k.apiKeyId);

describe('a new API key', () => {
  it('is shown by a hint: its prefix and the first four characters of its secret, then an ellipsis', () => {
    const f = openKeys();
    const { record, key } = f.keys.create('alice', { name: 'ci' });
    expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(record.hint).toBe(`${key.slice(0, API_KEY_PREFIX.length + 4)}…`);
    expect(record.hint).toHaveLength(API_KEY_PREFIX.length + 5);
    expect(f.reopenKeys().list('alice')[0]?.hint).toBe(record.hint);
  });

  it('keeps each workspace it is scoped to once, and is unscoped (null) without a list', () => {
    const f = openKeys();
    const scoped = f.keys.create('alice', { name: 'scoped', workspaces: ['prod', 'dev', 'prod'] });
    const open = f.keys.create('alice', { name: 'open' });
    expect(scoped.record.workspaces).toEqual(['prod', 'dev']);
    expect(open.record.workspaces).toBeNull();
    const reloaded = f.reopenKeys().list('alice');
    expect(reloaded.find((k) => k.name === 'scoped')?.workspaces).toEqual(['prod', 'dev']);
    expect(reloaded.find((k) => k.name === 'open')?.workspaces).toBeNull();
  });

  it('expires after the days asked for, 90 by default, and is refused from that instant on', () => {
    const f = openKeys();
    const short = f.keys.create('alice', { name: 'short', expiresInDays: 2 });
    const long = f.keys.create('alice', { name: 'default' });
    expect(long.record.expiresAt - long.record.createdAt).toBe(DEFAULT_API_KEY_DAYS * DAY);
    f.clock.advance(2 * DAY - SECOND);
    expect(f.keys.toRecord(short.record).status).toBe('active');
    expect(f.keys.authenticate(short.key)?.apiKeyId).toBe(short.record.apiKeyId);
    f.clock.advance(SECOND);
    expect(f.keys.toRecord(short.record).status).toBe('expired');
    expect(f.keys.authenticate(short.key)).toBeUndefined();
    expect(f.keys.toRecord(long.record).status).toBe('active');
  });
});

describe('the list of an account’s API keys', () => {
  it('is newest first, whatever order the keys were created in, and only that account’s', () => {
    const f = openKeys();
    f.clock.advance(2 * HOUR);
    const newest = f.keys.create('alice', { name: 'newest' });
    f.clock.advance(-2 * HOUR);
    const oldest = f.keys.create('alice', { name: 'oldest' });
    f.clock.advance(3 * HOUR);
    const bobs = f.keys.create('bob', { name: 'bobs' });
    f.clock.advance(-2 * HOUR);
    const middle = f.keys.create('alice', { name: 'middle' });
    const expected = ids([newest.record, middle.record, oldest.record]);
    expect(ids(f.keys.list('alice'))).toEqual(expected);
    expect(ids(f.keys.list('bob'))).toEqual([bobs.record.apiKeyId]);
    expect(f.keys.list('carol')).toEqual([]);
  });
});

describe('revoking an API key', () => {
  it('is refused as not found for another account’s key, which keeps working', () => {
    const f = openKeys();
    const bobs = f.keys.create('bob', { name: 'bobs' });
    f.keys.create('alice', { name: 'alices' });
    let refusal: unknown;
    try {
      f.keys.revoke('alice', bobs.record.apiKeyId);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(ProblemError);
    expect(refusal).toMatchObject({ code: 'api_key_not_found' });
    expect((refusal as Error).message).toContain(bobs.record.apiKeyId);
    expect(() => f.keys.revoke('alice', 'no-such-key')).toThrow(ProblemError);
    expect(f.keys.toRecord(bobs.record).status).toBe('active');
    expect(f.keys.authenticate(bobs.key)?.apiKeyId).toBe(bobs.record.apiKeyId);
  });

  it('revokes the key asked for only, and for good: after a restart it is still revoked', () => {
    const f = openKeys();
    const other = f.keys.create('alice', { name: 'other' });
    const target = f.keys.create('alice', { name: 'target' });
    f.clock.advance(MINUTE);
    const revoked = f.keys.revoke('alice', target.record.apiKeyId);
    expect(revoked.apiKeyId).toBe(target.record.apiKeyId);
    expect(f.keys.toRecord(revoked)).toMatchObject({
      status: 'revoked',
      revokedAt: new Date(f.clock.now()).toISOString(),
    });
    expect(f.keys.authenticate(target.key)).toBeUndefined();
    expect(f.keys.authenticate(other.key)?.apiKeyId).toBe(other.record.apiKeyId);
    const after = f.reopenKeys();
    expect(after.authenticate(target.key)).toBeUndefined();
    expect(after.list('alice').find((k) => k.apiKeyId === target.record.apiKeyId)?.revokedAt).toBe(
      f.clock.now(),
    );
  });

  it('a second time keeps the time of the first revocation', () => {
    const f = openKeys();
    const { record } = f.keys.create('alice', { name: 'twice' });
    f.keys.revoke('alice', record.apiKeyId);
    const first = f.clock.now();
    f.clock.advance(HOUR);
    expect(f.keys.revoke('alice', record.apiKeyId).revokedAt).toBe(first);
    expect(f.reopenKeys().list('alice')[0]?.revokedAt).toBe(first);
  });
});

describe('when a key was last used', () => {
  it('is written at its first use, then at most once a minute, and by a flush', () => {
    const f = openKeys();
    const { record, key } = f.keys.create('alice', { name: 'poller' });
    const first = f.clock.now();
    f.keys.authenticate(key);
    expect(f.lastUsedRow(record.apiKeyId)).toBe(first);
    f.clock.advance(30 * SECOND);
    f.keys.authenticate(key);
    expect(f.keys.toRecord(record).lastUsedAt).toBe(new Date(f.clock.now()).toISOString());
    // Held in memory: less than a minute since the last write.
    expect(f.lastUsedRow(record.apiKeyId)).toBe(first);
    f.clock.advance(30 * SECOND);
    f.keys.authenticate(key);
    // A minute exactly since the last write.
    expect(f.lastUsedRow(record.apiKeyId)).toBe(f.clock.now());
    f.clock.advance(SECOND);
    f.keys.authenticate(key);
    expect(f.lastUsedRow(record.apiKeyId)).toBe(f.clock.now() - SECOND);
    f.keys.flush();
    expect(f.lastUsedRow(record.apiKeyId)).toBe(f.clock.now());
    expect(f.reopenKeys().list('alice')[0]?.lastUsedAt).toBe(f.clock.now());
  });

  it('is not written for a refused key', () => {
    const f = openKeys();
    const { record, key } = f.keys.create('alice', { name: 'refused' });
    f.keys.revoke('alice', record.apiKeyId);
    expect(f.keys.authenticate(key)).toBeUndefined();
    f.keys.flush();
    expect(f.lastUsedRow(record.apiKeyId)).toBeNull();
  });
});

describe('forgetting an account’s API keys', () => {
  it('removes its keys, in memory and in the table, and no other account’s', () => {
    const f = openKeys();
    const alices = [f.keys.create('alice', { name: 'a1' }), f.keys.create('alice', { name: 'a2' })];
    const bobs = f.keys.create('bob', { name: 'b1' });
    f.keys.forget('alice');
    for (const k of alices) expect(f.keys.authenticate(k.key)).toBeUndefined();
    expect(f.keys.list('alice')).toEqual([]);
    expect(f.keys.authenticate(bobs.key)?.apiKeyId).toBe(bobs.record.apiKeyId);
    expect(ids(f.keys.list('bob'))).toEqual([bobs.record.apiKeyId]);
    const after = f.reopenKeys();
    for (const k of alices) expect(after.authenticate(k.key)).toBeUndefined();
    expect(after.list('alice')).toEqual([]);
    expect(ids(after.list('bob'))).toEqual([bobs.record.apiKeyId]);
  });
});
