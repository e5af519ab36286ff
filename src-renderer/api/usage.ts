import type { NodeUsage, PodUsage } from '../../src-shared/contract/usage-operations';
import type { ApiClient } from './client';
import type { Scope } from './queries';

/**
 * What Skiff recorded of a pod's or a node's CPU and memory (issue 27 §2), for the usage charts of
 * the detail pane: the samples within the last `since` (a duration such as `1h`), with the lines
 * drawn beside them (a pod's requests and limits and OOM kills, a node's capacity and allocatable).
 */

export function podUsage(
  client: ApiClient,
  scope: Scope,
  pod: { namespace: string; name: string },
  since: string,
  signal?: AbortSignal,
): Promise<PodUsage> {
  return client
    .call(
      'getPodUsage',
      { params: { ...scope, namespace: pod.namespace, resourceName: pod.name }, query: { since } },
      signal ? { signal } : {},
    )
    .then((r) => r.data);
}

export function nodeUsage(
  client: ApiClient,
  scope: Scope,
  name: string,
  since: string,
  signal?: AbortSignal,
): Promise<NodeUsage> {
  return client
    .call(
      'getNodeUsage',
      { params: { ...scope, resourceName: name }, query: { since } },
      signal ? { signal } : {},
    )
    .then((r) => r.data);
}
