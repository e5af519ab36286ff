/**
 * What Skiff keeps of an OIDC account at its provider (links.ts), on both backends: the refresh
 * token sealed for its own account under the secret key, and the recheck claimed by one caller.
 */
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../storage/backend';
import { AUTH_BACKENDS, openBackend, withPostgres } from '../backends.test-support';
import { claimRecheck, dueLinks, type Link, loadLink, saveChecked, saveLink, TokenSeal } from './links';

withPostgres();

const SECRET = 'k'.repeat(32);
const T0 = 1_800_000_000_000;

describe('TokenSeal', () => {
  it('opens a token sealed for the same account under the same secret, and nothing else', () => {
    const seal = new TokenSeal(SECRET);
    const sealed = seal.seal('acc-1', 'provider-refresh-token');
    expect(sealed).not.toContain('provider-refresh-token');
    expect(seal.open('acc-1', sealed)).toBe('provider-refresh-token');
    expect(seal.open('acc-2', sealed)).toBeUndefined();
    expect(new TokenSeal('j'.repeat(32)).open('acc-1', sealed)).toBeUndefined();
    expect(seal.open('acc-1', `${sealed.slice(0, -4)}AAAA`)).toBeUndefined();
    expect(seal.open('acc-1', 'x')).toBeUndefined();
    // A fresh nonce each time: the same token never seals to the same text.
    expect(seal.seal('acc-1', 'provider-refresh-token')).not.toBe(sealed);
  });

  it('opens what an earlier run sealed: the key derivation is part of the stored format', () => {
    // Sealed by this code once; a changed derivation would make every stored token unreadable.
    const stored = 'jIG2MucTQYSC43ZYb6gpAB7H9EcaqGXIOxDDyxoeTC6z4sTp8NX-WdYpDEaIqXWi_T0';
    expect(new TokenSeal(SECRET).open('acc-1', stored)).toBe('provider-refresh-token');
  });

  it('refuses a secret shorter than 32 bytes', () => {
    expect(() => new TokenSeal('k'.repeat(31))).toThrow('the secret key must be at least 32 bytes');
    expect(() => new TokenSeal('k'.repeat(32))).not.toThrow();
  });
});

async function withAccount(db: Queryable, id: string) {
  await db.run(
    `INSERT INTO accounts (account_id, username, role, workspaces, password_hash, created_at, password_changed_at, source, oidc_groups)
     VALUES ($id, $id, 'member', '[]', '', 1, 1, 'oidc', '[]')`,
    { id },
  );
}

const link = (accountId: string, nextCheckAt: number): Link => ({
  accountId,
  issuer: 'https://idp.example.com',
  subject: `sub-${accountId}`,
  refreshToken: 'sealed',
  checkedAt: T0,
  nextCheckAt,
});

describe.each(AUTH_BACKENDS)('links on $name', ({ name, skip }) => {
  it.skipIf(skip)(
    'are saved, replaced by a later sign-in of the same subject only, and read back',
    async () => {
      const db = await openBackend(name);
      await withAccount(db, 'a');
      await saveLink(db, link('a', T0 + 10));
      expect(await loadLink(db, 'a')).toEqual(link('a', T0 + 10));
      expect(await saveLink(db, { ...link('a', T0 + 20), refreshToken: null })).toBe(true);
      expect(await loadLink(db, 'a')).toEqual({ ...link('a', T0 + 20), refreshToken: null });
      // Another subject or issuer never takes the account's link over.
      expect(await saveLink(db, { ...link('a', T0 + 30), subject: 'other' })).toBe(false);
      expect(await saveLink(db, { ...link('a', T0 + 30), issuer: 'https://x' })).toBe(false);
      expect(await loadLink(db, 'a')).toEqual({ ...link('a', T0 + 20), refreshToken: null });
      expect(await loadLink(db, 'nobody')).toBeUndefined();
    },
  );

  it.skipIf(skip)('go with their account', async () => {
    const db = await openBackend(name);
    await withAccount(db, 'a');
    await saveLink(db, link('a', T0));
    await db.run("DELETE FROM accounts WHERE account_id = 'a'");
    expect(await loadLink(db, 'a')).toBeUndefined();
  });

  it.skipIf(skip)('due ones come oldest first, bounded, and only once due', async () => {
    const db = await openBackend(name);
    for (const [id, at] of [
      ['a', T0 + 3],
      ['b', T0 + 1],
      ['c', T0 + 2],
      ['d', T0 + 9],
    ] as const) {
      await withAccount(db, id);
      await saveLink(db, link(id, at));
    }
    expect((await dueLinks(db, T0 + 3, 10)).map((l) => l.accountId)).toEqual(['b', 'c', 'a']);
    expect((await dueLinks(db, T0 + 3, 2)).map((l) => l.accountId)).toEqual(['b', 'c']);
    expect(await dueLinks(db, T0, 10)).toEqual([]);
  });

  it.skipIf(skip)(
    'a recheck is claimed by exactly one caller, and not again once claimed or checked',
    async () => {
      const db = await openBackend(name);
      await withAccount(db, 'a');
      await saveLink(db, link('a', T0));
      const seen = (await loadLink(db, 'a'))!;
      const claims = await Promise.all([1, 2, 3].map(() => claimRecheck(db, seen, T0 + 60_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await loadLink(db, 'a'))!.nextCheckAt).toBe(T0 + 60_000);
      expect(await claimRecheck(db, seen, T0 + 70_000)).toBe(false);
      await saveChecked(db, 'a', 'new-sealed', T0 + 5, T0 + 900_000);
      expect(await loadLink(db, 'a')).toEqual({
        ...link('a', T0 + 900_000),
        refreshToken: 'new-sealed',
        checkedAt: T0 + 5,
      });
      await saveChecked(db, 'a', null, T0 + 6, T0 + 1);
      expect((await loadLink(db, 'a'))!.refreshToken).toBeNull();
    },
  );
});
