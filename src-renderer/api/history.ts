import type { ObjectChange } from '../../src-shared/contract/change-operations';
import type { KubeObject } from '../../src-shared/contract/models';
import { type ApiClient, ApiError } from './client';
import { resourceOperation, type Scope } from './queries';

/**
 * What Skiff recorded of one object (issue 27): a page of its changes, newest first, and the object
 * as it was at an instant. Both come in the namespaced and the cluster-wide form, chosen as for the
 * object's own read (resourceOperation). A version that was not recorded (before the object's first
 * recorded version, or after its deletion) is `null`, not an error: a diff from "nothing" is how a
 * creation reads.
 */

const HISTORY = { namespaced: 'namespacedObjectHistory', clusterWide: 'objectHistory' } as const;
const AT = { namespaced: 'namespacedObjectAt', clusterWide: 'objectAt' } as const;

export interface ObjectRef {
  kind: string;
  name: string;
  namespace?: string | undefined;
}

export interface HistoryPage {
  /** Newest first. */
  items: ObjectChange[];
  total: number;
}

export async function objectHistory(
  client: ApiClient,
  scope: Scope,
  ref: ObjectRef,
  page: { limit: number; offset: number },
  signal?: AbortSignal,
): Promise<HistoryPage> {
  const { name, params } = resourceOperation(HISTORY, scope, ref.kind, ref.namespace);
  const r = await client.call(
    name,
    {
      params: { ...params, resourceName: ref.name },
      query: { limit: String(page.limit), offset: String(page.offset) },
    },
    signal ? { signal } : {},
  );
  return { items: r.data, total: r.page?.total ?? r.data.length };
}

/** The object as it was at `at` (RFC 3339), or null when Skiff had no version of it then. */
export async function objectAt(
  client: ApiClient,
  scope: Scope,
  ref: ObjectRef,
  at: string,
  signal?: AbortSignal,
): Promise<KubeObject | null> {
  const { name, params } = resourceOperation(AT, scope, ref.kind, ref.namespace);
  try {
    const r = await client.call(
      name,
      { params: { ...params, resourceName: ref.name }, query: { at } },
      signal ? { signal } : {},
    );
    return r.data;
  } catch (err) {
    if (err instanceof ApiError && err.problem.status === 404 && err.problem.code === 'resource_not_found') {
      return null;
    }
    throw err;
  }
}
