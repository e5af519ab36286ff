/**
 * The sign-ins under way and the one-time codes (flows.ts), on both backends: single use, bound
 * to the browser, bounded in time on the service clock, and nothing usable stored in the clear.
 */
import { describe, expect, it } from 'vitest';
import type { LoginResult } from '../../../../src-shared/contract/auth-models';
import { AUTH_BACKENDS, openBackend, withPostgres } from '../backends.test-support';
import { hashSecret } from '../secrets';
import {
  CODE_PREFIX,
  CODE_TTL_MS,
  FLOW_TTL_MS,
  newFlow,
  openFor,
  saveCode,
  saveFlow,
  sealFor,
  sweepFlows,
  takeCode,
  takeFlow,
} from './flows';

withPostgres();

const T0 = 1_800_000_000_000;
const result: LoginResult = {
  accessToken: 'at',
  refreshToken: 'skiff_rt_x',
  sessionId: 's1',
  auth: { sub: 'a', sid: 's1', jti: 'j', iat: 1, exp: 2 },
};

describe('newFlow', () => {
  it('makes four independent 256-bit values and keeps returnTo', () => {
    const f = newFlow('/x');
    expect(f.returnTo).toBe('/x');
    const values = [f.state, f.browser, f.nonce, f.codeVerifier];
    for (const v of values) expect(v).toMatch(/^[\w-]{43}$/);
    expect(new Set(values).size).toBe(4);
  });
});

describe('sealed codes', () => {
  it('open with their own code and browser only', () => {
    const sealed = sealFor('code-a', 'browser-a', result);
    expect(openFor('code-a', 'browser-a', sealed)).toEqual(result);
    expect(openFor('code-b', 'browser-a', sealed)).toBeUndefined();
    expect(openFor('code-a', 'browser-b', sealed)).toBeUndefined();
    expect(openFor('code-a', 'browser-a', `${sealed.slice(0, -4)}AAAA`)).toBeUndefined();
    expect(openFor('code-a', 'browser-a', 'short')).toBeUndefined();
  });

  it('refuse a sealed value that is not a login result', async () => {
    const { createCipheriv, hkdfSync } = await import('node:crypto');
    const key = Buffer.from(hkdfSync('sha256', 'c', 'b', 'skiff oidc code v1', 32));
    const iv = Buffer.alloc(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update('{"not":"a login"}'), cipher.final()]);
    expect(
      openFor('c', 'b', Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')),
    ).toBeUndefined();
    // The same key and layout with a login in it opens: the refusal above was the content.
    const again = createCipheriv('aes-256-gcm', key, iv);
    const login = Buffer.concat([again.update(JSON.stringify(result)), again.final()]);
    expect(openFor('c', 'b', Buffer.concat([iv, login, again.getAuthTag()]).toString('base64url'))).toEqual(
      result,
    );
  });
});

describe.each(AUTH_BACKENDS)('flows and codes on $name', ({ name, skip }) => {
  it.skipIf(skip)('a flow is taken once, by the browser that started it, within 10 minutes', async () => {
    const db = await openBackend(name);
    const flow = newFlow('/back');
    await saveFlow(db, flow, T0);
    const row = await db.get<Record<string, unknown>>('SELECT * FROM oidc_flows');
    // Only hashes of the state and the browser cookie are stored.
    expect(row).toMatchObject({ state_hash: hashSecret(flow.state), browser_hash: hashSecret(flow.browser) });
    expect(Number(row!.expires_at)).toBe(T0 + FLOW_TTL_MS);
    expect(await takeFlow(db, flow.state, flow.browser, T0 + FLOW_TTL_MS - 1)).toEqual(flow);
    expect(await takeFlow(db, flow.state, flow.browser, T0 + 1)).toBe('unknown');
  });

  it.skipIf(skip)(
    'another browser, a late one, or an unknown state is refused, and the state is spent',
    async () => {
      const db = await openBackend(name);
      const other = newFlow('/');
      await saveFlow(db, other, T0);
      expect(await takeFlow(db, other.state, 'someone-else', T0)).toBe('other_browser');
      expect(await takeFlow(db, other.state, other.browser, T0)).toBe('unknown');
      const noCookie = newFlow('/');
      await saveFlow(db, noCookie, T0);
      expect(await takeFlow(db, noCookie.state, undefined, T0)).toBe('other_browser');
      const late = newFlow('/');
      await saveFlow(db, late, T0);
      expect(await takeFlow(db, late.state, late.browser, T0 + FLOW_TTL_MS)).toBe('expired');
      expect(await takeFlow(db, late.state, late.browser, T0)).toBe('unknown');
      expect(await takeFlow(db, 'never-issued', 'b', T0)).toBe('unknown');
    },
  );

  it.skipIf(skip)('of two takers of one state, exactly one gets the flow', async () => {
    const db = await openBackend(name);
    const flow = newFlow('/');
    await saveFlow(db, flow, T0);
    const got = await Promise.all([1, 2, 3].map(() => takeFlow(db, flow.state, flow.browser, T0)));
    expect(got.filter((g) => typeof g !== 'string')).toHaveLength(1);
    expect(got.filter((g) => typeof g === 'string')).toEqual(['unknown', 'unknown']);
  });

  it.skipIf(skip)('a code gives its login once, within 60 s, and is stored only as a hash', async () => {
    const db = await openBackend(name);
    const code = await saveCode(db, result, 'browser', T0);
    expect(code.startsWith(CODE_PREFIX)).toBe(true);
    const row = await db.get<{ code_hash: string; sealed: string; expires_at: number }>(
      'SELECT * FROM oidc_codes',
    );
    expect(row!.code_hash).toBe(hashSecret(code));
    expect(row!.sealed).not.toContain('skiff_rt_x');
    expect(Number(row!.expires_at)).toBe(T0 + CODE_TTL_MS);
    expect(await takeCode(db, code, 'browser', T0 + CODE_TTL_MS - 1)).toEqual(result);
    expect(await takeCode(db, code, 'browser', T0)).toBeUndefined();
    const late = await saveCode(db, result, 'browser', T0);
    expect(await takeCode(db, late, 'browser', T0 + CODE_TTL_MS)).toBeUndefined();
    expect(await takeCode(db, late, 'browser', T0)).toBeUndefined();
    expect(await takeCode(db, 'skiff_oc_unknown', 'browser', T0)).toBeUndefined();
    // Another browser, or none, opens nothing, and the code is spent.
    const elsewhere = await saveCode(db, result, 'browser', T0);
    expect(await takeCode(db, elsewhere, 'other', T0)).toBeUndefined();
    expect(await takeCode(db, elsewhere, 'browser', T0)).toBeUndefined();
    const bare = await saveCode(db, result, 'browser', T0);
    expect(await takeCode(db, bare, undefined, T0)).toBeUndefined();
  });

  it.skipIf(skip)('the sweep forgets expired flows and codes, and keeps the rest', async () => {
    const db = await openBackend(name);
    const old = newFlow('/');
    const fresh = newFlow('/');
    await saveFlow(db, old, T0);
    await saveFlow(db, fresh, T0 + 1);
    await saveCode(db, result, 'b', T0 - CODE_TTL_MS + FLOW_TTL_MS);
    const kept = await saveCode(db, result, 'b', T0 + FLOW_TTL_MS);
    await sweepFlows(db, T0 + FLOW_TTL_MS);
    const flows = await db.all<{ state_hash: string }>('SELECT state_hash FROM oidc_flows');
    expect(flows.map((f) => f.state_hash)).toEqual([hashSecret(fresh.state)]);
    const codes = await db.all<{ code_hash: string }>('SELECT code_hash FROM oidc_codes');
    expect(codes.map((c) => c.code_hash)).toEqual([hashSecret(kept)]);
  });
});
