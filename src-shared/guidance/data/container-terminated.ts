import type { GuidanceCheck, GuidanceEntry } from '../types';
import { ALLOCATABLE, CONDITIONS, EVENTS, field, LOGS, LOGS_PREV, NODE, OWNER, RESOURCES } from './actions';

export const OOM_CAUSES: string[] = [
  'The memory limit is below the real peak (startup, caches, traffic spikes).',
  'A memory leak: usage climbs steadily until each kill.',
  'A runtime not sized to the container: JVM -Xmx above the limit (prefer -XX:MaxRAMPercentage), Node.js --max-old-space-size, Go without GOMEMLIMIT.',
  'A memory-backed emptyDir (medium: Memory) or /dev/shm counts against the limit.',
  'Without a limit, the node itself ran out of memory and the kernel OOM killer picked this process.',
];

export const OOM_CHECKS: GuidanceCheck[] = [
  {
    text: 'Compare the memory limit and request with actual usage: `kubectl -n <namespace> top pod <pod> --containers`.',
    action: RESOURCES,
  },
  {
    text: 'Read the logs of the killed instance to see what it was doing: `kubectl logs <pod> -c <container> --previous`.',
    action: LOGS_PREV,
  },
  {
    text: 'If the limit was not reached, look at the node: SystemOOM / OOMKilling events and MemoryPressure.',
    action: NODE,
  },
  { text: "Check the node's memory commitments (sum of limits vs allocatable).", action: ALLOCATABLE },
];

export const EVICTION_CAUSES: string[] = [
  'The node ran low on memory; pods using more than they request (BestEffort first, then Burstable over their requests) are evicted first.',
  'The node ran low on disk or inodes (nodefs/imagefs): big container logs, emptyDir data, writes to the container filesystem, many images.',
  'The pod exceeded its own ephemeral-storage limit or an emptyDir sizeLimit.',
  'The node ran out of PIDs.',
];

export const EVICTION_CHECKS: GuidanceCheck[] = [
  {
    text: 'status.message names the resource and the usage, e.g. "The node was low on resource: memory … Container app was using 1.2Gi, request is 256Mi".',
    action: field('status.message'),
  },
  {
    text: 'Set requests close to real usage so the scheduler does not overpack the node.',
    action: RESOURCES,
  },
  {
    text: 'Check the QoS class: Guaranteed pods (requests = limits) are evicted last.',
    action: field('status.qosClass'),
  },
  { text: "Check the node's pressure conditions and what else runs there.", action: NODE },
  {
    text: 'Evicted pods stay listed until garbage-collected; clean up with `kubectl -n <namespace> delete pods --field-selector=status.phase=Failed`.',
  },
];

export const CONTAINER_TERMINATED: GuidanceEntry[] = [
  {
    id: 'terminated-oomkilled',
    subject: 'container-terminated',
    match: 'OOMKilled',
    title: 'Killed for running out of memory',
    severity: 'error',
    meaning:
      'The kernel OOM killer ended the container (exit 137) because its cgroup hit the memory limit, or the node ran out of memory. Raising the limit helps only if usage is legitimate.',
    causes: OOM_CAUSES,
    checks: OOM_CHECKS,
  },
  {
    id: 'terminated-error',
    subject: 'container-terminated',
    match: 'Error',
    title: 'Exited with an error',
    severity: 'error',
    meaning: 'The process exited with a non-zero code. The exit code and the last log lines say why.',
    causes: [
      'The application hit a fatal error (exit 1 is the generic "something failed").',
      'It received a signal (exit 128+n): 137 SIGKILL, 143 SIGTERM, 139 SIGSEGV.',
      'The command was not found (127) or not executable (126).',
    ],
    checks: [
      { text: 'See the exit code explanation and the terminated message.', action: CONDITIONS },
      {
        text: 'Read the logs: `kubectl -n <namespace> logs <pod> -c <container> --previous`.',
        action: LOGS_PREV,
      },
      { text: 'Check command and args.', action: field('spec.containers[].command') },
    ],
  },
  {
    id: 'terminated-completed',
    subject: 'container-terminated',
    match: 'Completed',
    title: 'Exited successfully',
    severity: 'info',
    meaning:
      'The process exited 0. Expected for Jobs and init containers; in a Deployment/StatefulSet/DaemonSet (restartPolicy Always) it is restarted and ends up in CrashLoopBackOff.',
    causes: [
      'A batch task finished.',
      'For long-running workloads: the command is one-shot, or the server daemonizes and the foreground process exits.',
    ],
    checks: [
      {
        text: 'If this should be a long-running server, check that the command runs it in the foreground.',
        action: field('spec.containers[].command'),
      },
      { text: 'Read the output.', action: LOGS },
    ],
  },
  {
    id: 'terminated-containercannotrun',
    subject: 'container-terminated',
    match: 'ContainerCannotRun',
    title: 'Container process could not run',
    severity: 'error',
    meaning:
      'The runtime created the container but could not execute its entrypoint (usually exit 126/127/128).',
    causes: [
      'Entrypoint not in the image or not on $PATH.',
      'Entrypoint not executable, or built for another CPU architecture.',
      'An invalid mount over a file the process needs.',
    ],
    checks: [
      { text: 'The terminated message carries the runtime error.', action: CONDITIONS },
      { text: 'Check command/args.', action: field('spec.containers[].command') },
      { text: 'Check events.', action: EVENTS },
    ],
  },
  {
    id: 'terminated-starterror',
    subject: 'container-terminated',
    match: 'StartError',
    title: 'Container failed to start',
    severity: 'error',
    meaning:
      'containerd could not start the task (exit 128); the message carries the OCI runtime error, e.g. `exec: "app": executable file not found in $PATH`.',
    causes: [
      'Missing or non-executable entrypoint.',
      'A mount source that does not exist or is of the wrong type.',
      'Security profile or device requirements the node cannot meet.',
    ],
    checks: [
      { text: 'Read the terminated message.', action: CONDITIONS },
      { text: 'Check command/args.', action: field('spec.containers[].command') },
    ],
  },
  {
    id: 'terminated-deadlineexceeded',
    subject: 'container-terminated',
    match: 'DeadlineExceeded',
    title: 'Active deadline exceeded',
    severity: 'error',
    meaning:
      'The pod (spec.activeDeadlineSeconds) or its Job (activeDeadlineSeconds on the Job) ran longer than allowed and was killed. Retries do not extend the deadline.',
    causes: [
      'The work takes longer than the deadline allows (more data, slower dependency).',
      'The task is stuck waiting on a lock, a network call without timeout, or a slow volume.',
      'Retries consumed the time budget.',
    ],
    checks: [
      { text: 'Check the deadline.', action: field('spec.activeDeadlineSeconds') },
      { text: 'Check the owning Job.', action: OWNER },
      { text: 'Read the logs to see where the time went.', action: LOGS },
    ],
  },
  {
    id: 'terminated-evicted',
    subject: 'container-terminated',
    match: 'Evicted',
    title: 'Evicted by the kubelet',
    severity: 'error',
    meaning:
      'The kubelet stopped the pod to reclaim a node resource (memory, disk, inodes, PIDs) or because the pod exceeded its ephemeral-storage limit. The pod is Failed for good; its controller creates a replacement elsewhere.',
    causes: EVICTION_CAUSES,
    checks: EVICTION_CHECKS,
  },
  {
    id: 'terminated-containerstatusunknown',
    subject: 'container-terminated',
    match: 'ContainerStatusUnknown',
    title: 'Container state lost',
    severity: 'warning',
    meaning:
      'The kubelet could not find the container any more when it tried to report on it (reported as exit 137): the container vanished with the node, a runtime restart, or eviction.',
    causes: [
      'The node rebooted or the container runtime was restarted.',
      'The pod was evicted or deleted while the container was being torn down.',
    ],
    checks: [
      { text: 'Check the node for reboots (Rebooted event) and pressure.', action: NODE },
      { text: 'Check events for Evicted or Killing.', action: EVENTS },
    ],
  },
];
