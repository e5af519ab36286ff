import type { KubeObject } from '../../../src-shared/contract/models';
import { type ObjectRef, objectAt } from '../../api/history';
import type { Scope } from '../../api/queries';
import { type Polled, usePolling } from '../../hooks/usePolling';
import { api } from '../../state/connection';

/**
 * The object as it was at `at` (null: Skiff had no version of it then), fetched once: a recorded
 * version never changes. Nothing is fetched while `at` is undefined.
 */
export function useVersion(
  scope: Scope,
  target: ObjectRef,
  at: string | undefined,
): Polled<KubeObject | null> {
  const key =
    at === undefined
      ? null
      : `${scope.workspaceId}/${scope.clusterId}/history-at/${target.kind}/${target.namespace ?? ''}/${target.name}/${at}`;
  return usePolling(key, (signal) => objectAt(api(), scope, target, at ?? '', signal), { intervalMs: 0 });
}
