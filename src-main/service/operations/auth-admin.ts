import { publicAccount } from '../auth/accounts';
import { forgetInitialPassword } from '../auth/bootstrap';
import { requireAdmin } from '../auth/guard';
import type { AuthService } from '../auth/index';
import type { OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import { paginate } from '../pagination';

type AdminHandlers = Pick<
  OperationHandlers,
  | 'listApiKeys'
  | 'createApiKey'
  | 'revokeApiKey'
  | 'listAccounts'
  | 'createAccount'
  | 'updateAccount'
  | 'removeAccount'
>;

/** API keys (each user's own) and accounts (administrators only). */
export function authAdminHandlers(auth: AuthService): AdminHandlers {
  return {
    async listApiKeys({ query }, ctx) {
      const core = await auth.core();
      const { items, page } = paginate(core.apiKeys.list(ctx.principal.accountId), query.limit, query.offset);
      return { data: items.map((k) => core.apiKeys.toRecord(k)), page };
    },

    async createApiKey({ body }, ctx) {
      const core = await auth.core();
      const member = ctx.principal.workspaces;
      // A key cannot be scoped to a workspace its owner cannot see; 404 as for any such workspace.
      for (const w of body.workspaces ?? []) {
        if (member !== 'all' && !member.includes(w)) {
          throw new ProblemError('workspace_not_found', `workspace "${w}" not found`);
        }
      }
      const { record, key } = await core.apiKeys.create(ctx.principal.accountId, body);
      await core.activity.record({
        type: 'api_key_created',
        accountId: ctx.principal.accountId,
        sessionId: ctx.principal.sessionId ?? null,
        apiKeyId: record.apiKeyId,
        client: await core.describe(ctx.client),
        detail: record.name,
      });
      return { data: { apiKey: core.apiKeys.toRecord(record), key }, status: 201 };
    },

    async revokeApiKey({ params }, ctx) {
      const core = await auth.core();
      const record = await core.apiKeys.revoke(ctx.principal.accountId, params.apiKeyId);
      await core.activity.record({
        type: 'api_key_revoked',
        accountId: ctx.principal.accountId,
        sessionId: ctx.principal.sessionId ?? null,
        apiKeyId: record.apiKeyId,
        client: await core.describe(ctx.client),
        detail: record.name,
      });
      return { data: core.apiKeys.toRecord(record) };
    },

    async listAccounts({ query }, ctx) {
      requireAdmin(ctx.principal, 'manage accounts');
      const core = await auth.core();
      const { items, page } = paginate(core.accounts.list(), query.limit, query.offset);
      return { data: items.map(publicAccount), page };
    },

    async createAccount({ body }, ctx) {
      requireAdmin(ctx.principal, 'manage accounts');
      const core = await auth.core();
      const account = await core.accounts.create(body);
      core.logger.info({ accountId: account.accountId, by: ctx.principal.accountId }, 'account created');
      return { data: publicAccount(account), status: 201 };
    },

    async updateAccount({ params, body }, ctx) {
      requireAdmin(ctx.principal, 'manage accounts');
      const core = await auth.core();
      const account = await core.accounts.update(params.accountId, body);
      if (body.password !== undefined) {
        // A reset password is a reset trust: every session of the account ends except the admin's own.
        const ended = await core.sessions.endAllFor(
          account.accountId,
          'password_changed',
          ctx.principal.sessionId,
        );
        for (const s of ended) core.issuer.forgetSession(s);
        await core.activity.record({
          type: 'password_changed',
          accountId: account.accountId,
          actorAccountId: ctx.principal.accountId,
          actorSessionId: ctx.principal.sessionId ?? null,
          client: await core.describe(ctx.client),
          detail: `reset by an administrator; ${ended.length} session(s) ended`,
        });
        forgetInitialPassword(core.dataDir, account.username);
      }
      return { data: publicAccount(account) };
    },

    async removeAccount({ params }, ctx) {
      requireAdmin(ctx.principal, 'manage accounts');
      const core = await auth.core();
      const account = await core.accounts.remove(params.accountId);
      for (const s of await core.sessions.endAllFor(account.accountId, 'account_removed'))
        core.issuer.forgetSession(s);
      await core.sessions.forget(account.accountId);
      await core.apiKeys.forget(account.accountId);
      await core.activity.forget(account.accountId);
      core.logger.info({ accountId: account.accountId, by: ctx.principal.accountId }, 'account removed');
      return { data: publicAccount(account) };
    },
  };
}
