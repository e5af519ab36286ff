import type { CurrentSession } from '../../../src-shared/contract/auth-models';
import { publicAccount } from '../auth/accounts';
import type { AuthService } from '../auth/index';
import type { OperationHandlers } from '../context';

/**
 * The session probe. Its contract auth is 'optional': the edge has already turned missing or
 * failing credentials into the anonymous principal, so "no session" is an answer, not a 401, and
 * a browser can ask before its login without an error in its console. Anonymous answers may say
 * where the generated first password is (a place, never the password), as Jenkins' unlock page does.
 */
export function sessionHandlers(auth: AuthService): Pick<OperationHandlers, 'currentSession'> {
  return {
    async currentSession(_input, ctx) {
      const { accountId, sessionId, apiKeyId } = ctx.principal;
      const core = await auth.core();
      // Before any login, a login page can say where the generated first password is.
      const firstLogin = core.firstLogin();
      const nobody: CurrentSession = { authenticated: false, ...(firstLogin ? { firstLogin } : {}) };
      if (accountId === '') return { data: nobody };
      const account = await core.accounts.lookup(accountId);
      const session = sessionId ? await core.sessions.active(sessionId) : undefined;
      const key = apiKeyId ? core.apiKeys.list(accountId).find((k) => k.apiKeyId === apiKeyId) : undefined;
      const expiresAt = session
        ? core.sessions.toRecord(session, sessionId).expiresAt
        : key && core.apiKeys.toRecord(key).expiresAt;
      // The edge checked both moments ago; one that ended since then is as good as none.
      if (!account || !expiresAt) return { data: nobody };
      return {
        data: {
          authenticated: true,
          account: publicAccount(account),
          sessionId: sessionId ?? null,
          apiKeyId: apiKeyId ?? null,
          expiresAt,
        },
      };
    },
  };
}
