import { afterEach, describe, expect, it } from 'vitest';
import { ACTIVITY_CSV_COLUMNS } from '../../../src-shared/contract/activity-export';
import type { ActivityEntry } from '../../../src-shared/contract/auth-models';
import { API_KEY_USE_INTERVAL_MS } from './api-key-use';
import { type AuthStack, CHROME_WINDOWS, SAFARI_IPHONE, startAuthStack } from './stack.test-support';

let stack: AuthStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const MINUTE = 60_000;

async function activity(s: AuthStack, bearer: Record<string, string>, query = '') {
  const res = await s.call<ActivityEntry[]>('GET', `/v1/auth/activity${query}`, { headers: bearer });
  if (res.status !== 200) throw new Error(`activity answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res;
}

describe('the activity log over HTTP', () => {
  it('records logins, refreshes, reuse, logouts by whom and from where, and API key creation, use and revocation', async () => {
    stack = await startAuthStack();
    const s = stack;
    const laptop = await s.login('admin', undefined, CHROME_WINDOWS);
    s.clock.advance(10_000);
    const phone = await s.login('admin', undefined, SAFARI_IPHONE);
    s.clock.advance(10_000);
    const refreshed = await s.call<{ refreshToken: string }>('POST', '/v1/auth/refresh', {
      body: { refreshToken: phone.refreshToken },
      headers: { 'user-agent': SAFARI_IPHONE },
    });
    expect(refreshed.status).toBe(200);
    s.clock.advance(10_000);
    const created = await s.call<{ key: string; apiKey: { apiKeyId: string } }>('POST', '/v1/auth/api-keys', {
      headers: laptop.bearer,
      body: { name: 'nightly report' },
    });
    // Two uses within the interval are one entry; a use after it is another.
    for (const _ of [1, 2]) {
      const used = await s.call('GET', '/v1/workspaces', {
        headers: { 'x-api-key': created.body.key, 'user-agent': 'python-requests/2.31' },
      });
      expect(used.status).toBe(200);
    }
    s.clock.advance(API_KEY_USE_INTERVAL_MS);
    await s.call('GET', '/v1/workspaces', { headers: { 'x-api-key': created.body.key } });
    s.clock.advance(10_000);
    const revoked = await s.call('DELETE', `/v1/auth/api-keys/${created.body.apiKey.apiKeyId}`, {
      headers: laptop.bearer,
    });
    expect(revoked.status).toBe(200);
    s.clock.advance(10_000);
    // The laptop ends the phone's session: the entry says which session did it, and from which device.
    const ended = await s.call('POST', `/v1/auth/sessions/${phone.sessionId}/logout`, {
      headers: { ...laptop.bearer, 'user-agent': CHROME_WINDOWS },
    });
    expect(ended.status).toBe(200);
    s.clock.advance(10_000);
    const reused = await s.call('POST', '/v1/auth/refresh', { body: { refreshToken: laptop.refreshToken } });
    expect(reused.status).toBe(200);
    const again = await s.call('POST', '/v1/auth/refresh', { body: { refreshToken: laptop.refreshToken } });
    s.clock.advance(20_000);
    expect(again.status).toBe(200); // within the overlap window: the same pair, no reuse
    const late = await s.call('POST', '/v1/auth/refresh', { body: { refreshToken: laptop.refreshToken } });
    expect(late.status).toBe(401);
    // The laptop's session ended with the reuse; read the log from a new login.
    const reader = await s.login('admin', undefined, CHROME_WINDOWS);

    const log = (await activity(s, reader.bearer, '?limit=100')).body;
    expect(log.map((e) => e.type)).toEqual([
      'login',
      'refresh_token_reused',
      'refresh',
      'logout',
      'api_key_revoked',
      'api_key_used',
      'api_key_used',
      'api_key_created',
      'refresh',
      'login',
      'login',
    ]);
    const logout = log.find((e) => e.type === 'logout')!;
    expect(logout).toMatchObject({
      sessionId: phone.sessionId,
      username: 'admin',
      by: { accountId: laptop.auth.sub, username: 'admin', sessionId: laptop.sessionId },
    });
    expect(logout.client?.os.name).toBe('Windows');
    const used = log.filter((e) => e.type === 'api_key_used');
    expect(used.map((e) => e.apiKeyId)).toEqual([created.body.apiKey.apiKeyId, created.body.apiKey.apiKeyId]);
    expect(used[1]!.client?.clientType).toBe('script');
    expect(log.find((e) => e.type === 'refresh_token_reused')!.sessionId).toBe(laptop.sessionId);
  });

  it('filters by kind, time range and session, and pages like the other lists', async () => {
    stack = await startAuthStack();
    const s = stack;
    const first = await s.login();
    const startedAt = new Date(s.clock.t).toISOString();
    const tokens: string[] = [first.refreshToken];
    for (let i = 0; i < 5; i++) {
      s.clock.advance(MINUTE);
      const r = await s.call<{ refreshToken: string }>('POST', '/v1/auth/refresh', {
        body: { refreshToken: tokens.at(-1) },
      });
      tokens.push(r.body.refreshToken);
    }
    s.clock.advance(MINUTE);
    const other = await s.login();
    const refreshes = await activity(s, other.bearer, '?type=refresh&limit=2&offset=1');
    expect(refreshes.headers['x-total']).toBe('5');
    expect(refreshes.body.map((e) => e.at)).toEqual([
      new Date(s.clock.t - 2 * MINUTE).toISOString(),
      new Date(s.clock.t - 3 * MINUTE).toISOString(),
    ]);
    expect(String(refreshes.headers.link)).toContain('rel="next"');
    const both = await activity(s, other.bearer, '?type=login,refresh');
    expect(both.headers['x-total']).toBe('7');
    const window = await activity(
      s,
      other.bearer,
      `?since=${encodeURIComponent(new Date(s.clock.t - 4 * MINUTE).toISOString())}&until=${encodeURIComponent(new Date(s.clock.t - 2 * MINUTE).toISOString())}`,
    );
    expect(window.body.map((e) => e.type)).toEqual(['refresh', 'refresh']);
    const mine = await activity(s, other.bearer, `?sessionId=${first.sessionId}&since=${startedAt}`);
    expect(mine.body).toHaveLength(6);
    const bad = await s.call('GET', '/v1/auth/activity?type=login,bogus', { headers: other.bearer });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('bogus');
    const badTime = await s.call('GET', '/v1/auth/activity?since=yesterday', { headers: other.bearer });
    expect(badTime.status).toBe(400);
  });

  it('shows members their own account only; administrators any account, or all', async () => {
    stack = await startAuthStack();
    const s = stack;
    const admin = await s.login();
    await s.call('POST', '/v1/auth/accounts', {
      headers: admin.bearer,
      body: { username: 'carol', password: 'carol-password', workspaces: ['default'] },
    });
    s.clock.advance(MINUTE);
    const carol = await s.login('carol', 'carol-password');
    const own = await activity(s, carol.bearer);
    expect(own.body.map((e) => [e.type, e.username])).toEqual([['login', 'carol']]);
    const refused = await s.call('GET', `/v1/auth/activity?accountId=${admin.auth.sub}`, {
      headers: carol.bearer,
    });
    expect(refused.status).toBe(403);
    const refusedAll = await s.call('GET', '/v1/auth/activity?accountId=all', { headers: carol.bearer });
    expect(refusedAll.status).toBe(403);
    const ownById = await activity(s, carol.bearer, `?accountId=${carol.auth.sub}`);
    expect(ownById.body).toHaveLength(1);

    expect((await activity(s, admin.bearer)).body.map((e) => e.username)).toEqual(['admin']);
    const all = await activity(s, admin.bearer, '?accountId=all');
    expect(all.body.map((e) => e.username)).toEqual(['carol', 'admin']);
    const carols = await activity(s, admin.bearer, `?accountId=${carol.auth.sub}`);
    expect(carols.body.map((e) => e.accountId)).toEqual([carol.auth.sub]);
  });

  it('exports the filtered log as CSV or JSON, chosen by format= or Accept', async () => {
    stack = await startAuthStack();
    const s = stack;
    await s.login('admin', undefined, CHROME_WINDOWS);
    s.clock.advance(MINUTE);
    const me = await s.login('admin', undefined, SAFARI_IPHONE);
    await s.call('POST', '/v1/auth/api-keys', {
      headers: me.bearer,
      body: { name: '=HYPERLINK("x"), "quoted"' },
    });

    const csv = await s.call<string>('GET', '/v1/auth/activity/export?format=csv', { headers: me.bearer });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe(ACTIVITY_CSV_COLUMNS.join(','));
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(1, -1).map((l) => l.split(',')[1])).toEqual(['api_key_created', 'login', 'login']);
    // A name that a spreadsheet would run as a formula is defused and quoted.
    expect(lines[1]).toContain(`"'=HYPERLINK(""x""), ""quoted"""`);
    expect(lines[2]).toContain('iOS');

    const byAccept = await s.call<string>('GET', '/v1/auth/activity/export?type=login', {
      headers: { ...me.bearer, accept: 'text/csv' },
    });
    expect(byAccept.body.split('\r\n')).toHaveLength(4);

    const json = await s.call<ActivityEntry[]>('GET', '/v1/auth/activity/export', {
      headers: { ...me.bearer, accept: 'application/json' },
    });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    const listed = await activity(s, me.bearer);
    expect(json.body).toEqual(listed.body);

    const refused = await s.call('GET', '/v1/auth/activity/export', {
      headers: { ...me.bearer, accept: 'text/html' },
    });
    expect(refused.status).toBe(406);
  });

  it('keeps the log within its age and count limits, pruning after the requests that wrote it', async () => {
    const many = { limit: 1000, windowMs: 60_000 };
    stack = await startAuthStack({
      auth: {
        activityRetentionDays: 1,
        activityMaxEntries: 200,
        rateLimits: { refreshPerAddress: many, refreshPerAccount: many },
      },
    });
    const s = stack;
    const core = await s.service.auth.core();
    const me = await s.login();
    let token = me.refreshToken;
    for (let i = 0; i < 230; i++) {
      const r = await s.call<{ refreshToken: string }>('POST', '/v1/auth/refresh', {
        body: { refreshToken: token },
      });
      token = r.body.refreshToken;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    // 231 written; the prune ran once the slack (2) was passed, removing the oldest.
    expect(core.activity.size).toBeLessThanOrEqual(202);
    const all = await activity(s, me.bearer, '?limit=1000');
    expect(all.body.length).toBe(core.activity.size);
    expect(all.body.map((e) => e.type)).not.toContain('login');

    s.clock.advance(2 * 24 * 60 * MINUTE);
    const fresh = await s.login();
    while (await core.activity.pruneBatch()) {}
    expect((await activity(s, fresh.bearer, '?accountId=all&limit=1000')).body.map((e) => e.type)).toEqual([
      'login',
    ]);
  });
});
