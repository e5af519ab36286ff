import { publicAccount } from '../auth/accounts';
import { forgetInitialPassword } from '../auth/bootstrap';
import type { AuthService } from '../auth/index';
import { checkPassword, login, refresh } from '../auth/login';
import { clearedRefreshCookie, inCookie, refreshFromCookie } from '../auth/refresh-cookie';
import type { OperationHandlers, Principal } from '../context';
import { ProblemError } from '../errors';
import { paginate } from '../pagination';

type AuthHandlers = Pick<
  OperationHandlers,
  'login' | 'refresh' | 'whoAmI' | 'listSessions' | 'logoutSession' | 'changePassword'
>;

/** Session operations are 'session'-only in the contract, so the authenticator guarantees a sessionId. */
function sessionOf(principal: Principal): string {
  if (!principal.sessionId)
    throw new ProblemError('api_key_not_allowed', 'this operation needs a login session');
  return principal.sessionId;
}

export function authHandlers(auth: AuthService): AuthHandlers {
  return {
    async login({ body }, ctx) {
      if (!auth.localLogin)
        throw new ProblemError(
          'local_login_disabled',
          'password login is turned off on this service (--local-login off); sign in with the identity provider',
        );
      const core = await auth.core();
      const result = await login(core, body.username, body.password, ctx.client);
      return body.refreshTokenIn === 'cookie' ? inCookie(core, result, ctx.client) : { data: result };
    },

    async refresh({ body }, ctx) {
      const core = await auth.core();
      // A token in the body is answered in the body; none there means the browser's cookie.
      if (body?.refreshToken === undefined) return refreshFromCookie(core, ctx);
      return { data: await refresh(core, body.refreshToken, ctx.client) };
    },

    async whoAmI(_input, ctx) {
      const core = await auth.core();
      const account = core.accounts.require(ctx.principal.accountId);
      return {
        data: {
          account: publicAccount(account),
          sessionId: ctx.principal.sessionId ?? null,
          apiKeyId: ctx.principal.apiKeyId ?? null,
        },
      };
    },

    async listSessions({ query }, ctx) {
      const core = await auth.core();
      const current = sessionOf(ctx.principal);
      const all = await core.sessions.listFor(ctx.principal.accountId, query.includeExpired ?? false);
      const { items, page } = paginate(all, query.limit, query.offset);
      return { data: items.map((s) => core.sessions.toRecord(s, current)), page };
    },

    async logoutSession({ params }, ctx) {
      const core = await auth.core();
      const current = sessionOf(ctx.principal);
      const session = await core.sessions.get(params.sessionId);
      // Someone else's session is answered exactly like one that does not exist.
      if (!session || session.accountId !== ctx.principal.accountId) {
        throw new ProblemError('session_not_found', `session "${params.sessionId}" not found`);
      }
      if (await core.sessions.end(session, 'logout')) {
        core.issuer.forgetSession(session);
        await core.activity.record({
          type: 'logout',
          accountId: session.accountId,
          sessionId: session.sessionId,
          client: await core.describe(ctx.client),
          ...(session.sessionId === current
            ? { detail: 'logged out' }
            : {
                actorAccountId: ctx.principal.accountId,
                actorSessionId: current,
                detail: `ended from session ${current}`,
              }),
        });
      }
      const data = core.sessions.toRecord(session, current);
      // Logging out here ends the browser's own session too: its refresh cookie goes with it.
      if (session.sessionId !== current || ctx.client.via !== 'http') return { data };
      return { data, headers: { 'Set-Cookie': clearedRefreshCookie(ctx.client) } };
    },

    async changePassword({ body }, ctx) {
      const core = await auth.core();
      const current = sessionOf(ctx.principal);
      const account = core.accounts.require(ctx.principal.accountId);
      // A stolen access token must not become a way to guess the password at full speed.
      const checked = await checkPassword(
        core,
        account.username,
        body.currentPassword,
        ctx.client,
        'failed password checks for this account from this address',
      );
      if (!checked) throw new ProblemError('forbidden', 'the current password is wrong');
      await core.accounts.update(account.accountId, { password: body.newPassword });
      const ended = await core.sessions.endAllFor(account.accountId, 'password_changed', current);
      for (const s of ended) core.issuer.forgetSession(s);
      await core.activity.record({
        type: 'password_changed',
        accountId: account.accountId,
        sessionId: current,
        client: await core.describe(ctx.client),
        detail: `${ended.length} other session(s) ended`,
      });
      forgetInitialPassword(core.dataDir, account.username);
      return { data: { endedSessions: ended.length } };
    },
  };
}
