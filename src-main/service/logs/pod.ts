/** The few pod fields log streaming reads, typed loosely because they come from any cluster. */

export interface ContainerStateLike {
  running?: { startedAt?: string };
  waiting?: { reason?: string; message?: string };
  terminated?: {
    exitCode?: number;
    reason?: string;
    startedAt?: string;
    finishedAt?: string;
    containerID?: string;
  };
}

export interface ContainerStatusLike {
  name: string;
  containerID?: string;
  restartCount?: number;
  state?: ContainerStateLike;
  lastState?: ContainerStateLike;
}

export interface PodLike {
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  spec?: { containers?: { name: string }[]; initContainers?: { name: string }[] };
  status?: { containerStatuses?: ContainerStatusLike[]; initContainerStatuses?: ContainerStatusLike[] };
}

export function containerStatus(pod: PodLike, container: string): ContainerStatusLike | undefined {
  return (
    pod.status?.containerStatuses?.find((c) => c.name === container) ??
    pod.status?.initContainerStatuses?.find((c) => c.name === container)
  );
}

/**
 * Which container instance a log request for the current run reads, as the kubelet decides it:
 * the running one, else the terminated one, else (waiting to restart) the last terminated one.
 */
export function servedInstance(status: ContainerStatusLike | undefined): string | undefined {
  if (!status) return undefined;
  if (status.state?.running) return status.containerID;
  if (status.state?.terminated) return status.state.terminated.containerID ?? status.containerID;
  return status.lastState?.terminated?.containerID;
}

export function containerNames(pod: PodLike): { containers: string[]; initContainers: string[] } {
  return {
    containers: (pod.spec?.containers ?? []).map((c) => c.name),
    initContainers: (pod.spec?.initContainers ?? []).map((c) => c.name),
  };
}

/** kubectl's choice when no container is named: the default-container annotation, else the first. */
export function defaultContainer(pod: PodLike): string | undefined {
  const { containers, initContainers } = containerNames(pod);
  const annotated = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
  if (annotated && (containers.includes(annotated) || initContainers.includes(annotated))) return annotated;
  return containers[0];
}

export function epochOf(time: string | undefined): number | undefined {
  if (!time) return undefined;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? undefined : ms;
}
