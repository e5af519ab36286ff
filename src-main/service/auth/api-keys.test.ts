import { describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { silentLogger } from '../logger';
import { ApiKeys, DEFAULT_API_KEY_DAYS } from './api-keys';
import { noReplicas } from './replica-sync';
import { API_KEY_PREFIX } from './secrets';
import { DAY, HOUR, MINUTE, openStore, SECOND } from './session-store.test-support';

/**
 * API keys called directly on their store, over an in-memory database on a fake clock; each test
 * builds its own store and keys (see docs/mutation-testing.md). The HTTP side is in
 * credentials.it.test.ts and api-keys.it.test.ts.
 */

async function openKeys() {
  const f = await openStore(['alice', 'bob']);
  const { backend } = f;
  const load = () => ApiKeys.load(backend, f.clock.now, noReplicas(backend, silentLogger()));
  return {
    ...f,
    keys: await load(),
    /** What the next start of the service would load. */
    reopenKeys: load,
    lastUsedRow: (apiKeyId: string) =>
      f.db.get<{ last_used_at: number | null }>('SELECT last_used_at FROM api_keys WHERE api_key_id = $id', {
        id: apiKeyId,
      })?.last_used_at,
  };
}

const ids = (list: { apiKeyId: string }[]) => list.map((k) => k.apiKeyId);

describe('a new API key', () => {
  it('is shown by a hint: its prefix and the first four characters of its secret, then an ellipsis', async () => {
    const f = await openKeys();
    const { record, key } = await f.keys.create('alice', { name: 'ci' });
    expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(record.hint).toBe(`${key.slice(0, API_KEY_PREFIX.length + 4)}…`);
    expect(record.hint).toHaveLength(API_KEY_PREFIX.length + 5);
    expect((await f.reopenKeys()).list('alice')[0]?.hint).toBe(record.hint);
  });

  it('keeps each workspace it is scoped to once, and is unscoped (null) without a list', async () => {
    const f = await openKeys();
    const scoped = await f.keys.create('alice', { name: 'scoped', workspaces: ['prod', 'dev', 'prod'] });
    const open = await f.keys.create('alice', { name: 'open' });
    expect(scoped.record.workspaces).toEqual(['prod', 'dev']);
    expect(open.record.workspaces).toBeNull();
    const reloaded = (await f.reopenKeys()).list('alice');
    expect(reloaded.find((k) => k.name === 'scoped')?.workspaces).toEqual(['prod', 'dev']);
    expect(reloaded.find((k) => k.name === 'open')?.workspaces).toBeNull();
  });

  it('expires after the days asked for, 90 by default, and is refused from that instant on', async () => {
    const f = await openKeys();
    const short = await f.keys.create('alice', { name: 'short', expiresInDays: 2 });
    const long = await f.keys.create('alice', { name: 'default' });
    expect(long.record.expiresAt - long.record.createdAt).toBe(DEFAULT_API_KEY_DAYS * DAY);
    f.clock.advance(2 * DAY - SECOND);
    expect(f.keys.toRecord(short.record).status).toBe('active');
    expect((await f.keys.authenticate(short.key))?.apiKeyId).toBe(short.record.apiKeyId);
    f.clock.advance(SECOND);
    expect(f.keys.toRecord(short.record).status).toBe('expired');
    expect(await f.keys.authenticate(short.key)).toBeUndefined();
    expect(f.keys.toRecord(long.record).status).toBe('active');
  });
});

describe('the list of an account’s API keys', () => {
  it('is newest first, whatever order the keys were created in, and only that account’s', async () => {
    const f = await openKeys();
    f.clock.advance(2 * HOUR);
    const newest = await f.keys.create('alice', { name: 'newest' });
    f.clock.advance(-2 * HOUR);
    const oldest = await f.keys.create('alice', { name: 'oldest' });
    f.clock.advance(3 * HOUR);
    const bobs = await f.keys.create('bob', { name: 'bobs' });
    f.clock.advance(-2 * HOUR);
    const middle = await f.keys.create('alice', { name: 'middle' });
    const expected = ids([newest.record, middle.record, oldest.record]);
    expect(ids(f.keys.list('alice'))).toEqual(expected);
    expect(ids(f.keys.list('bob'))).toEqual([bobs.record.apiKeyId]);
    expect(f.keys.list('carol')).toEqual([]);
  });
});

describe('revoking an API key', () => {
  it('is refused as not found for another account’s key, which keeps working', async () => {
    const f = await openKeys();
    const bobs = await f.keys.create('bob', { name: 'bobs' });
    await f.keys.create('alice', { name: 'alices' });
    let refusal: unknown;
    try {
      await f.keys.revoke('alice', bobs.record.apiKeyId);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(ProblemError);
    expect(refusal).toMatchObject({ code: 'api_key_not_found' });
    expect((refusal as Error).message).toContain(bobs.record.apiKeyId);
    await expect(f.keys.revoke('alice', 'no-such-key')).rejects.toThrow(ProblemError);
    expect(f.keys.toRecord(bobs.record).status).toBe('active');
    expect((await f.keys.authenticate(bobs.key))?.apiKeyId).toBe(bobs.record.apiKeyId);
  });

  it('revokes the key asked for only, and for good: after a restart it is still revoked', async () => {
    const f = await openKeys();
    const other = await f.keys.create('alice', { name: 'other' });
    const target = await f.keys.create('alice', { name: 'target' });
    f.clock.advance(MINUTE);
    const revoked = await f.keys.revoke('alice', target.record.apiKeyId);
    expect(revoked.apiKeyId).toBe(target.record.apiKeyId);
    expect(f.keys.toRecord(revoked)).toMatchObject({
      status: 'revoked',
      revokedAt: new Date(f.clock.now()).toISOString(),
    });
    expect(await f.keys.authenticate(target.key)).toBeUndefined();
    expect((await f.keys.authenticate(other.key))?.apiKeyId).toBe(other.record.apiKeyId);
    const after = await f.reopenKeys();
    expect(await after.authenticate(target.key)).toBeUndefined();
    expect(after.list('alice').find((k) => k.apiKeyId === target.record.apiKeyId)?.revokedAt).toBe(
      f.clock.now(),
    );
  });

  it('a second time keeps the time of the first revocation', async () => {
    const f = await openKeys();
    const { record } = await f.keys.create('alice', { name: 'twice' });
    await f.keys.revoke('alice', record.apiKeyId);
    const first = f.clock.now();
    f.clock.advance(HOUR);
    expect((await f.keys.revoke('alice', record.apiKeyId)).revokedAt).toBe(first);
    expect((await f.reopenKeys()).list('alice')[0]?.revokedAt).toBe(first);
  });
});

describe('when a key was last used', () => {
  it('is written at its first use, then at most once a minute, and by a flush', async () => {
    const f = await openKeys();
    const { record, key } = await f.keys.create('alice', { name: 'poller' });
    const first = f.clock.now();
    await f.keys.authenticate(key);
    expect(f.lastUsedRow(record.apiKeyId)).toBe(first);
    f.clock.advance(30 * SECOND);
    await f.keys.authenticate(key);
    expect(f.keys.toRecord(record).lastUsedAt).toBe(new Date(f.clock.now()).toISOString());
    // Held in memory: less than a minute since the last write.
    expect(f.lastUsedRow(record.apiKeyId)).toBe(first);
    f.clock.advance(30 * SECOND);
    await f.keys.authenticate(key);
    // A minute exactly since the last write.
    expect(f.lastUsedRow(record.apiKeyId)).toBe(f.clock.now());
    f.clock.advance(SECOND);
    await f.keys.authenticate(key);
    expect(f.lastUsedRow(record.apiKeyId)).toBe(f.clock.now() - SECOND);
    await f.keys.flush();
    expect(f.lastUsedRow(record.apiKeyId)).toBe(f.clock.now());
    expect((await f.reopenKeys()).list('alice')[0]?.lastUsedAt).toBe(f.clock.now());
  });

  it('is not written for a refused key', async () => {
    const f = await openKeys();
    const { record, key } = await f.keys.create('alice', { name: 'refused' });
    await f.keys.revoke('alice', record.apiKeyId);
    expect(await f.keys.authenticate(key)).toBeUndefined();
    await f.keys.flush();
    expect(f.lastUsedRow(record.apiKeyId)).toBeNull();
  });
});

describe('forgetting an account’s API keys', () => {
  it('removes its keys, in memory and in the table, and no other account’s', async () => {
    const f = await openKeys();
    const alices = [
      await f.keys.create('alice', { name: 'a1' }),
      await f.keys.create('alice', { name: 'a2' }),
    ];
    const bobs = await f.keys.create('bob', { name: 'b1' });
    await f.keys.forget('alice');
    for (const k of alices) expect(await f.keys.authenticate(k.key)).toBeUndefined();
    expect(f.keys.list('alice')).toEqual([]);
    expect((await f.keys.authenticate(bobs.key))?.apiKeyId).toBe(bobs.record.apiKeyId);
    expect(ids(f.keys.list('bob'))).toEqual([bobs.record.apiKeyId]);
    const after = await f.reopenKeys();
    for (const k of alices) expect(await after.authenticate(k.key)).toBeUndefined();
    expect(after.list('alice')).toEqual([]);
    expect(ids(after.list('bob'))).toEqual([bobs.record.apiKeyId]);
  });
});
