import { ACTIVITY_CSV_HEADER, activityCsvLines } from '../../../src-shared/contract/activity-export';
import type { ActivityFilter } from '../auth/activity';
import type { AuthCore } from '../auth/core';
import type { AuthService } from '../auth/index';
import type { OperationHandlers, Principal } from '../context';
import { ProblemError } from '../errors';

type ActivityHandlers = Pick<OperationHandlers, 'listActivity' | 'exportActivity'>;

interface FilterQuery {
  accountId?: string | undefined;
  sessionId?: string | undefined;
  type?: ActivityFilter['types'];
  since?: number | undefined;
  until?: number | undefined;
}

/**
 * Whose activity the caller may read: their own account always; any account, or `all`, only as
 * an administrator (403 otherwise, so a member learns nothing about which accounts exist).
 */
function filterFor(query: FilterQuery, principal: Principal): ActivityFilter {
  if (!principal.sessionId)
    throw new ProblemError('api_key_not_allowed', 'this operation needs a login session');
  const asked = query.accountId;
  if (asked !== undefined && asked !== principal.accountId && !principal.admin) {
    throw new ProblemError('admin_required', "only an administrator may read other accounts' activity");
  }
  return {
    accountId: asked === undefined ? principal.accountId : asked === 'all' ? undefined : asked,
    sessionId: query.sessionId,
    types: query.type,
    since: query.since,
    until: query.until,
  };
}

/** Expiries are logged when noticed; look now so the log is complete up to this moment. */
function upToNow(core: AuthCore): Promise<void> {
  return core.sessions.sweep();
}

async function* exportChunks(core: AuthCore, filter: ActivityFilter, csv: boolean): AsyncGenerator<string> {
  if (csv) yield ACTIVITY_CSV_HEADER;
  else yield '[';
  let first = true;
  for await (const batch of core.activity.batches(filter)) {
    if (csv) yield activityCsvLines(batch);
    else {
      const text = batch.map((e) => JSON.stringify(e)).join(',\n');
      yield first ? `\n${text}` : `,\n${text}`;
      first = false;
    }
  }
  if (!csv) yield first ? ']\n' : '\n]\n';
}

/** The security activity log: pages of JSON, and the whole filtered log as CSV or JSON. */
export function authActivityHandlers(auth: AuthService): ActivityHandlers {
  return {
    async listActivity({ query }, ctx) {
      const core = await auth.core();
      const filter = filterFor(query, ctx.principal);
      await upToNow(core);
      const { items, total } = await core.activity.page(filter, query.limit, query.offset);
      return { data: items, page: { total, limit: query.limit, offset: query.offset } };
    },

    async exportActivity({ query }, ctx) {
      const core = await auth.core();
      const filter = filterFor(query, ctx.principal);
      await upToNow(core);
      // format= wins over Accept, so a plain link can ask for either.
      const csv = query.format ? query.format === 'csv' : ctx.mediaType !== 'application/json';
      return {
        data: {
          contentType: csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
          chunks: exportChunks(core, filter, csv),
        },
      };
    },
  };
}
