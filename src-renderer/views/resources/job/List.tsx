import { age, time } from '../../../kube/format';
import { view, type Workload } from '../../../kube/types';
import { badgeColumn, type KindColumn, type Row, ratioColumn } from '../columns';

const w = (r: Row) => view<Workload>(r.resource);

/** Complete, Failed, Suspended or Running, from the job's conditions as kubectl reads them. */
export function jobStatus(job: Workload): string {
  const cond = (t: string) => job.status?.conditions?.some((c) => c.type === t && c.status === 'True');
  if (cond('Complete')) return 'Complete';
  if (cond('Failed')) return 'Failed';
  if (cond('Suspended') || job.spec?.suspend) return 'Suspended';
  return 'Running';
}

export function jobDuration(job: Workload, now = Date.now()): string {
  const start = job.status?.startTime;
  if (!start) return '—';
  const end = job.status?.completionTime ? time(job.status.completionTime) : now;
  return age(start, end);
}

export const jobColumns: KindColumn[] = [
  badgeColumn(
    'status',
    'Status',
    '7.5rem',
    (r) => jobStatus(w(r)),
    (v) => (v === 'Complete' ? 'ok' : v === 'Failed' ? 'bad' : 'neutral'),
  ),
  ratioColumn(
    'completions',
    'Completions',
    (r) => [w(r).status?.succeeded ?? 0, w(r).spec?.completions ?? 1],
    '7rem',
  ),
  {
    id: 'duration',
    header: 'Duration',
    width: '6rem',
    align: 'end',
    value: (r) => {
      const s = w(r).status;
      if (!s?.startTime) return 0;
      return (s.completionTime ? time(s.completionTime) : Date.now()) - time(s.startTime);
    },
    render: (r) => jobDuration(w(r)),
  },
];
