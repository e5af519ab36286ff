import { describe, expect, it } from 'vitest';
import type { Account } from '../../../src-shared/contract/auth-models';
import type { Workspace } from '../../../src-shared/contract/models';
import type { AppSettings } from '../../../src-shared/contract/settings-models';
import type { AuthStack, Tokens } from '../auth/stack.test-support';
import { stackPerTest } from '../auth/stack-per-test.test-support';

/**
 * Workspaces and application settings change only for administrators (operations/settings.ts):
 * the contract marks these operations "administrators", and only the handler enforces it.
 */
const started = stackPerTest();

async function signedInMember(s: AuthStack, admin: Tokens): Promise<Tokens> {
  const res = await s.call<Account>('POST', '/v1/auth/accounts', {
    headers: admin.bearer,
    body: { username: 'walt', password: 'walt-password' },
  });
  expect(res.status).toBe(201);
  return s.login('walt', 'walt-password');
}

async function workspaces(s: AuthStack, admin: Tokens) {
  const res = await s.call<Workspace[]>('GET', '/v1/workspaces', { headers: admin.bearer });
  expect(res.status).toBe(200);
  return res.body.map((w) => [w.workspaceId, w.name]);
}

describe('a member who is not an administrator', () => {
  it('may not create a workspace, and none is created', async () => {
    const s = await started();
    const admin = await s.login();
    const walt = await signedInMember(s, admin);
    const res = await s.call<{ code: string; detail: string }>('POST', '/v1/workspaces', {
      headers: walt.bearer,
      body: { workspaceId: 'walts', name: "Walt's" },
    });
    expect([res.status, res.body.code]).toEqual([403, 'admin_required']);
    expect(res.body.detail).toContain('create workspaces');
    expect(await workspaces(s, admin)).toEqual([['default', 'Default']]);
  });

  it('may not rename or remove a workspace, which stays as it was', async () => {
    const s = await started();
    const admin = await s.login();
    const made = await s.call('POST', '/v1/workspaces', {
      headers: admin.bearer,
      body: { workspaceId: 'team-a', name: 'Team A' },
    });
    expect(made.status).toBe(201);
    const walt = await signedInMember(s, admin);

    const renamed = await s.call<{ code: string; detail: string }>('PATCH', '/v1/workspaces/team-a', {
      headers: walt.bearer,
      body: { name: 'Mine now' },
    });
    expect([renamed.status, renamed.body.code]).toEqual([403, 'admin_required']);
    expect(renamed.body.detail).toContain('change workspaces');
    const removed = await s.call<{ code: string; detail: string }>('DELETE', '/v1/workspaces/team-a', {
      headers: walt.bearer,
    });
    expect([removed.status, removed.body.code]).toEqual([403, 'admin_required']);
    expect(removed.body.detail).toContain('remove workspaces');
    expect(await workspaces(s, admin)).toEqual([
      ['default', 'Default'],
      ['team-a', 'Team A'],
    ]);
  });

  it('may read the application settings but not change them', async () => {
    const s = await started();
    const admin = await s.login();
    const walt = await signedInMember(s, admin);
    const before = await s.call<AppSettings>('GET', '/v1/app/settings', { headers: walt.bearer });
    expect(before.status).toBe(200);
    const next = before.body.tokens.accessTokenMinutes === 30 ? 20 : 30;

    const changed = await s.call<{ code: string; detail: string }>('PATCH', '/v1/app/settings', {
      headers: walt.bearer,
      body: { tokens: { accessTokenMinutes: next } },
    });
    expect([changed.status, changed.body.code]).toEqual([403, 'admin_required']);
    expect(changed.body.detail).toContain('change application settings');
    const after = await s.call<AppSettings>('GET', '/v1/app/settings', { headers: admin.bearer });
    expect(after.body).toEqual(before.body);

    // The same change from an administrator goes through: the refusal above was the role's.
    const byAdmin = await s.call<AppSettings>('PATCH', '/v1/app/settings', {
      headers: admin.bearer,
      body: { tokens: { accessTokenMinutes: next } },
    });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.tokens.accessTokenMinutes).toBe(next);
  });
});
