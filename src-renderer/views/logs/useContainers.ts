import { useEffect, useState } from 'react';
import type { LogTarget } from '../../api/log-stream';
import { api } from '../../state/connection';

export interface ContainerChoice {
  name: string;
  init: boolean;
}

interface PodSpecLike {
  containers?: { name: string }[];
  initContainers?: { name: string }[];
}

/**
 * The containers the logs can be read from: the pod's, or those of a workload's pod template.
 * Init containers come first, as they run first.
 */
export function useContainers(target: LogTarget): ContainerChoice[] {
  const [choices, setChoices] = useState<ContainerChoice[]>([]);
  const { workspaceId, clusterId, namespace, resourceType, name } = target;
  useEffect(() => {
    const abort = new AbortController();
    api()
      .call(
        'getNamespacedResource',
        { params: { workspaceId, clusterId, namespace, resourceType, resourceName: name } },
        { signal: abort.signal },
      )
      .then((reply) => {
        const spec = reply.data.resource.spec as
          | (PodSpecLike & { template?: { spec?: PodSpecLike }; jobTemplate?: unknown })
          | undefined;
        const podSpec = resourceType === 'pod' ? spec : spec?.template?.spec;
        setChoices([
          ...(podSpec?.initContainers ?? []).map((c) => ({ name: c.name, init: true })),
          ...(podSpec?.containers ?? []).map((c) => ({ name: c.name, init: false })),
        ]);
      })
      .catch(() => {
        // Without the list the viewer still works on the default container.
      });
    return () => abort.abort();
  }, [workspaceId, clusterId, namespace, resourceType, name]);
  return choices;
}
