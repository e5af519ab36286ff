import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TokenPair } from '../../../src-shared/contract/auth-models';
import { ProblemError } from '../errors';
import { silentLogger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { postgresSkipReason } from '../storage/postgres.test-support';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import { openPostgres, postgresUrl, withPostgres } from './backends.test-support';
import type { AuthCore } from './core';
import { type AuthService, createAuth } from './index';
import { login, refresh } from './login';
import { FAST_HASH } from './stack.test-support';

/**
 * Two replicas of authentication over one real PostgreSQL database (issue 25 §2): a logout, a
 * logout of all sessions, a password change, refresh-token reuse or an API key revocation on one
 * is refused by the other once its notification arrives (replica-sync.ts), long before the 30 s
 * re-read that is the fallback; and two replicas refreshing the same token at the same moment make
 * exactly one rotation, the other answering by the overlap rule with the same pair.
 *
 * Waits poll for the refusal with a generous bound, never a wall-clock threshold; the fallback
 * re-read is 30 s, so a refusal seen within the bound came by notification.
 */

withPostgres();

const SECRET_KEY = 'replicas-test-secret-key-0123456789abcdef';
/** Well below the 30 s fallback re-read, well above a notification's way on a loaded machine. */
const SEEN = { timeout: 10_000, interval: 20 };
const CLIENT = { address: '127.0.0.1', userAgent: 'replicas-test' };

const running: AuthService[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((a) => a.close()));
});

async function replica(
  url: string,
  wrap: (b: StorageBackend) => StorageBackend = (b) => b,
): Promise<{ auth: AuthService; core: AuthCore }> {
  const auth = createAuth({
    backend: wrap(await openPostgres(url)),
    logger: silentLogger(),
    adminPassword: TEST_ADMIN_PASSWORD,
    secretKey: SECRET_KEY,
    passwordCost: FAST_HASH,
    onAdminCreated: () => {},
    geoipDb: false,
  });
  running.push(auth);
  await auth.ready;
  return { auth, core: await auth.core() };
}

/** Two replicas of one service: A started first (it makes the first admin), then B. */
async function twoReplicas() {
  const url = await postgresUrl();
  const a = await replica(url);
  const b = await replica(url);
  return { a, b };
}

/** Whether `replica` accepts the access token now. */
const accepts = (r: { auth: AuthService }, accessToken: string) =>
  r.auth.principalForAccessToken(accessToken).then(
    () => true,
    (err: unknown) => {
      if (err instanceof ProblemError && err.status === 401) return false;
      throw err;
    },
  );

/** Whether `replica` accepts the API key now (the edge's own path, X-API-Key). */
const acceptsKey = (r: { auth: AuthService }, key: string) =>
  r.auth
    .authenticate({ headers: { 'x-api-key': key }, socket: {} } as unknown as IncomingMessage, 'credential')
    .then(
      () => true,
      (err: unknown) => {
        if (err instanceof ProblemError && err.status === 401) return false;
        throw err;
      },
    );

const refusedSoon = async (check: () => Promise<boolean>) =>
  vi.waitFor(async () => expect(await check()).toBe(false), SEEN);

describe.skipIf(postgresSkipReason)('two replicas on one PostgreSQL', () => {
  it('a logout on one is refused by the other', async () => {
    const { a, b } = await twoReplicas();
    const session = await login(a.core, 'admin', TEST_ADMIN_PASSWORD, CLIENT);
    // B has it in memory, active, before the logout.
    expect(await accepts(b, session.accessToken)).toBe(true);
    const held = await a.core.sessions.get(session.sessionId);
    expect(await a.core.sessions.end(held!, 'logout')).toBe(true);
    await refusedSoon(() => accepts(b, session.accessToken));
    expect((await b.core.sessions.get(session.sessionId))?.endReason).toBe('logout');
  });

  it('a logout of all sessions on one is refused by the other, the one spared included only where it lives', async () => {
    const { a, b } = await twoReplicas();
    const first = await login(a.core, 'admin', TEST_ADMIN_PASSWORD, CLIENT);
    // Made on B: A learns of it from the table when it ends them all.
    const second = await login(b.core, 'admin', TEST_ADMIN_PASSWORD, CLIENT);
    const spared = await login(a.core, 'admin', TEST_ADMIN_PASSWORD, CLIENT);
    for (const s of [first, second, spared]) expect(await accepts(b, s.accessToken)).toBe(true);
    const ended = await a.core.sessions.endAllFor(first.auth.sub, 'logout', spared.sessionId);
    expect(ended.map((s) => s.sessionId).sort()).toEqual([first.sessionId, second.sessionId].sort());
    await refusedSoon(() => accepts(b, first.accessToken));
    await refusedSoon(() => accepts(b, second.accessToken));
    expect(await accepts(b, spared.accessToken)).toBe(true);
  });

  it('a password change on one ends the other sessions there too, and the new password works there', async () => {
    const { a, b } = await twoReplicas();
    const asking = await login(a.core, 'admin', TEST_ADMIN_PASSWORD, CLIENT);
    const other = await login(b.core, 'admin', TEST_ADMIN_PASSWORD, CLIENT);
    expect(await accepts(b, other.accessToken)).toBe(true);
    await a.core.accounts.update(asking.auth.sub, { password: 'a-new-password-456' });
    await a.core.sessions.endAllFor(asking.auth.sub, 'password_changed', asking.sessionId);
    await refusedSoon(() => accepts(b, other.accessToken));
    await vi.waitFor(
      async () => expect(await b.core.accounts.verify('admin', 'a-new-password-456')).not.toBeNull(),
      SEEN,
    );
    expect(await b.core.accounts.verify('admin', TEST_ADMIN_PASSWORD)).toBeNull();
    expect(await accepts(b, asking.accessToken)).toBe(true);
  });

  it('refresh-token reuse detected on one ends the session on the other', async () => {
    const { a, b } = await twoReplicas();
    const session = await login(a.core, 'admin', TEST_ADMIN_PASSWORD, CLIENT);
    const second = await refresh(a.core, session.refreshToken!, CLIENT);
    const third = await refresh(a.core, second.refreshToken!, CLIENT);
    expect(await accepts(b, third.accessToken)).toBe(true);
    // The first token is older than the previous one: reuse.
    await expect(refresh(a.core, session.refreshToken!, CLIENT)).rejects.toMatchObject({
      code: 'refresh_token_reused',
    });
    await refusedSoon(() => accepts(b, third.accessToken));
    expect((await b.core.sessions.get(session.sessionId))?.endReason).toBe('refresh_token_reused');
  });

  it('an API key revoked on one is refused by the other', async () => {
    const { a, b } = await twoReplicas();
    const owner = await login(a.core, 'admin', TEST_ADMIN_PASSWORD, CLIENT);
    const { record, key } = await a.core.apiKeys.create(owner.auth.sub, { name: 'ci' });
    // Made on A, found by B in the table at its first use, then held in B's memory.
    expect(await acceptsKey(b, key)).toBe(true);
    await a.core.apiKeys.revoke(owner.auth.sub, record.apiKeyId);
    await refusedSoon(() => acceptsKey(b, key));
  });

  it('a reload read before a logout and answered after it does not bring the session back', async () => {
    const url = await postgresUrl();
    const a = await replica(url);
    // B's reads of the whole sessions table run at once but hand their rows over only when let:
    // a 30 s reload that a loaded database answers after a logout was already re-read.
    let held: { reached: () => void; release: Promise<void> } | null = null;
    const b = await replica(
      url,
      (backend) =>
        new Proxy(backend, {
          get(target, prop, receiver) {
            if (prop !== 'all') return Reflect.get(target, prop, receiver);
            return async (sql: string, params?: Parameters<StorageBackend['all']>[1]) => {
              const rows = await target.all(sql, params);
              const h = held;
              if (h && /FROM sessions ORDER BY/.test(sql)) {
                h.reached();
                await h.release;
              }
              return rows;
            };
          },
        }),
    );
    const session = await login(a.core, 'admin', TEST_ADMIN_PASSWORD, CLIENT);
    expect(await accepts(b, session.accessToken)).toBe(true);
    let release = () => {};
    const reached = new Promise<void>((resolve) => {
      held = { reached: resolve, release: new Promise<void>((r) => (release = r)) };
    });
    const reload = b.core.sessions.reloadAll();
    await reached; // read: the session is active in the rows it holds
    held = null;
    const ended = await a.core.sessions.get(session.sessionId);
    expect(await a.core.sessions.end(ended!, 'logout')).toBe(true);
    await refusedSoon(() => accepts(b, session.accessToken));
    release();
    await reload;
    expect(await accepts(b, session.accessToken)).toBe(false);
    expect((await b.core.sessions.get(session.sessionId))?.status).toBe('logged_out');
  });

  it('what one replica made is known to the other at once, from the table', async () => {
    const { a, b } = await twoReplicas();
    const session = await login(a.core, 'admin', TEST_ADMIN_PASSWORD, CLIENT);
    // B answers for a session and a refresh token it has never seen, without waiting for a notification.
    await b.core.replicas.stop();
    expect(await accepts(b, session.accessToken)).toBe(true);
    const pair = await refresh(b.core, session.refreshToken!, CLIENT);
    expect(await accepts(a, pair.accessToken)).toBe(true);
  });
});

describe.skipIf(postgresSkipReason)('the same refresh token on two replicas at once', () => {
  /** The session's generation and the refresh entries it logged, as the table holds them. */
  async function rotations(core: AuthCore, sessionId: string) {
    const s = await core.sessions.get(sessionId);
    const { items } = await core.activity.page({ sessionId, types: ['refresh'] }, 100, 0);
    return { generation: s?.refresh.generation, logged: items.length };
  }

  it('a replica that still holds the token as current loses the rotation and answers with the winner’s pair', async () => {
    const { a, b } = await twoReplicas();
    const session = await login(a.core, 'admin', TEST_ADMIN_PASSWORD, CLIENT);
    expect(await accepts(b, session.accessToken)).toBe(true);
    // B hears nothing from here on: its memory keeps the token as current.
    await b.core.replicas.stop();
    const won = await refresh(a.core, session.refreshToken!, CLIENT);
    const late = await refresh(b.core, session.refreshToken!, CLIENT);
    expect(late).toEqual(won);
    expect(await rotations(a.core, session.sessionId)).toEqual({ generation: 2, logged: 1 });
    // The pair B answered with is the live one: its refresh token rotates on either replica.
    const next = await refresh(b.core, late.refreshToken!, CLIENT);
    expect(await accepts(a, next.accessToken)).toBe(true);
    // B, deaf, tells no one either: A reads the table.
    await a.core.sessions.changed(session.sessionId);
    expect((await a.core.sessions.get(session.sessionId))?.refresh.generation).toBe(3);
  });

  it('at the same moment: exactly one rotation per session, and both answers are the same pair', async () => {
    const { a, b } = await twoReplicas();
    const sessions = await Promise.all(
      Array.from({ length: 8 }, () => login(a.core, 'admin', TEST_ADMIN_PASSWORD, CLIENT)),
    );
    for (const s of sessions) expect(await accepts(b, s.accessToken)).toBe(true);
    const answers: Array<[TokenPair, TokenPair]> = await Promise.all(
      sessions.map((s) =>
        Promise.all([refresh(a.core, s.refreshToken!, CLIENT), refresh(b.core, s.refreshToken!, CLIENT)]),
      ),
    );
    for (const [i, [fromA, fromB]] of answers.entries()) {
      expect(fromB).toEqual(fromA);
      expect(await rotations(a.core, sessions[i]!.sessionId)).toEqual({ generation: 2, logged: 1 });
    }
  });

  it('after the overlap window the replaced token is reuse on the other replica too', async () => {
    const url = await postgresUrl();
    let t = Date.parse('2026-06-01T10:00:00Z');
    const now = () => t;
    const make = async () => {
      const auth = createAuth({
        backend: await openPostgres(url),
        logger: silentLogger(),
        adminPassword: TEST_ADMIN_PASSWORD,
        secretKey: SECRET_KEY,
        passwordCost: FAST_HASH,
        onAdminCreated: () => {},
        geoipDb: false,
        now,
      });
      running.push(auth);
      await auth.ready;
      return auth.core();
    };
    const a = await make();
    const b = await make();
    const session = await login(a, 'admin', TEST_ADMIN_PASSWORD, CLIENT);
    await refresh(a, session.refreshToken!, CLIENT);
    t += 10_001;
    await expect(refresh(b, session.refreshToken!, CLIENT)).rejects.toMatchObject({
      code: 'refresh_token_reused',
    });
  });
});
