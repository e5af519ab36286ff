import { useEffect } from 'react';
import { create } from 'zustand';
import { listServedKinds } from '../api/kinds';
import type { Scope } from '../api/queries';
import { usePolling } from '../hooks/usePolling';
import { BUILT_IN_ENTRIES, catalog, entryFor, type KindEntry } from '../kube/kind-catalog';
import { api } from './connection';

/**
 * The kinds the current cluster serves, read once per cluster by the shell and shared by the tree,
 * the lists, the detail pane and the palette. Discovery changes (a CRD created) reach the service
 * within seconds; the renderer re-reads every REFRESH_MS. Until the first answer, and while none
 * came, the nine stand in (`loaded` says which).
 */

export const REFRESH_MS = 15_000;

interface KindsState {
  /** `workspaceId/clusterId` the entries belong to. */
  key: string | null;
  entries: readonly KindEntry[];
  loaded: boolean;
}

export const useKinds = create<KindsState>()(() => ({ key: null, entries: BUILT_IN_ENTRIES, loaded: false }));

/** Keeps the store on the current cluster's kinds; the shell runs it once. */
export function useKindsPolling(scope: Scope | null): void {
  const key = scope ? `${scope.workspaceId}/${scope.clusterId}` : null;
  const polled = usePolling(key, (signal) => listServedKinds(api(), scope!, signal), {
    intervalMs: REFRESH_MS,
  });
  useEffect(() => {
    if (polled.data) useKinds.setState({ key, entries: catalog(polled.data), loaded: true });
    else if (useKinds.getState().key !== key)
      useKinds.setState({ key, entries: BUILT_IN_ENTRIES, loaded: false });
  }, [key, polled.data]);
}

/** One kind's entry by resourceType: served, else one of the nine, else undefined (not served here). */
export function useKindEntry(resourceType: string): KindEntry | undefined {
  return useKinds((s) => entryFor(s.entries, resourceType));
}
