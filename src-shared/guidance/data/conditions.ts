import type { GuidanceEntry } from '../types';
import { ALLOCATABLE, CONDITIONS, EVENTS, field, PODS, RESOURCES } from './actions';

const NODE_PODS_CMD = '`kubectl get pods -A -o wide --field-selector spec.nodeName=<node>`';

export const NODE_CONDITIONS: GuidanceEntry[] = [
  {
    id: 'node-condition-ready-false',
    subject: 'node-condition',
    match: 'Ready',
    status: 'False',
    aliases: ['KubeletNotReady'],
    title: 'Node is NotReady',
    severity: 'error',
    meaning:
      'The kubelet is reporting, but says the node cannot run pods. The condition message says why. New pods are not scheduled here (taint node.kubernetes.io/not-ready) and existing pods are evicted after their toleration (300 s by default).',
    causes: [
      'Container network not ready: "NetworkPluginNotReady … cni plugin not initialized" — the CNI DaemonSet pod on the node is missing or crashing.',
      'The container runtime is down or unresponsive ("container runtime is down", "PLEG is not healthy").',
      'The node is overloaded so the kubelet cannot finish its health checks in time.',
    ],
    checks: [
      { text: 'Read the Ready condition message.', action: CONDITIONS },
      { text: `Check the CNI and kube-proxy pods on the node: ${NODE_PODS_CMD}.`, action: PODS },
      { text: 'On the node: `systemctl status kubelet containerd`, `journalctl -u kubelet --since "-30m"`.' },
      {
        text: 'Check disk and memory on the node (`df -h`, `free -m`); a full disk often breaks the runtime.',
      },
    ],
  },
  {
    id: 'node-condition-ready-unknown',
    subject: 'node-condition',
    match: 'Ready',
    status: 'Unknown',
    aliases: ['NodeStatusUnknown'],
    title: 'Node stopped reporting',
    severity: 'error',
    meaning:
      'The control plane has not heard from the kubelet within the grace period ("Kubelet stopped posting node status"). The node is tainted node.kubernetes.io/unreachable; its pods are marked not Ready and deleted after 300 s by default, but StatefulSet pods are not replaced until the node is confirmed gone.',
    causes: [
      'The machine is off, crashed or rebooting (check the cloud console; spot/preemptible reclaim).',
      'A network partition between the node and the API server.',
      'The kubelet crashed, was stopped, or cannot authenticate (expired client certificate).',
      'The node is so overloaded (memory, PIDs) that the kubelet cannot run.',
    ],
    checks: [
      {
        text: 'Check when the kubelet last renewed its lease: `kubectl -n kube-node-lease get lease <node> -o yaml` (spec.renewTime).',
        action: CONDITIONS,
      },
      {
        text: 'Check the machine in the cloud console or hypervisor, then `ssh` in and read `journalctl -u kubelet`.',
      },
      { text: 'Look at the pods that were on it and whether they were rescheduled.', action: PODS },
    ],
  },
  {
    id: 'node-condition-memorypressure',
    subject: 'node-condition',
    match: 'MemoryPressure',
    status: 'True',
    aliases: ['KubeletHasInsufficientMemory'],
    title: 'Node is low on memory',
    severity: 'warning',
    meaning:
      'Available memory fell below the kubelet eviction threshold (default memory.available<100Mi). The kubelet evicts pods — BestEffort first, then Burstable pods using more than they request — and the node is tainted so BestEffort pods are not scheduled.',
    causes: [
      'Pods use far more memory than they request, so the scheduler overpacked the node.',
      'Pods without memory limits growing unbounded.',
      'System daemons or the kubelet itself using memory not covered by system-reserved/kube-reserved.',
    ],
    checks: [
      {
        text: 'Compare allocatable with requested and actual memory (`kubectl top node <node>`).',
        action: ALLOCATABLE,
      },
      {
        text: `Find the biggest consumers: \`kubectl top pods -A --sort-by=memory\` for pods from ${NODE_PODS_CMD}.`,
        action: PODS,
      },
      { text: 'Check EvictionThresholdMet and Evicted events.', action: EVENTS },
    ],
  },
  {
    id: 'node-condition-diskpressure',
    subject: 'node-condition',
    match: 'DiskPressure',
    status: 'True',
    aliases: ['KubeletHasDiskPressure'],
    title: 'Node is low on disk',
    severity: 'warning',
    meaning:
      'Free space or inodes on the node or image filesystem fell below the eviction threshold (defaults: nodefs.available<10%, imagefs.available<15%, nodefs.inodesFree<5%). The kubelet deletes unused images and dead containers first, then evicts pods by ephemeral-storage use.',
    causes: [
      'Pods writing to emptyDir or to their container filesystem (temp files, caches, logs to files).',
      'Large container logs on stdout faster than rotation.',
      'Many or huge images on a small root disk.',
      'Files outside Kubernetes filling the disk (journal, core dumps).',
    ],
    checks: [
      { text: 'On the node: `df -h /var/lib/kubelet /var/lib/containerd` and `df -i`.' },
      {
        text: 'Largest emptyDirs: `du -sh /var/lib/kubelet/pods/*/volumes/kubernetes.io~empty-dir/* | sort -h | tail`.',
      },
      { text: 'Prune unused images: `crictl rmi --prune`.' },
      { text: 'Check FreeDiskSpaceFailed / ImageGCFailed / Evicted events.', action: EVENTS },
      { text: 'Set ephemeral-storage requests and limits on pods that write a lot.', action: RESOURCES },
    ],
  },
  {
    id: 'node-condition-pidpressure',
    subject: 'node-condition',
    match: 'PIDPressure',
    status: 'True',
    aliases: ['KubeletHasInsufficientPID'],
    title: 'Node is low on process IDs',
    severity: 'warning',
    meaning: 'Too many processes/threads on the node; the kubelet will evict pods to free PIDs.',
    causes: [
      'A pod leaks processes, e.g. zombies because PID 1 does not reap children (use tini or shareProcessNamespace).',
      'Thread-heavy workloads (threads count as PIDs).',
      'No per-pod PID limit (kubelet podPidsLimit).',
    ],
    checks: [
      {
        text: 'On the node: `ps -eLf | wc -l` against `cat /proc/sys/kernel/pid_max`; `ps -e -o pid,ppid,stat,comm | grep Z` for zombies.',
      },
      { text: 'Check which pods run there.', action: PODS },
      { text: 'Check NodeHasInsufficientPID and Evicted events.', action: EVENTS },
    ],
  },
  {
    id: 'node-condition-networkunavailable',
    subject: 'node-condition',
    match: 'NetworkUnavailable',
    status: 'True',
    aliases: ['NoRouteCreated'],
    title: 'Node network not configured',
    severity: 'error',
    meaning:
      "The node's pod network is not set up (set by the CNI or the cloud route controller). The node is tainted node.kubernetes.io/network-unavailable and pods there cannot reach other nodes.",
    causes: [
      'The CNI agent (calico-node, cilium, …) has not started or failed on this node.',
      "The cloud route controller could not create the route for the node's pod CIDR (route table limits, permissions).",
    ],
    checks: [
      { text: `Check the CNI pods on the node: ${NODE_PODS_CMD}.`, action: PODS },
      { text: 'Read the condition reason and message.', action: CONDITIONS },
    ],
  },
];

export const DEPLOYMENT_CONDITIONS: GuidanceEntry[] = [
  {
    id: 'deployment-condition-available-false',
    subject: 'deployment-condition',
    match: 'Available',
    status: 'False',
    aliases: ['MinimumReplicasUnavailable'],
    title: 'Deployment below minimum availability',
    severity: 'error',
    meaning:
      'Fewer pods are Ready (for at least minReadySeconds) than replicas minus maxUnavailable. Services behind it may be degraded or down.',
    causes: [
      'Pods crash, fail readiness, or cannot pull their image.',
      'Pods are Pending: no room in the cluster, or a PVC/affinity problem.',
      'Nodes hosting the pods went NotReady.',
      'The ReplicaSet cannot create pods (quota, admission) — see ReplicaFailure.',
    ],
    checks: [
      { text: 'Look at the pods and what each one is stuck on.', action: PODS },
      {
        text: 'Follow the rollout: `kubectl -n <namespace> rollout status deploy/<name>`.',
        action: CONDITIONS,
      },
      { text: 'Check events of the Deployment and its ReplicaSets.', action: EVENTS },
    ],
  },
  {
    id: 'deployment-condition-progressing-false',
    subject: 'deployment-condition',
    match: 'Progressing',
    status: 'False',
    aliases: ['ProgressDeadlineExceeded'],
    title: 'Rollout stalled',
    severity: 'error',
    meaning:
      'No rollout progress for progressDeadlineSeconds (default 600 s), reason ProgressDeadlineExceeded. Kubernetes does not roll back by itself: the new ReplicaSet stays, old pods keep serving if they are still up.',
    causes: [
      'New pods crash, fail readiness or cannot pull the new image.',
      'New pods cannot be scheduled (requests too big, no room with maxSurge, affinity).',
      'The ReplicaSet cannot create pods (quota, PodSecurity, webhook).',
      'A RWO PVC shared with old pods blocks the new pod (use strategy Recreate).',
    ],
    checks: [
      { text: 'See which pods of the new ReplicaSet are not ready and why.', action: PODS },
      {
        text: 'Review: `kubectl -n <namespace> rollout history deploy/<name>`; roll back with `kubectl -n <namespace> rollout undo deploy/<name>`.',
      },
      { text: 'Check the deadline and strategy.', action: field('spec.progressDeadlineSeconds') },
      { text: 'Check ReplicaSet events for FailedCreate.', action: EVENTS },
    ],
  },
  {
    id: 'deployment-condition-replicafailure',
    subject: 'deployment-condition',
    match: 'ReplicaFailure',
    status: 'True',
    aliases: ['FailedCreate'],
    title: 'ReplicaSet cannot create pods',
    severity: 'error',
    meaning:
      'The ReplicaSet controller is being refused by the API server when creating pods. The message quotes the refusal.',
    causes: [
      'ResourceQuota exceeded ("exceeded quota: … requested: limits.memory=1Gi, used: …, limited: …") or quota requires requests/limits that pods do not set.',
      'LimitRange violation (above max or below min).',
      'Pod Security admission ("violates PodSecurity \\"restricted:latest\\"") or a validating webhook denial.',
      'The service account does not exist ("serviceaccount \\"x\\" not found").',
    ],
    checks: [
      { text: "Read the condition message or the ReplicaSet's FailedCreate events.", action: EVENTS },
      {
        text: 'Quota usage: `kubectl -n <namespace> describe resourcequota`; limits: `kubectl -n <namespace> describe limitrange`.',
      },
      {
        text: 'Pod Security level: `kubectl get ns <namespace> --show-labels` (pod-security.kubernetes.io/enforce).',
      },
      {
        text: 'Check that the service account in the pod template exists.',
        action: field('spec.serviceAccountName'),
      },
    ],
  },
];
