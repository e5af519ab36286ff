import type { GuidanceEntry } from '../types';
import { ALLOCATABLE, CONDITIONS, EVENTS, field, LOGS, LOGS_PREV, NODE, NODES, PROBES } from './actions';
import { OOM_CAUSES, OOM_CHECKS } from './container-terminated';
import { CRASH_LOOP_CHECKS, IMAGE_PULL_CAUSES, IMAGE_PULL_CHECKS } from './container-waiting';

/** Scheduler, image and container-lifecycle events recorded on pods. */
export const POD_LIFECYCLE_EVENTS: GuidanceEntry[] = [
  {
    id: 'event-failedscheduling',
    subject: 'event-reason',
    match: 'FailedScheduling',
    title: 'No node fits the pod',
    severity: 'warning',
    meaning:
      'The scheduler tried every node and rejected all of them. The message counts the nodes rejected per reason ("0/5 nodes are available: 3 Insufficient cpu, 2 node(s) had untolerated taint …") and says whether preempting lower-priority pods would help. The scheduler retries when the cluster changes.',
    causes: [
      'Insufficient cpu/memory/ephemeral-storage/GPU: requests exceed what nodes have left (requests count, not actual usage).',
      'Untolerated taints (control-plane nodes, dedicated pools, not-ready/unreachable nodes).',
      'nodeSelector/affinity, pod anti-affinity or topology spread constraints no node can satisfy.',
      'Unbound PVCs, or volumes whose zone has no eligible node ("volume node affinity conflict").',
      'Nodes cordoned ("were unschedulable"), hostPort conflicts, or pod count limit ("Too many pods").',
    ],
    checks: [
      { text: 'Read the message; Skiff lists each reason with a hint.', action: EVENTS },
      { text: "Compare the pod's requests with node allocatable minus requested.", action: ALLOCATABLE },
      { text: 'Review nodes: labels, taints, cordon state.', action: NODES },
      { text: 'Check tolerations, nodeSelector and affinity.', action: field('spec.tolerations') },
      {
        text: 'If a cluster autoscaler runs, check its NotTriggerScaleUp/TriggeredScaleUp events on the pod.',
      },
    ],
  },
  {
    id: 'event-scheduled',
    subject: 'event-reason',
    match: 'Scheduled',
    title: 'Assigned to a node',
    severity: 'info',
    meaning:
      'The scheduler bound the pod to a node ("Successfully assigned ns/pod to node"). From here the kubelet on that node is responsible.',
    causes: ['Normal scheduling.'],
    checks: [
      {
        text: 'If the pod stays Pending after this, look at the following kubelet events (Pulling, FailedMount, FailedCreatePodSandBox).',
        action: EVENTS,
      },
      { text: 'Open the node it was assigned to.', action: NODE },
    ],
  },
  {
    id: 'event-preempted',
    subject: 'event-reason',
    match: 'Preempted',
    title: 'Preempted by a higher-priority pod',
    severity: 'warning',
    meaning:
      'The scheduler evicted this pod to make room for a pod with a higher priority ("Preempted by pod … on node …"). Its controller recreates it, but it may now be Pending.',
    causes: [
      'The cluster is full and a higher-priority workload (system-critical, or a PriorityClass) needed room.',
      'This workload has no PriorityClass (priority 0) while others do.',
    ],
    checks: [
      {
        text: 'Check the pod priority class: `kubectl get priorityclass`.',
        action: field('spec.priorityClassName'),
      },
      { text: 'Check cluster capacity.', action: NODES },
    ],
  },
  {
    id: 'event-pulling',
    subject: 'event-reason',
    match: 'Pulling',
    title: 'Pulling image',
    severity: 'info',
    meaning: 'The kubelet started pulling the image. It is followed by Pulled on success or Failed on error.',
    causes: ['First start on this node, imagePullPolicy Always, or a :latest tag (which implies Always).'],
    checks: [
      {
        text: "If Pulled never follows, the image may be large or the registry slow; check the node's network.",
        action: EVENTS,
      },
      { text: 'Check the image and pull policy.', action: field('spec.containers[].imagePullPolicy') },
    ],
  },
  {
    id: 'event-pulled',
    subject: 'event-reason',
    match: 'Pulled',
    title: 'Image pulled',
    severity: 'info',
    meaning:
      'The image is on the node — freshly pulled (with timing and size) or "already present on machine".',
    causes: ['Normal container start.'],
    checks: [
      {
        text: 'Slow pulls (minutes) delay every restart on new nodes; consider smaller images.',
        action: EVENTS,
      },
    ],
  },
  {
    id: 'event-created',
    subject: 'event-reason',
    match: 'Created',
    title: 'Container created',
    severity: 'info',
    meaning: 'The runtime created the container; Started should follow.',
    causes: ['Normal container start or restart.'],
    checks: [
      {
        text: 'Many Created events for one container mean it is restarting; check restarts.',
        action: CONDITIONS,
      },
    ],
  },
  {
    id: 'event-started',
    subject: 'event-reason',
    match: 'Started',
    title: 'Container started',
    severity: 'info',
    meaning: 'The container process started. This says nothing about whether it stays up or becomes ready.',
    causes: ['Normal container start or restart.'],
    checks: [
      { text: 'Repeated Started events mean restarts; read the previous logs.', action: LOGS_PREV },
      { text: 'Read the logs.', action: LOGS },
    ],
  },
  {
    id: 'event-killing',
    subject: 'event-reason',
    match: 'Killing',
    title: 'Stopping container',
    severity: 'info',
    meaning:
      'The kubelet is stopping a container ("Stopping container app"): it sends SIGTERM, waits terminationGracePeriodSeconds (default 30 s), then SIGKILL. The reason is elsewhere in the events or message.',
    causes: [
      'The pod is being deleted: rollout, scale-down, drain, eviction, preemption.',
      'A failed liveness or startup probe ("Container app failed liveness probe, will be restarted").',
    ],
    checks: [
      {
        text: 'Look for an Unhealthy event just before; if present, the probe is killing the container.',
        action: PROBES,
      },
      { text: 'Look at the events around it for the deletion cause.', action: EVENTS },
    ],
  },
  {
    id: 'event-failed',
    subject: 'event-reason',
    match: 'Failed',
    title: 'Kubelet reported a failure',
    severity: 'warning',
    meaning:
      'A generic kubelet failure reason used for image pulls, container creation and start. The message carries the real error, often prefixed "Error: ErrImagePull", "Error: ImagePullBackOff", "Error: secret … not found" or "Error: failed to create containerd task".',
    causes: [
      'Image pull failures ("Failed to pull image …").',
      'Missing Secret/ConfigMap or key referenced by env/volumes (CreateContainerConfigError).',
      'Runtime errors creating or starting the container (executable not found, permission denied).',
    ],
    checks: [
      {
        text: 'Read the full message; the text after "Error:" names the container state to look up.',
        action: EVENTS,
      },
      { text: 'Check the container states.', action: CONDITIONS },
      { text: 'Check the image reference.', action: field('spec.containers[].image') },
    ],
  },
  {
    id: 'event-backoff',
    subject: 'event-reason',
    match: 'BackOff',
    title: 'Kubelet is backing off',
    severity: 'warning',
    meaning:
      'The kubelet is delaying a retry. "Back-off restarting failed container" means CrashLoopBackOff; "Back-off pulling image" means ImagePullBackOff.',
    causes: ['A container that keeps exiting.', 'An image that cannot be pulled.'],
    checks: [
      { text: "For restarts, read the previous instance's logs.", action: LOGS_PREV },
      { text: 'For image pulls, read the earlier Failed event for the registry error.', action: EVENTS },
      { text: 'Check the container states and last exit code.', action: CONDITIONS },
    ],
  },
  {
    id: 'event-crashloopbackoff',
    subject: 'event-reason',
    match: 'CrashLoopBackOff',
    title: 'Container keeps crashing',
    severity: 'error',
    meaning:
      'The container exits repeatedly and is being restarted with growing delays (kubelet reports this as BackOff).',
    causes: [
      'The application exits on startup (config, dependencies, migrations).',
      'OOMKilled or killed by a liveness probe.',
      'The command exits immediately.',
    ],
    checks: CRASH_LOOP_CHECKS,
  },
  {
    id: 'event-errimagepull',
    subject: 'event-reason',
    match: 'ErrImagePull',
    title: 'Image pull failed',
    severity: 'error',
    meaning: 'An image pull failed (kubelet usually reports this as Failed with "Error: ErrImagePull").',
    causes: IMAGE_PULL_CAUSES,
    checks: IMAGE_PULL_CHECKS,
  },
  {
    id: 'event-imagepullbackoff',
    subject: 'event-reason',
    match: 'ImagePullBackOff',
    title: 'Image pull retrying with back-off',
    severity: 'error',
    meaning: 'Image pulls keep failing; the kubelet retries with growing delays up to 5 minutes.',
    causes: IMAGE_PULL_CAUSES,
    checks: IMAGE_PULL_CHECKS,
  },
  {
    id: 'event-inspectfailed',
    subject: 'event-reason',
    match: 'InspectFailed',
    aliases: ['InvalidImageName'],
    title: 'Image reference invalid',
    severity: 'error',
    meaning:
      'The kubelet could not parse or inspect the image ("Failed to apply default image tag … invalid reference format").',
    causes: ['Upper-case repository, stray spaces or scheme, double tag, unexpanded template variable.'],
    checks: [{ text: 'Fix the image string in the pod template.', action: field('spec.containers[].image') }],
  },
  {
    id: 'event-errimageneverpull',
    subject: 'event-reason',
    match: 'ErrImageNeverPull',
    title: 'Image missing and pull policy is Never',
    severity: 'error',
    meaning: 'imagePullPolicy is Never and the image is not present on the node.',
    causes: ['Image loaded onto another node only (kind/minikube), or tag mismatch.'],
    checks: [
      {
        text: 'Change imagePullPolicy or load the image onto this node.',
        action: field('spec.containers[].imagePullPolicy'),
      },
    ],
  },
  {
    id: 'event-error',
    subject: 'event-reason',
    match: 'Error',
    title: 'Container exited with an error',
    severity: 'error',
    meaning: 'A container terminated with a non-zero exit code.',
    causes: ['Application failure, a signal (exit 128+n) or a missing executable (126/127).'],
    checks: [
      { text: 'Read the logs of the failed instance.', action: LOGS_PREV },
      { text: 'Check the exit code.', action: CONDITIONS },
    ],
  },
  {
    id: 'event-oomkilled',
    subject: 'event-reason',
    match: 'OOMKilled',
    title: 'Container OOM-killed',
    severity: 'error',
    meaning: 'A container was killed for exceeding its memory limit (exit 137).',
    causes: OOM_CAUSES,
    checks: OOM_CHECKS,
  },
];
