import { guidanceForReason, listGuidance } from '../../../src-shared/guidance/index';
import type { OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import { paginate } from '../pagination';

export function guidanceHandlers(): Pick<OperationHandlers, 'listGuidance' | 'getGuidance'> {
  return {
    async listGuidance({ query }) {
      const all = listGuidance().filter((e) => query.subject === undefined || e.subject === query.subject);
      const { items, page } = paginate(all, query.limit, query.offset);
      return { data: items, page };
    },
    async getGuidance({ params, query }) {
      const entry = guidanceForReason(params.reason, query.subject);
      if (!entry) throw new ProblemError('resource_not_found', `no guidance for "${params.reason}"`);
      return { data: entry };
    },
  };
}
