import { MAX_PAGE_LIMIT } from '../../src-shared/contract/params';
import type { KindCount, Relations, SearchHit } from '../../src-shared/contract/relations-operations';
import type { ApiClient } from './client';
import { objectRead, type Scope } from './queries';

/**
 * The service's answers about how objects hang together (relations), how many of each kind there
 * are (counts) and which objects a name starts with (search), for the Related tab, the tree and
 * the palette. All come from the service's caches.
 */

const RELATIONS = { namespaced: 'getNamespacedRelations', clusterWide: 'getRelations' } as const;

export function relationsOf(
  client: ApiClient,
  scope: Scope,
  ref: { kind: string; name: string; namespace?: string | undefined },
  signal?: AbortSignal,
): Promise<Relations> {
  return objectRead(client, RELATIONS, scope, ref, signal);
}

/**
 * Per resourceType, the count of its objects (in `namespace`, or all; only `resourceTypes` when
 * given); kinds the service could not count are left out.
 */
export async function kindCounts(
  client: ApiClient,
  scope: Scope,
  namespace: string | null,
  signal?: AbortSignal,
  resourceTypes?: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const add = (rows: KindCount[]) => {
    for (const c of rows) if (c.count !== undefined) out.set(c.resourceType, c.count);
  };
  let offset = 0;
  for (;;) {
    const page = await client.call(
      'listCounts',
      {
        params: scope,
        query: {
          limit: String(MAX_PAGE_LIMIT),
          offset: String(offset),
          ...(namespace ? { namespace } : {}),
          ...(resourceTypes?.length ? { resourceTypes: resourceTypes.join(',') } : {}),
        },
      },
      signal ? { signal } : {},
    );
    add(page.data);
    offset += page.data.length;
    if (page.data.length === 0 || offset >= (page.page?.total ?? offset)) return out;
  }
}

/** Objects whose name starts with `prefix`, best first: at most `limit`, optionally of some kinds or one namespace. */
export async function searchObjects(
  client: ApiClient,
  scope: Scope,
  prefix: string,
  options: { limit: number; resourceTypes?: string[]; namespace?: string | null },
  signal?: AbortSignal,
): Promise<SearchHit[]> {
  const r = await client.call(
    'searchObjects',
    {
      params: scope,
      query: {
        q: prefix,
        limit: String(options.limit),
        ...(options.resourceTypes?.length ? { resourceTypes: options.resourceTypes.join(',') } : {}),
        ...(options.namespace ? { namespace: options.namespace } : {}),
      },
    },
    signal ? { signal } : {},
  );
  return r.data;
}
