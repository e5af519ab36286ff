import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../../src-shared/contract/auth-models';
import { type AuthStack, startAuthStack, type Tokens } from './stack.test-support';

/**
 * API keys over HTTP: the list, revocation and removal rules as a client sees them. The service
 * starts once; every key and account a rule depends on is made inside its test, with names of its
 * own (docs/mutation-testing.md). The store itself is unit-tested in api-keys.test.ts.
 */

let stack: AuthStack;
let admin: Tokens;

beforeAll(async () => {
  stack = await startAuthStack();
  admin = await stack.login();
});
afterAll(async () => {
  await stack.close();
});

interface Created {
  key: string;
  apiKey: ApiKeyRecord;
}

async function createKey(bearer: Record<string, string>, name: string): Promise<Created> {
  const res = await stack.call<Created>('POST', '/v1/auth/api-keys', { headers: bearer, body: { name } });
  expect(res.status, name).toBe(201);
  return res.body;
}

/** A member account of its own, logged in. */
async function member(username: string): Promise<Tokens> {
  const res = await stack.call('POST', '/v1/auth/accounts', {
    headers: admin.bearer,
    body: { username, password: `${username}-password-1`, workspaces: [] },
  });
  expect(res.status).toBe(201);
  return stack.login(username, `${username}-password-1`);
}

const works = async (key: string) =>
  (await stack.call('GET', '/v1/workspaces', { headers: { 'x-api-key': key } })).status;

describe('API keys over HTTP', () => {
  it('are listed newest first, whatever order they were made in, each account seeing only its own', async () => {
    const carol = await member('carol-list');
    const base = stack.clock.now();
    try {
      stack.clock.advance(3_000);
      const newest = await createKey(carol.bearer, 'newest');
      stack.clock.advance(-2_000);
      const oldest = await createKey(carol.bearer, 'oldest');
      const admins = await createKey(admin.bearer, 'admins-own');
      stack.clock.advance(1_000);
      const middle = await createKey(carol.bearer, 'middle');
      const list = await stack.call<ApiKeyRecord[]>('GET', '/v1/auth/api-keys', { headers: carol.bearer });
      expect(list.body.map((k) => k.apiKeyId)).toEqual(
        [newest, middle, oldest].map((c) => c.apiKey.apiKeyId),
      );
      const adminList = await stack.call<ApiKeyRecord[]>('GET', '/v1/auth/api-keys', {
        headers: admin.bearer,
      });
      expect(adminList.body.map((k) => k.apiKeyId)).toContain(admins.apiKey.apiKeyId);
      expect(adminList.body.map((k) => k.name)).not.toContain('middle');
    } finally {
      stack.clock.t = base;
    }
  });

  it('cannot be revoked by another account: 404 as for an unknown key, and the key keeps working', async () => {
    const dave = await member('dave-revoke');
    const daves = await createKey(dave.bearer, 'daves');
    const foreign = await stack.call('DELETE', `/v1/auth/api-keys/${daves.apiKey.apiKeyId}`, {
      headers: admin.bearer,
    });
    const unknown = await stack.call('DELETE', '/v1/auth/api-keys/no-such-key', { headers: admin.bearer });
    for (const res of [foreign, unknown]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'api_key_not_found' });
    }
    expect(await works(daves.key)).toBe(200);
  });

  it('revoked twice keep the time of the first revocation', async () => {
    const { apiKey, key } = await createKey(admin.bearer, 'revoked-twice');
    const path = `/v1/auth/api-keys/${apiKey.apiKeyId}`;
    const first = await stack.call<ApiKeyRecord>('DELETE', path, { headers: admin.bearer });
    stack.clock.advance(60_000);
    const second = await stack.call<ApiKeyRecord>('DELETE', path, { headers: admin.bearer });
    expect(first.body.status).toBe('revoked');
    expect(second.status).toBe(200);
    expect(second.body.revokedAt).toBe(first.body.revokedAt);
    expect(await works(key)).toBe(401);
  });

  it('of a removed account stop working, and no other account’s do', async () => {
    const erin = await member('erin-removed');
    const frank = await member('frank-stays');
    const erins = await createKey(erin.bearer, 'erins');
    const franks = await createKey(frank.bearer, 'franks');
    expect(await works(erins.key)).toBe(200);
    const removed = await stack.call('DELETE', `/v1/auth/accounts/${erin.auth.sub}`, {
      headers: admin.bearer,
    });
    expect(removed.status).toBe(200);
    expect(await works(erins.key)).toBe(401);
    expect(await works(franks.key)).toBe(200);
  });
});
