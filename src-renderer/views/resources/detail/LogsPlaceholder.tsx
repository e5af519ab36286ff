import type { Scope } from '../../../api/queries';
import type { Pod } from '../../../kube/types';
import { useRoute } from '../../../state/route';
import { LogViewer } from '../../logs';

/**
 * The pod's Logs tab (the name is kept from when this was a placeholder). The container and the
 * "previous" flag come from route.logs, which guidance actions such as "Logs of the previous
 * container" set; the viewer has its own controls for both after that.
 */
export function LogsPlaceholder({ pod, scope }: { pod: Pod; scope: Scope }) {
  const logs = useRoute((s) => s.logs);
  const names = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => c.name);
  const container = logs.container && names.includes(logs.container) ? logs.container : undefined;
  return (
    <LogViewer
      workspaceId={scope.workspaceId}
      clusterId={scope.clusterId}
      namespace={pod.metadata.namespace ?? ''}
      pod={pod.metadata.name}
      {...(container ? { container } : {})}
      previous={logs.previous}
    />
  );
}
