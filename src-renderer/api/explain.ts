import type { Explanation } from '../../src-shared/contract/explain-operations';
import type { ApiClient } from './client';
import { objectRead, type Scope } from './queries';

/**
 * Why an object of any kind is broken, as the service explains it from its caches
 * (`GET …/explanations/…`): findings with their knowledge-base entries, and steps naming the
 * objects to look at next, each marked missing when it does not exist.
 */
const EXPLAIN = { namespaced: 'explainNamespacedResource', clusterWide: 'explainResource' } as const;

export function explanationOf(
  client: ApiClient,
  scope: Scope,
  ref: { kind: string; name: string; namespace?: string | undefined },
  signal?: AbortSignal,
): Promise<Explanation> {
  return objectRead(client, EXPLAIN, scope, ref, signal);
}
