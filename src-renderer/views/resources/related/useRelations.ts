import type { Relations } from '../../../../src-shared/contract/relations-operations';
import type { Scope } from '../../../api/queries';
import { relationsOf } from '../../../api/relations';
import { type Polled, usePolling } from '../../../hooks/usePolling';
import { api } from '../../../state/connection';
import type { ResourceRef } from '../../../state/route';

/** The selected object's relations, refreshed as its pane is; shared by the breadcrumb and the Related tab. */
export function useRelations(scope: Scope, target: ResourceRef): Polled<Relations> {
  const key = `${scope.workspaceId}/${scope.clusterId}/relations/${target.kind}/${target.namespace ?? ''}/${target.name}`;
  return usePolling(key, (signal) => relationsOf(api(), scope, target, signal), { intervalMs: 10_000 });
}
