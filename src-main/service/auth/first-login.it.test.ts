/**
 * The session probe tells a login page where the generated first password is, over real HTTP:
 * while the generated `admin` is the only account with that password, and never the password.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CurrentSession } from '../../../src-shared/contract/auth-models';
import { ADMIN_PASSWORD_FILE } from './bootstrap';
import { type AuthStack, startAuthStack } from './stack.test-support';

let stack: AuthStack;
afterEach(() => stack?.close());

const probe = async (headers: Record<string, string> = {}) =>
  (await stack.call<CurrentSession>('GET', '/v1/session', { headers })).body;

describe('the first password, as the login page learns of it', () => {
  it('is named by its file until a second account exists; the password itself is never answered', async () => {
    stack = await startAuthStack({ config: { adminPassword: undefined } });
    const file = join(stack.dataDir, ADMIN_PASSWORD_FILE);
    const password = readFileSync(file, 'utf8').trim();
    const anonymous = await probe();
    expect(anonymous).toEqual({
      authenticated: false,
      firstLogin: { username: 'admin', passwordFile: file },
    });
    expect(JSON.stringify(anonymous)).not.toContain(password);

    const admin = await stack.login('admin', password);
    // Signed in, the probe answers the session, not the hint.
    expect(await probe(admin.bearer)).toMatchObject({ authenticated: true });
    expect(await probe(admin.bearer)).not.toHaveProperty('firstLogin');

    const created = await stack.call('POST', '/v1/auth/accounts', {
      headers: admin.bearer,
      body: { username: 'dev.one', password: 'another-password' },
    });
    expect(created.status).toBe(201);
    expect(await probe()).toEqual({ authenticated: false });
  });

  it('is gone once admin changes the password', async () => {
    stack = await startAuthStack({ config: { adminPassword: undefined } });
    const password = readFileSync(join(stack.dataDir, ADMIN_PASSWORD_FILE), 'utf8').trim();
    const admin = await stack.login('admin', password);
    const changed = await stack.call('POST', '/v1/auth/password', {
      headers: admin.bearer,
      body: { currentPassword: password, newPassword: 'a-chosen-password' },
    });
    expect(changed.status).toBe(200);
    expect(await probe()).toEqual({ authenticated: false });
  });

  it('is never answered for a configured password', async () => {
    stack = await startAuthStack();
    expect(await probe()).toEqual({ authenticated: false });
  });
});
