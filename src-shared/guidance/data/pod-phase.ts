import type { GuidanceEntry } from '../types';
import {
  ALLOCATABLE,
  CONDITIONS,
  EVENTS,
  field,
  LOGS,
  LOGS_PREV,
  NODE,
  OWNER,
  PROBES,
  VOLUMES,
} from './actions';

export const POD_PHASES: GuidanceEntry[] = [
  {
    id: 'pod-phase-pending',
    subject: 'pod-phase',
    match: 'Pending',
    title: 'Pod is Pending',
    severity: 'warning',
    meaning:
      'The pod was accepted but at least one container is not running yet. This covers both waiting for the scheduler to pick a node and, once a node is assigned, pulling images, mounting volumes and running init containers.',
    causes: [
      'No node fits: not enough unrequested CPU/memory, untolerated taints, nodeSelector/affinity that no node satisfies (FailedScheduling event).',
      'A PersistentVolumeClaim is unbound, or its volume is in a zone no eligible node is in.',
      'Scheduled, but the image is still pulling or failing to pull (ErrImagePull / ImagePullBackOff).',
      'Scheduled, but volumes cannot mount (missing ConfigMap/Secret, Multi-Attach, CSI driver not running) or the CNI cannot create the pod sandbox.',
      'An init container has not finished (Init:0/1, Init:CrashLoopBackOff).',
      'The cluster autoscaler is adding a node; the pod stays Pending until that node is Ready.',
    ],
    checks: [
      {
        text: 'Is the pod scheduled? If the PodScheduled condition is False, its message lists why each node was rejected.',
        action: CONDITIONS,
      },
      {
        text: 'Read the events, newest last: `kubectl -n <namespace> describe pod <pod>` (FailedScheduling, FailedMount, Failed, BackOff).',
        action: EVENTS,
      },
      {
        text: "Compare the pod's requests with what is left on candidate nodes (`kubectl describe node <node>` → Allocated resources).",
        action: ALLOCATABLE,
      },
      {
        text: 'Check nodeSelector, affinity and tolerations against node labels and taints.',
        action: field('spec.affinity'),
      },
      { text: 'Check that every PVC is Bound: `kubectl -n <namespace> get pvc`.', action: VOLUMES },
    ],
  },
  {
    id: 'pod-phase-running',
    subject: 'pod-phase',
    match: 'Running',
    title: 'Pod is Running',
    severity: 'info',
    meaning:
      'The pod is bound to a node, all containers were created and at least one is running or restarting. Running does not mean healthy: a container in CrashLoopBackOff still leaves the pod Running.',
    causes: [
      'Normal operation.',
      'A container keeps restarting (check the RESTARTS count and each container state).',
      'A readiness probe fails, so the pod is Running but not Ready and receives no Service traffic.',
    ],
    checks: [
      {
        text: 'Are all containers Ready and is the restart count stable? `kubectl -n <namespace> get pod <pod>`.',
        action: CONDITIONS,
      },
      { text: 'If a container restarted, read the logs of its previous instance.', action: LOGS_PREV },
      { text: 'If not Ready, look for `Unhealthy` events and the readiness probe settings.', action: PROBES },
    ],
  },
  {
    id: 'pod-phase-succeeded',
    subject: 'pod-phase',
    match: 'Succeeded',
    title: 'Pod Succeeded',
    severity: 'info',
    meaning:
      'Every container exited with code 0 and none will be restarted. Expected for Job and CronJob pods; the pod object stays until its owner or TTL removes it.',
    causes: [
      'A Job or one-off pod finished its work.',
      'restartPolicy is OnFailure or Never and the process exited 0.',
    ],
    checks: [
      {
        text: 'Confirm the output in the logs: `kubectl -n <namespace> logs <pod> --all-containers`.',
        action: LOGS,
      },
      {
        text: 'Finished pods pile up unless the Job sets ttlSecondsAfterFinished or the CronJob sets successfulJobsHistoryLimit.',
        action: OWNER,
      },
    ],
  },
  {
    id: 'pod-phase-failed',
    subject: 'pod-phase',
    match: 'Failed',
    title: 'Pod Failed',
    severity: 'error',
    meaning:
      'All containers have terminated and at least one failed (non-zero exit or killed by the system), and the restart policy will not restart it; or the node gave up on the whole pod (eviction, deadline, admission rejection, node shutdown). A Failed pod is never restarted in place — its controller creates a new one.',
    causes: [
      'A container exited non-zero with restartPolicy Never/OnFailure (typical Job failure).',
      'Evicted by the kubelet under node memory/disk pressure (status.reason Evicted).',
      'spec.activeDeadlineSeconds elapsed (status.reason DeadlineExceeded).',
      'Rejected by the kubelet after scheduling: OutOfcpu, OutOfmemory, NodeAffinity, UnexpectedAdmissionError.',
      'The node shut down (status.reason Terminated / NodeShutdown).',
    ],
    checks: [
      {
        text: 'Read status.reason and status.message — they name eviction, deadlines and admission failures.',
        action: field('status.message'),
      },
      { text: "Check each container's terminated exit code and reason.", action: CONDITIONS },
      {
        text: 'Read the logs of the failed container: `kubectl -n <namespace> logs <pod> -c <container>`.',
        action: LOGS,
      },
      { text: 'For Job pods, see whether the Job is retrying or hit its backoffLimit.', action: OWNER },
    ],
  },
  {
    id: 'pod-phase-unknown',
    subject: 'pod-phase',
    match: 'Unknown',
    title: 'Pod state is Unknown',
    severity: 'error',
    meaning:
      "The control plane cannot get the pod's state, almost always because the node's kubelet stopped reporting. The pod may still be running on the node.",
    causes: [
      'The node is down, rebooting, or partitioned from the API server.',
      'The kubelet crashed or is starved of CPU/memory on an overloaded node.',
      'The kubelet cannot authenticate (expired or un-rotated client certificate).',
    ],
    checks: [
      {
        text: "Check the node's Ready condition and last heartbeat: `kubectl get node <node>`, `kubectl -n kube-node-lease get lease <node>`.",
        action: NODE,
      },
      {
        text: 'On the node: `systemctl status kubelet` and `journalctl -u kubelet --since "-30m"`.',
      },
      {
        text: 'StatefulSet pods on a lost node are not replaced until the pod is deleted. Force-delete (`kubectl delete pod <pod> --grace-period=0 --force`) only once you know the node is really gone, or two copies may run.',
      },
    ],
  },
];
