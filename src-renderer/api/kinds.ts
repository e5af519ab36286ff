import type { ServedKind } from '../../src-shared/contract/kinds-operations';
import { MAX_PAGE_LIMIT } from '../../src-shared/contract/params';
import type { ApiClient } from './client';
import type { Scope } from './queries';

/**
 * Every kind the cluster serves (`GET …/kinds`), all pages of it. A cluster serves a few hundred
 * kinds at most, so the pages are read one after another; a cluster with more is cut at MAX_KINDS
 * rather than holding the tree up.
 */

export const MAX_KINDS = 5_000;

export async function listServedKinds(
  client: ApiClient,
  scope: Scope,
  signal?: AbortSignal,
): Promise<ServedKind[]> {
  const out: ServedKind[] = [];
  for (let offset = 0; offset < MAX_KINDS; offset += MAX_PAGE_LIMIT) {
    const page = await client.call(
      'listKinds',
      { params: scope, query: { limit: String(MAX_PAGE_LIMIT), offset: String(offset) } },
      signal ? { signal } : {},
    );
    out.push(...page.data);
    const total = page.page?.total ?? out.length;
    if (page.data.length === 0 || out.length >= total) break;
  }
  return out;
}
