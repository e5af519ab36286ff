import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Account } from '../../../src-shared/contract/auth-models';
import { type AuthStack, startAuthStack, type Tokens } from './stack.test-support';

/**
 * How the authenticator reads the credentials of a request: blank headers, two credentials at
 * once, and an API key's scope against its owner's membership. Every key and account is made in
 * its test, on a stack of its own.
 */

let stack: AuthStack;
let admin: Tokens;
beforeEach(async () => {
  stack = await startAuthStack();
  admin = await stack.login();
});
afterEach(() => stack.close());

/** A no-break space: not stripped by the HTTP parser, but blank to the service. */
const NBSP = '\u00a0';

async function newKey(owner: Tokens, body: Record<string, unknown>): Promise<string> {
  const res = await stack.call<{ key: string }>('POST', '/v1/auth/api-keys', { headers: owner.bearer, body });
  expect(res.status).toBe(201);
  return res.body.key;
}

const status = async (path: string, headers: Record<string, string>) =>
  (await stack.call('GET', path, { headers })).status;

describe('reading credentials', () => {
  it('an empty or blank X-API-Key header is no credential, beside a token or alone', async () => {
    for (const blank of ['', NBSP, ` ${NBSP}\t`]) {
      const label = JSON.stringify(blank);
      const withToken = await stack.call('GET', '/v1/workspaces', {
        headers: { ...admin.bearer, 'x-api-key': blank },
      });
      expect(withToken.status, label).toBe(200);
      const alone = await stack.call('GET', '/v1/workspaces', { headers: { 'x-api-key': blank } });
      expect(alone.status, label).toBe(401);
      // "No credential", not "a bad API key".
      expect(alone.body, label).toMatchObject({ code: 'unauthorized' });
    }
  });

  it('an API key with blanks around it in X-API-Key still authenticates', async () => {
    const key = await newKey(admin, { name: 'padded' });
    expect(await status('/v1/workspaces', { 'x-api-key': `${NBSP}${key}${NBSP}` })).toBe(200);
  });

  it('a working API key and a working access token sent together are refused with a challenge', async () => {
    const key = await newKey(admin, { name: 'twice' });
    expect(await status('/v1/workspaces', { 'x-api-key': key })).toBe(200);
    const res = await stack.call('GET', '/v1/workspaces', { headers: { ...admin.bearer, 'x-api-key': key } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'unauthorized' });
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="skiff", error="invalid_token"/);
  });
});

describe('an API key’s scope', () => {
  it('reaches the workspaces it names that its owner belongs to, an admin’s included', async () => {
    const adminKey = await newKey(admin, { name: 'admin-scoped', workspaces: ['default'] });
    expect(await status('/v1/workspaces/default/clusters', { 'x-api-key': adminKey })).toBe(200);
  });

  it('narrows its owner’s membership and never widens it, read per request', async () => {
    const created = await stack.call<Account>('POST', '/v1/auth/accounts', {
      headers: admin.bearer,
      body: { username: 'kim', password: 'kim-password', workspaces: ['default'] },
    });
    expect(created.status).toBe(201);
    const kim = await stack.login('kim', 'kim-password');
    const key = await newKey(kim, { name: 'kim-scoped', workspaces: ['default'] });
    expect(await status('/v1/workspaces/default/clusters', { 'x-api-key': key })).toBe(200);

    const patched = await stack.call('PATCH', `/v1/auth/accounts/${created.body.accountId}`, {
      headers: admin.bearer,
      body: { workspaces: [] },
    });
    expect(patched.status).toBe(200);
    // The key still names "default", but its owner no longer belongs to it.
    expect(await status('/v1/workspaces/default/clusters', { 'x-api-key': key })).toBe(404);
  });
});
