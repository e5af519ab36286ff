import { useMemo } from 'react';
import type { Scope } from '../../api/queries';
import { kindCounts } from '../../api/relations';
import { usePolling } from '../../hooks/usePolling';
import type { KindEntry } from '../../kube/kind-catalog';
import { api } from '../../state/connection';

export interface TreeCounts {
  /** Per resourceType: namespaced kinds in the chosen namespace (or all), cluster-scoped kinds overall. */
  counts: ReadonlyMap<string, number>;
  error: unknown;
}

const EMPTY = new Map<string, number>();

/**
 * The numbers the tree shows, from the service's counts (its caches, or one-row lists for kinds
 * nobody opened). In a namespace the service counts only namespaced kinds, so the cluster-scoped
 * ones are asked for separately, by name. A kind the service could not count has no number, and
 * so is never hidden as empty.
 */
export function useTreeCounts(
  scope: Scope | null,
  namespace: string | null,
  kinds: readonly KindEntry[],
): TreeCounts {
  const base = scope ? `${scope.workspaceId}/${scope.clusterId}` : null;
  const clusterScoped = kinds.filter((k) => !k.namespaced).map((k) => k.resourceType);
  const key = base && `${base}/counts/${namespace ?? '*'}/${namespace ? clusterScoped.join(',') : ''}`;
  const polled = usePolling(
    key,
    async (signal) => {
      const s = scope!;
      if (!namespace) return kindCounts(api(), s, null, signal);
      const [inNs, overall] = await Promise.all([
        kindCounts(api(), s, namespace, signal),
        kindCounts(api(), s, null, signal, clusterScoped),
      ]);
      return new Map([...overall, ...inNs]);
    },
    { intervalMs: 10_000, keepPrevious: true },
  );
  return useMemo(() => ({ counts: polled.data ?? EMPTY, error: polled.error }), [polled.data, polled.error]);
}
