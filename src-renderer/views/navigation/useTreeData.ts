import { useMemo } from 'react';
import type { ResourceType } from '../../../src-shared/kube/kinds';
import { countOf, listAll, type Scope } from '../../api/queries';
import { usePolling } from '../../hooks/usePolling';
import { api } from '../../state/connection';
import { NAMESPACED_KINDS } from './kinds';

export interface TreeData {
  nodes?: number;
  namespaces?: string[];
  /** Per expanded namespace ('*' = all), the count of each kind. */
  counts: Map<string, Map<ResourceType, number>>;
  error: unknown;
}

/**
 * The numbers the tree shows. Counts cost one row each (the service reports totals with any page),
 * and only expanded namespaces are counted, so a cluster with hundreds of namespaces stays cheap.
 */
export function useTreeData(scope: Scope | null, expandedNamespaces: string[]): TreeData {
  const base = scope ? `${scope.workspaceId}/${scope.clusterId}` : null;
  const top = usePolling(
    base,
    async (signal) => {
      const s = scope!;
      const [nodes, ns] = await Promise.all([
        countOf(api(), s, 'node', null, signal),
        listAll(api(), s, 'namespace', null, '', signal),
      ]);
      return { nodes, namespaces: ns.items.map((w) => w.resource.metadata.name).sort() };
    },
    { intervalMs: 10_000 },
  );
  const wanted = [...expandedNamespaces].sort();
  const countsKey = base && wanted.length ? `${base}/${wanted.join(',')}` : null;
  const counts = usePolling(
    countsKey,
    async (signal) => {
      const s = scope!;
      const out = new Map<string, Map<ResourceType, number>>();
      await Promise.all(
        wanted.map(async (ns) => {
          const n = await Promise.all(
            NAMESPACED_KINDS.map((k) => countOf(api(), s, k, ns === '*' ? null : ns, signal)),
          );
          out.set(ns, new Map(NAMESPACED_KINDS.map((k, i) => [k, n[i]!])));
        }),
      );
      return out;
    },
    { intervalMs: 10_000, keepPrevious: true },
  );
  return useMemo(
    () => ({
      ...(top.data ? { nodes: top.data.nodes, namespaces: top.data.namespaces } : {}),
      counts: counts.data ?? new Map(),
      error: top.error ?? counts.error,
    }),
    [top.data, top.error, counts.data, counts.error],
  );
}
