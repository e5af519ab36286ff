import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import type { AuthCore } from './core';
import { type AuthStack, startAuthStack, type Tokens } from './stack.test-support';

/**
 * The overlap window keeps, in memory, the pair a rotated refresh token was exchanged for, so a
 * client whose answer was lost gets the same pair again. Each such entry lives exactly as long as
 * its window and no longer than its session; the clock is the stack's fake one.
 */

const WINDOW_MS = 10_000;

let stack: AuthStack;
let core: AuthCore;
let a: Tokens;
let b: Tokens;
beforeEach(async () => {
  stack = await startAuthStack();
  core = await stack.service.auth.core();
  a = await stack.login();
  b = await stack.login();
});
afterEach(() => stack.close());

const refresh = (token: string) =>
  stack.call<{ refreshToken: string; code?: string }>('POST', '/v1/auth/refresh', {
    body: { refreshToken: token },
  });

describe('an overlap entry lasts exactly its window', () => {
  it('a retry at the window’s last millisecond still gets the same pair', async () => {
    const pair = await refresh(a.refreshToken);
    stack.clock.advance(WINDOW_MS);
    const retry = await refresh(a.refreshToken);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(pair.body);
  });

  it('is dropped after its window, and a retry then is reuse', async () => {
    expect((await refresh(a.refreshToken)).status).toBe(200);
    expect(core.issuer.pendingRetries).toBe(1);
    stack.clock.advance(WINDOW_MS + 1);
    // Any later refresh sweeps the stale entries: only b's own new one is left.
    expect((await refresh(b.refreshToken)).status).toBe(200);
    expect(core.issuer.pendingRetries).toBe(1);
    const late = await refresh(a.refreshToken);
    expect([late.status, late.body.code]).toEqual([401, 'refresh_token_reused']);
  });

  it('entries still inside their window are kept', async () => {
    await refresh(a.refreshToken);
    stack.clock.advance(WINDOW_MS - 1);
    await refresh(b.refreshToken);
    expect(core.issuer.pendingRetries).toBe(2);
  });
});

describe('an ended session’s overlap entry is forgotten at once', () => {
  it('on logout', async () => {
    await refresh(a.refreshToken);
    await refresh(b.refreshToken);
    expect(core.issuer.pendingRetries).toBe(2);
    const out = await stack.call('POST', `/v1/auth/sessions/${a.sessionId}/logout`, { headers: b.bearer });
    expect(out.status).toBe(200);
    expect(core.issuer.pendingRetries).toBe(1);
    expect((await refresh(a.refreshToken)).status).toBe(401);
  });

  it('on a password change, for the sessions it ends', async () => {
    await refresh(a.refreshToken);
    await refresh(b.refreshToken);
    const changed = await stack.call('POST', '/v1/auth/password', {
      headers: b.bearer,
      body: { currentPassword: TEST_ADMIN_PASSWORD, newPassword: 'another-password-1' },
    });
    expect(changed.status).toBe(200);
    // a's session ended with the change; b's, the one that asked, goes on with its entry.
    expect(core.issuer.pendingRetries).toBe(1);
  });

  it('on reuse detection', async () => {
    const second = (await refresh(a.refreshToken)).body.refreshToken;
    await refresh(second);
    expect(core.issuer.pendingRetries).toBe(2);
    // The first token is now older than the previous one: reuse, and a's session ends.
    expect((await refresh(a.refreshToken)).body.code).toBe('refresh_token_reused');
    expect(core.issuer.pendingRetries).toBeLessThan(2);
  });
});
