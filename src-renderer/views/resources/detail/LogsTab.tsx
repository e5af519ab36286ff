import type { KubeObject } from '../../../../src-shared/contract/models';
import type { ResourceType } from '../../../../src-shared/kube/kinds';
import type { Scope } from '../../../api/queries';
import { view } from '../../../kube/meta';
import { useRoute } from '../../../state/route';
import { LogViewer } from '../../logs';
import { KeptRuns } from '../../logs/KeptRuns';
import type { Pod } from '../pod/types';

/** Kinds whose pods' logs can be shown merged in time order, each line tagged with its pod. */
export const WORKLOAD_LOG_KINDS = ['deployment', 'statefulset', 'daemonset', 'job'] as const;
type WorkloadKind = (typeof WORKLOAD_LOG_KINDS)[number];

export const hasLogs = (kind: ResourceType): boolean =>
  kind === 'pod' || (WORKLOAD_LOG_KINDS as readonly string[]).includes(kind);

/**
 * The Logs tab. For a pod, the container and the "previous" flag come from route.logs, which
 * guidance actions such as "Logs of the previous container" set; for a workload, every pod's lines
 * are merged by time. A pod's earlier runs whose logs Skiff kept are listed above its live logs.
 */
export function LogsTab({ kind, obj, scope }: { kind: ResourceType; obj: KubeObject; scope: Scope }) {
  const logs = useRoute((s) => s.logs);
  const namespace = obj.metadata.namespace ?? '';
  if (kind !== 'pod') {
    return (
      <LogViewer
        workspaceId={scope.workspaceId}
        clusterId={scope.clusterId}
        namespace={namespace}
        workload={{ kind: kind as WorkloadKind, name: obj.metadata.name }}
      />
    );
  }
  const pod = view<Pod>(obj);
  const names = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => c.name);
  const container = logs.container && names.includes(logs.container) ? logs.container : undefined;
  return (
    <>
      <KeptRuns scope={scope} namespace={namespace} pod={pod.metadata.name} />
      <LogViewer
        workspaceId={scope.workspaceId}
        clusterId={scope.clusterId}
        namespace={namespace}
        pod={pod.metadata.name}
        {...(container ? { container } : {})}
        previous={logs.previous}
      />
    </>
  );
}
