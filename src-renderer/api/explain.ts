import type { Explanation } from '../../src-shared/contract/explain-operations';
import type { ApiClient } from './client';
import type { Scope } from './queries';

/**
 * Why an object of any kind is broken, as the service explains it from its caches
 * (`GET …/explanations/…`): findings with their knowledge-base entries, and steps naming the
 * objects to look at next, each marked missing when it does not exist.
 */
export async function explanationOf(
  client: ApiClient,
  scope: Scope,
  ref: { kind: string; name: string; namespace?: string | undefined },
  signal?: AbortSignal,
): Promise<Explanation> {
  const opts = signal ? { signal } : {};
  const params = { ...scope, resourceType: ref.kind, resourceName: ref.name };
  const r = ref.namespace
    ? await client.call(
        'explainNamespacedResource',
        { params: { ...params, namespace: ref.namespace } },
        opts,
      )
    : await client.call('explainResource', { params }, opts);
  return r.data;
}
