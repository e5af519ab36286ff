/**
 * batch: CronJob nightly-report (two Completed runs, last night's run Failed with exit 1),
 * CronJob hourly-cleanup (previous run Completed, current run Running) and a standalone
 * Job db-migrate that Succeeded.
 */

import { DAY, HOUR, MINUTE, SECOND } from '../time';
import type { KubeObject } from '../types';
import type { Gen } from './context';
import { kubeletEvent, objectEvent, startupEvents } from './events';
import { buildCronJob, buildJob } from './jobs';
import type { PodTemplate } from './pods';

const NS = 'batch';

function template(
  id: string,
  name: string,
  image: string,
  log: PodTemplate['containers'][number]['log'],
): PodTemplate {
  return {
    id,
    labels: { app: name },
    restartPolicy: 'Never',
    containers: [
      { name, image, log, requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '512Mi' } },
    ],
  };
}

export function buildBatch(gen: Gen): void {
  const lastNightly = Math.floor((gen.now - 2 * HOUR) / DAY) * DAY + 2 * HOUR;
  const nightly = buildCronJob(gen, {
    namespace: NS,
    name: 'nightly-report',
    schedule: '0 2 * * *',
    createdAgoMs: 40 * DAY,
    manager: 'helm',
    template: template(
      'batch/nightly-report',
      'report',
      'registry.example.com/analytics/report:5.2.0',
      'report',
    ),
    runs: [
      { scheduledAt: lastNightly - 2 * DAY, state: { kind: 'succeeded', durationMs: 4 * MINUTE } },
      { scheduledAt: lastNightly - DAY, state: { kind: 'succeeded', durationMs: 5 * MINUTE } },
      { scheduledAt: lastNightly, state: { kind: 'failed', exitCode: 1, durationMs: 3 * MINUTE } },
    ],
  });
  const failedJob = nightly.jobs[2] as KubeObject;
  const failedPod = nightly.pods[2];
  const sinceFail = gen.now - lastNightly;
  objectEvent(gen, failedJob, {
    reason: 'BackoffLimitExceeded',
    type: 'Warning',
    message: 'Job has reached the specified backoff limit',
    component: 'job-controller',
    firstAgoMs: sinceFail - 3 * MINUTE - 6 * SECOND,
  });
  if (failedPod) {
    kubeletEvent(gen, failedPod, {
      reason: 'Error',
      type: 'Warning',
      message: 'Container report exited with code 1 (Error)',
      firstAgoMs: sinceFail - 3 * MINUTE,
    });
  }

  const hourStart = Math.floor(gen.now / HOUR) * HOUR;
  const cleanup = buildCronJob(gen, {
    namespace: NS,
    name: 'hourly-cleanup',
    schedule: '0 * * * *',
    createdAgoMs: 40 * DAY,
    manager: 'helm',
    template: template(
      'batch/hourly-cleanup',
      'cleanup',
      'registry.example.com/ops/cleanup:1.0.4',
      'cleanup',
    ),
    runs: [
      { scheduledAt: hourStart - HOUR, state: { kind: 'succeeded', durationMs: 2 * MINUTE } },
      { scheduledAt: hourStart, state: { kind: 'running' } },
    ],
  });
  const running = cleanup.jobs[1] as KubeObject;
  const runningPod = cleanup.pods[1];
  const sinceStart = gen.now - hourStart;
  objectEvent(gen, cleanup.cronJob, {
    reason: 'SuccessfulCreate',
    message: `Created job ${running.metadata.name}`,
    component: 'cronjob-controller',
    firstAgoMs: sinceStart,
  });
  objectEvent(gen, cleanup.cronJob, {
    reason: 'SawCompletedJob',
    message: `Saw completed job: ${(cleanup.jobs[0] as KubeObject).metadata.name}, condition: Complete`,
    component: 'cronjob-controller',
    firstAgoMs: sinceStart + HOUR - 2 * MINUTE - 6 * SECOND,
  });
  objectEvent(gen, running, {
    reason: 'SuccessfulCreate',
    message: `Created pod: ${runningPod?.metadata.name}`,
    component: 'job-controller',
    firstAgoMs: sinceStart,
  });
  if (runningPod) startupEvents(gen, runningPod, Math.max(2 * SECOND, sinceStart - SECOND));

  buildJob(gen, {
    namespace: NS,
    name: 'db-migrate',
    createdAgoMs: 3 * DAY,
    manager: 'kubectl-create',
    template: template(
      'batch/db-migrate',
      'migrate',
      'registry.example.com/shop/checkout-migrations:3.8.2',
      'migrate',
    ),
    state: { kind: 'succeeded', durationMs: 40 * SECOND },
    backoffLimit: 2,
  });
}
