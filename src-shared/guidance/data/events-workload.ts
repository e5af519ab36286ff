import type { GuidanceEntry } from '../types';
import { EVENTS, field, LOGS, LOGS_PREV, OWNER, PODS, RESOURCES } from './actions';

/** Events from workload controllers (ReplicaSet, Deployment, Job, CronJob, DaemonSet, StatefulSet). */
export const WORKLOAD_EVENTS: GuidanceEntry[] = [
  {
    id: 'event-successfulcreate',
    subject: 'event-reason',
    match: 'SuccessfulCreate',
    title: 'Controller created a pod or job',
    severity: 'info',
    meaning:
      'A ReplicaSet, StatefulSet, DaemonSet, Job or CronJob created a child ("Created pod: web-7d9c-abcde").',
    causes: ['Scale-up, rollout, replacement of a failed/deleted pod, or a scheduled run.'],
    checks: [
      { text: 'Many creations in a short time mean pods keep dying and being replaced.', action: PODS },
    ],
  },
  {
    id: 'event-failedcreate',
    subject: 'event-reason',
    match: 'FailedCreate',
    title: 'Controller could not create a pod',
    severity: 'error',
    meaning:
      'The API server refused the pod the controller tried to create ("Error creating: pods \\"web-…\\" is forbidden: …"). Nothing shows up as a pod, so this event is the only trace.',
    causes: [
      'ResourceQuota exceeded, or the quota requires requests/limits the template does not set.',
      'LimitRange minimum/maximum violated.',
      'Pod Security admission ("violates PodSecurity \\"restricted:latest\\": allowPrivilegeEscalation != false …").',
      'A validating/mutating webhook rejected the pod or timed out.',
      'The service account does not exist yet.',
    ],
    checks: [
      { text: 'Read the message: the text after "forbidden:" names the policy.', action: EVENTS },
      {
        text: 'Quota: `kubectl -n <namespace> describe resourcequota`; LimitRange: `kubectl -n <namespace> describe limitrange`.',
        action: RESOURCES,
      },
      {
        text: 'Pod Security level: `kubectl get ns <namespace> --show-labels`.',
        action: field('spec.securityContext'),
      },
      { text: 'Service account of the template.', action: field('spec.serviceAccountName') },
    ],
  },
  {
    id: 'event-successfuldelete',
    subject: 'event-reason',
    match: 'SuccessfulDelete',
    title: 'Controller deleted a pod or job',
    severity: 'info',
    meaning:
      'A controller removed a child: scale-down, rollout of an old ReplicaSet, or CronJob history cleanup.',
    causes: ['Normal scale-down or history limits.'],
    checks: [
      { text: 'Unexpected deletions: look for an HPA or GitOps tool changing replicas.', action: OWNER },
    ],
  },
  {
    id: 'event-scalingreplicaset',
    subject: 'event-reason',
    match: 'ScalingReplicaSet',
    title: 'Deployment scaled a ReplicaSet',
    severity: 'info',
    meaning:
      'The Deployment changed a ReplicaSet size ("Scaled up replica set web-7d9c to 3"). During a rollout it alternates between scaling the new set up and the old one down.',
    causes: [
      'Rollout of a new template, manual scale, or an HPA.',
      'Flapping sizes: two actors (HPA vs. GitOps/`kubectl apply` of replicas) fighting.',
    ],
    checks: [
      { text: 'Check rollout state: `kubectl -n <namespace> rollout status deploy/<name>`.', action: PODS },
      {
        text: 'If replicas flap, see whether an HPA targets it and spec.replicas is also set by your manifests.',
        action: field('spec.replicas'),
      },
    ],
  },
  {
    id: 'event-backofflimitexceeded',
    subject: 'event-reason',
    match: 'BackoffLimitExceeded',
    title: 'Job gave up after too many failures',
    severity: 'error',
    meaning:
      "The Job's pods failed more than spec.backoffLimit times (default 6, with exponential delay between retries), so the Job is Failed and no more pods are started.",
    causes: [
      'The task fails deterministically (bad input, bug, missing config).',
      'Pods are OOMKilled or evicted repeatedly.',
      'A dependency was down during every retry.',
    ],
    checks: [
      {
        text: 'Find the failed pods: `kubectl -n <namespace> get pods -l batch.kubernetes.io/job-name=<name>`.',
        action: PODS,
      },
      { text: 'Read the logs of a failed pod.', action: LOGS_PREV },
      {
        text: 'Check backoffLimit and podFailurePolicy (to not count retriable failures).',
        action: field('spec.backoffLimit'),
      },
    ],
  },
  {
    id: 'event-deadlineexceeded',
    subject: 'event-reason',
    match: 'DeadlineExceeded',
    title: 'Job exceeded its active deadline',
    severity: 'error',
    meaning:
      'The Job ran longer than spec.activeDeadlineSeconds ("Job was active longer than specified deadline"); its pods were terminated and the Job failed.',
    causes: [
      'The work takes longer than allowed, or it is stuck.',
      'Pods spent the time Pending or retrying.',
    ],
    checks: [
      { text: 'Check the deadline and how long pods ran.', action: field('spec.activeDeadlineSeconds') },
      { text: "Read the pods' logs for where time went.", action: LOGS },
    ],
  },
  {
    id: 'event-completed',
    subject: 'event-reason',
    match: 'Completed',
    title: 'Job completed',
    severity: 'info',
    meaning: 'The Job reached its required number of successful completions.',
    causes: ['Normal completion.'],
    checks: [
      {
        text: 'Finished Jobs are kept until ttlSecondsAfterFinished or the CronJob history limit removes them.',
        action: OWNER,
      },
    ],
  },
  {
    id: 'event-sawcompletedjob',
    subject: 'event-reason',
    match: 'SawCompletedJob',
    title: 'CronJob saw a finished job',
    severity: 'info',
    meaning: 'The CronJob controller noticed a Job it created finished, with its status.',
    causes: ['Normal CronJob run.'],
    checks: [{ text: 'If the status is Failed, open the Job.', action: PODS }],
  },
  {
    id: 'event-missschedule',
    subject: 'event-reason',
    match: 'MissSchedule',
    aliases: ['TooManyMissedTimes'],
    title: 'CronJob missed scheduled runs',
    severity: 'warning',
    meaning:
      'The controller could not start a run on time (e.g. it was down, or startingDeadlineSeconds passed). After more than 100 missed times it stops catching up and only logs this.',
    causes: [
      'The CronJob was suspended or the controller manager was unavailable.',
      "startingDeadlineSeconds shorter than the controller's delay.",
      'concurrencyPolicy Forbid with a previous run still active.',
    ],
    checks: [
      {
        text: 'Check schedule, startingDeadlineSeconds and concurrencyPolicy.',
        action: field('spec.startingDeadlineSeconds'),
      },
      {
        text: 'Trigger a run by hand: `kubectl -n <namespace> create job --from=cronjob/<name> <name>-manual`.',
      },
    ],
  },
  {
    id: 'event-jobalreadyactive',
    subject: 'event-reason',
    match: 'JobAlreadyActive',
    title: 'Run skipped: previous run still active',
    severity: 'warning',
    meaning: 'concurrencyPolicy is Forbid and the previous Job has not finished, so this run was skipped.',
    causes: [
      'Runs take longer than the schedule interval.',
      'A previous Job is stuck (Pending pods, a hung process).',
    ],
    checks: [
      { text: 'Check the active Job and its pods.', action: PODS },
      { text: 'Check concurrencyPolicy and the schedule.', action: field('spec.concurrencyPolicy') },
    ],
  },
  {
    id: 'event-unexpectedjob',
    subject: 'event-reason',
    match: 'UnexpectedJob',
    title: 'CronJob saw a job it did not create',
    severity: 'warning',
    meaning:
      'A Job owned by this CronJob is not in its active list, e.g. created manually with an ownerReference.',
    causes: ['Manual Jobs with copied ownerReferences, or a controller restart losing track.'],
    checks: [{ text: 'Inspect Jobs in the namespace owned by this CronJob.', action: PODS }],
  },
  {
    id: 'event-faileddaemonpod',
    subject: 'event-reason',
    match: 'FailedDaemonPod',
    title: 'DaemonSet pod failed and is being replaced',
    severity: 'warning',
    meaning:
      'A DaemonSet pod on a node reached Failed ("Found failed daemon pod … will try to kill it"); the controller deletes and recreates it.',
    causes: ['Rejected by the kubelet (OutOfcpu, NodeAffinity), evicted, or failed containers.'],
    checks: [{ text: "Look at the failed pod's status and the node.", action: PODS }],
  },
  {
    id: 'event-recreatingfailedpod',
    subject: 'event-reason',
    match: 'RecreatingFailedPod',
    title: 'StatefulSet recreating a failed pod',
    severity: 'warning',
    meaning:
      'A StatefulSet pod ended Failed or Succeeded; the controller deletes it and creates a new one with the same identity.',
    causes: ['Eviction, kubelet admission rejection, or a container exit with a non-Always restart policy.'],
    checks: [{ text: "Check the pod's previous status and events.", action: PODS }],
  },
];
