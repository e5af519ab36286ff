import type { GuidanceEntry } from '../types';
import { ALLOCATABLE, CONDITIONS, EVENTS, field, LOGS, NODE, PROBES, VOLUMES } from './actions';

export const POD_CONDITIONS: GuidanceEntry[] = [
  {
    id: 'pod-condition-podscheduled-false',
    subject: 'pod-condition',
    match: 'PodScheduled',
    status: 'False',
    aliases: ['Unschedulable', 'SchedulingGated'],
    title: 'Pod cannot be scheduled',
    severity: 'warning',
    meaning:
      'The scheduler has not found a node for the pod (reason Unschedulable; the message lists the per-node reasons) or the pod still has scheduling gates (reason SchedulingGated).',
    causes: [
      'Requests larger than any node has left (Insufficient cpu/memory/ephemeral-storage/nvidia.com/gpu).',
      'Taints on every node that the pod does not tolerate.',
      'nodeSelector, node affinity, pod (anti-)affinity or topology spread constraints that no node satisfies.',
      'Unbound PVCs or volumes pinned to a zone without eligible nodes.',
      'spec.schedulingGates not yet removed by the controller that added them.',
    ],
    checks: [
      { text: 'Read the condition message; Skiff breaks it down per reason.', action: CONDITIONS },
      {
        text: 'Compare requests with node allocatable minus what is already requested.',
        action: ALLOCATABLE,
      },
      {
        text: 'Check tolerations against node taints: `kubectl get nodes -o custom-columns=NAME:.metadata.name,TAINTS:.spec.taints`.',
        action: field('spec.tolerations'),
      },
      {
        text: 'Check nodeSelector / affinity against node labels: `kubectl get nodes --show-labels`.',
        action: field('spec.nodeSelector'),
      },
      { text: 'If gated, see which gates remain.', action: field('spec.schedulingGates') },
    ],
  },
  {
    id: 'pod-condition-initialized-false',
    subject: 'pod-condition',
    match: 'Initialized',
    status: 'False',
    aliases: ['ContainersNotInitialized'],
    title: 'Init containers have not completed',
    severity: 'warning',
    meaning:
      'Init containers run one at a time, in order, and each must exit 0 before the next starts; app containers start only after all of them. The message names the init containers still incomplete.',
    causes: [
      'An init container is waiting on a dependency (a wait-for-db loop, a Service with no endpoints, DNS).',
      'An init container crashes (Init:CrashLoopBackOff / Init:Error) — e.g. a migration fails.',
      'An init container image cannot be pulled.',
    ],
    checks: [
      { text: 'Look at the init container states.', action: field('spec.initContainers') },
      {
        text: 'Read its logs: `kubectl -n <namespace> logs <pod> -c <container>` (add --previous if it restarted).',
        action: LOGS,
      },
      { text: 'Check events for pull or mount failures of the init container.', action: EVENTS },
    ],
  },
  {
    id: 'pod-condition-containersready-false',
    subject: 'pod-condition',
    match: 'ContainersReady',
    status: 'False',
    aliases: ['ContainersNotReady'],
    title: 'Not all containers are ready',
    severity: 'warning',
    meaning:
      'At least one container is not running or its readiness probe is failing. The message lists the unready containers.',
    causes: [
      'A container is waiting (CrashLoopBackOff, ImagePullBackOff, ContainerCreating) or terminated.',
      'The readiness probe fails: wrong port/path, app still starting, a dependency the probe checks is down, timeoutSeconds (default 1s) too short.',
    ],
    checks: [
      { text: 'See which containers are unready and their state.', action: CONDITIONS },
      { text: 'Check the readiness probe configuration and `Unhealthy` events.', action: PROBES },
      { text: 'Read the container logs around the failures.', action: LOGS },
    ],
  },
  {
    id: 'pod-condition-ready-false',
    subject: 'pod-condition',
    match: 'Ready',
    status: 'False',
    aliases: ['ReadinessGatesNotReady'],
    title: 'Pod is not Ready',
    severity: 'warning',
    meaning:
      'The pod is not ready to serve: it is removed from Service endpoints and counts as unavailable for rollouts and PodDisruptionBudgets. Ready needs all containers ready and all readiness gates True.',
    causes: [
      'Containers are not ready (see ContainersReady).',
      'A readiness gate (spec.readinessGates, e.g. a cloud load balancer target-health gate) is not yet True.',
      'The node is NotReady or unreachable, so the node controller marked the pod not ready.',
      'The pod completed (reason PodCompleted) — expected for Job pods.',
    ],
    checks: [
      { text: 'Read the condition reason and message.', action: CONDITIONS },
      { text: 'Check readiness probes and `Unhealthy` events.', action: PROBES },
      { text: 'Check readiness gates, if any.', action: field('spec.readinessGates') },
      { text: 'Verify the node is Ready.', action: NODE },
    ],
  },
  {
    id: 'pod-condition-disruptiontarget-true',
    subject: 'pod-condition',
    match: 'DisruptionTarget',
    status: 'True',
    aliases: [
      'PreemptionByScheduler',
      'DeletionByTaintManager',
      'EvictionByEvictionAPI',
      'DeletionByPodGC',
      'TerminationByKubelet',
    ],
    title: 'Pod is being disrupted',
    severity: 'warning',
    meaning:
      'The pod is about to be (or was) terminated by a disruption rather than by its own failure; the reason says who: scheduler preemption, a NoExecute taint, the Eviction API (drain), pod GC of an orphaned pod, or the kubelet (node pressure, node shutdown).',
    causes: [
      'A higher-priority pod preempted it (PreemptionByScheduler).',
      'Its node got a NoExecute taint such as node.kubernetes.io/unreachable (DeletionByTaintManager).',
      '`kubectl drain` or an autoscaler evicted it (EvictionByEvictionAPI).',
      'The kubelet evicted it under node pressure or during graceful node shutdown (TerminationByKubelet).',
    ],
    checks: [
      { text: 'Read the condition reason and message.', action: CONDITIONS },
      { text: 'Check the node for taints, pressure conditions or cordoning.', action: NODE },
      { text: 'Check events for Preempted, Evicted or TaintManagerEviction.', action: EVENTS },
    ],
  },
  {
    id: 'pod-condition-podreadytostartcontainers-false',
    subject: 'pod-condition',
    match: 'PodReadyToStartContainers',
    status: 'False',
    title: 'Pod sandbox is not ready',
    severity: 'warning',
    meaning:
      'The kubelet has not finished creating the pod sandbox (network namespace, IP address), so no container can start.',
    causes: [
      'The CNI plugin failed to set up networking (FailedCreatePodSandBox), e.g. IP address exhaustion.',
      'The pause/sandbox image cannot be pulled.',
      'The container runtime is unhealthy on the node.',
    ],
    checks: [
      { text: 'Look for FailedCreatePodSandBox events and their message.', action: EVENTS },
      { text: 'Check the CNI pods on the node and its Ready condition.', action: NODE },
      { text: 'Check volumes are not blocking: sandbox creation waits for mounts.', action: VOLUMES },
    ],
  },
];
