import { age, time } from '../../../kube/format';
import type { Tone } from '../../../kube/meta';
import type { Job } from './types';

/** Complete, Failed, Suspended or Running, from the job's conditions as kubectl reads them. */
export function jobStatus(job: Job): string {
  const cond = (t: string) => job.status?.conditions?.some((c) => c.type === t && c.status === 'True');
  if (cond('Complete')) return 'Complete';
  if (cond('Failed')) return 'Failed';
  if (cond('Suspended') || job.spec?.suspend) return 'Suspended';
  return 'Running';
}

export function jobTone(status: string): Tone {
  return status === 'Complete' ? 'ok' : status === 'Failed' ? 'bad' : 'neutral';
}

/** Milliseconds from start to completion, or to now while it runs; 0 before it starts. */
export function jobElapsed(job: Job, now = Date.now()): number {
  const s = job.status;
  if (!s?.startTime) return 0;
  return (s.completionTime ? time(s.completionTime) : now) - time(s.startTime);
}

export function jobDuration(job: Job, now = Date.now()): string {
  const start = job.status?.startTime;
  if (!start) return '—';
  const end = job.status?.completionTime ? time(job.status.completionTime) : now;
  return age(start, end);
}
