/** Jobs (one pod each, Complete/Failed conditions) and CronJobs owning their past runs. */

import { rfc3339, SECOND } from '../time';
import type { KubeObject, Pod } from '../types';
import type { Gen } from './context';
import { cronJobName, ownedPodName } from './naming';
import { buildPod, type PodState, workloadTemplateSpec } from './pods';
import { managed, ownerRef, spread, type WorkloadBase, workloadMeta } from './workload-common';

interface JobSpec extends Omit<WorkloadBase, 'selector'> {
  state: Extract<PodState, { kind: 'succeeded' | 'failed' | 'running' }>;
  backoffLimit?: number;
  owner?: KubeObject;
  scheduledAt?: number;
}

export function buildJob(gen: Gen, j: JobSpec): { job: KubeObject; pod: Pod } {
  const uid = gen.uid(`Job/${j.namespace}/${j.name}`);
  const jobLabels = {
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': j.name,
    'controller-uid': uid,
    'job-name': j.name,
  };
  const podLabels = { ...j.template.labels, ...jobLabels };
  const spec = {
    parallelism: 1,
    completions: 1,
    backoffLimit: j.backoffLimit ?? 6,
    selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
    manualSelector: false,
    template: { metadata: { labels: podLabels }, spec: workloadTemplateSpec(j.template) },
    completionMode: 'NonIndexed',
    suspend: false,
    podReplacementPolicy: 'TerminatingOrFailed',
  };
  const created = gen.now - j.createdAgoMs;
  const job: KubeObject = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      ...workloadMeta(
        gen,
        'Job',
        { ...j, selector: {} },
        1,
        j.scheduledAt
          ? { 'batch.kubernetes.io/cronjob-scheduled-timestamp': rfc3339(j.scheduledAt) }
          : undefined,
      ),
      uid,
      labels: jobLabels,
      ...(j.owner ? { ownerReferences: [ownerRef(j.owner)] } : {}),
    },
    spec,
  };
  gen.add(job);
  const pod = gen.add(
    buildPod(gen, {
      namespace: j.namespace,
      name: ownedPodName(j.namespace, j.name, 0),
      generateName: `${j.name}-`,
      template: j.template,
      labels: podLabels,
      owner: ownerRef(job),
      node: spread(gen, j.name),
      state: j.state,
      createdAgoMs: j.createdAgoMs,
    }),
  );
  const start = rfc3339(created);
  let status: Record<string, unknown>;
  if (j.state.kind === 'succeeded') {
    const done = rfc3339(created + j.state.durationMs + 6 * SECOND);
    status = {
      conditions: [
        {
          type: 'SuccessCriteriaMet',
          status: 'True',
          lastProbeTime: done,
          lastTransitionTime: done,
          reason: 'CompletionsReached',
          message: 'Reached expected number of succeeded pods',
        },
        {
          type: 'Complete',
          status: 'True',
          lastProbeTime: done,
          lastTransitionTime: done,
          reason: 'CompletionsReached',
          message: 'Reached expected number of succeeded pods',
        },
      ],
      startTime: start,
      completionTime: done,
      succeeded: 1,
      terminating: 0,
      uncountedTerminatedPods: {},
      ready: 0,
    };
  } else if (j.state.kind === 'failed') {
    const done = rfc3339(created + j.state.durationMs + 6 * SECOND);
    status = {
      conditions: [
        {
          type: 'FailureTarget',
          status: 'True',
          lastProbeTime: done,
          lastTransitionTime: done,
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
        },
        {
          type: 'Failed',
          status: 'True',
          lastProbeTime: done,
          lastTransitionTime: done,
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
        },
      ],
      startTime: start,
      failed: 1,
      terminating: 0,
      uncountedTerminatedPods: {},
      ready: 0,
    };
  } else {
    status = { startTime: start, active: 1, terminating: 0, uncountedTerminatedPods: {}, ready: 1 };
  }
  job.status = status;
  job.metadata.managedFields = managed(
    gen,
    'Job',
    { ...j, selector: {}, manager: j.owner ? 'kube-controller-manager' : j.manager },
    'batch/v1',
    spec,
    status,
  );
  return { job, pod };
}

interface CronJobSpec extends Omit<WorkloadBase, 'selector'> {
  schedule: string;
  /** Past runs, oldest first, each with the scheduled time and the pod state it ended in. */
  runs: { scheduledAt: number; state: JobSpec['state'] }[];
  backoffLimit?: number;
}

export function buildCronJob(
  gen: Gen,
  c: CronJobSpec,
): { cronJob: KubeObject; jobs: KubeObject[]; pods: Pod[] } {
  const spec = {
    schedule: c.schedule,
    timeZone: 'Etc/UTC',
    concurrencyPolicy: 'Forbid',
    suspend: false,
    jobTemplate: {
      metadata: {},
      spec: {
        backoffLimit: c.backoffLimit ?? 0,
        template: { metadata: { labels: c.template.labels }, spec: workloadTemplateSpec(c.template) },
      },
    },
    successfulJobsHistoryLimit: 3,
    failedJobsHistoryLimit: 1,
  };
  const cronJob: KubeObject = {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: workloadMeta(gen, 'CronJob', { ...c, selector: {} }, 1),
    spec,
  };
  gen.add(cronJob);
  const jobs: KubeObject[] = [];
  const pods: Pod[] = [];
  for (const run of c.runs) {
    const { job, pod } = buildJob(gen, {
      ...c,
      name: cronJobName(c.name, run.scheduledAt),
      createdAgoMs: gen.now - run.scheduledAt,
      state: run.state,
      backoffLimit: c.backoffLimit ?? 0,
      owner: cronJob,
      scheduledAt: run.scheduledAt,
    });
    jobs.push(job);
    pods.push(pod);
  }
  const last = c.runs[c.runs.length - 1];
  const lastOk = [...c.runs].reverse().find((r) => r.state.kind === 'succeeded');
  const active = c.runs
    .map((r, i) => ({ r, job: jobs[i] as KubeObject }))
    .filter(({ r }) => r.state.kind === 'running')
    .map(({ job }) => ({
      kind: 'Job',
      namespace: c.namespace,
      name: job.metadata.name,
      uid: job.metadata.uid,
      apiVersion: 'batch/v1',
      resourceVersion: job.metadata.resourceVersion,
    }));
  const status = {
    ...(active.length > 0 ? { active } : {}),
    ...(last ? { lastScheduleTime: rfc3339(last.scheduledAt) } : {}),
    ...(lastOk && lastOk.state.kind === 'succeeded'
      ? { lastSuccessfulTime: rfc3339(lastOk.scheduledAt + lastOk.state.durationMs + 6 * SECOND) }
      : {}),
  };
  cronJob.status = status;
  cronJob.metadata.managedFields = managed(gen, 'CronJob', { ...c, selector: {} }, 'batch/v1', spec, status);
  return { cronJob, jobs, pods };
}
