import { view } from '../../../kube/meta';
import { badgeColumn, type KindColumn, type Row, ratioColumn } from '../columns';
import { jobDuration, jobElapsed, jobStatus, jobTone } from './status';
import type { Job } from './types';

const j = (r: Row) => view<Job>(r.resource);

export const jobColumns: KindColumn[] = [
  badgeColumn('status', 'Status', '7.5rem', (r) => jobStatus(j(r)), jobTone),
  ratioColumn(
    'completions',
    'Completions',
    (r) => [j(r).status?.succeeded ?? 0, j(r).spec?.completions ?? 1],
    '7rem',
  ),
  {
    id: 'duration',
    header: 'Duration',
    width: '6rem',
    align: 'end',
    value: (r) => jobElapsed(j(r)),
    render: (r) => jobDuration(j(r)),
  },
];
