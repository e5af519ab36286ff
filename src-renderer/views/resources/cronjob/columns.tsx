import { age, time } from '../../../kube/format';
import { view } from '../../../kube/meta';
import { type KindColumn, numberColumn, type Row } from '../columns';
import type { CronJob } from './types';

const w = (r: Row) => view<CronJob>(r.resource);

export const cronjobColumns: KindColumn[] = [
  { id: 'schedule', header: 'Schedule', width: 'minmax(7rem, 1fr)', value: (r) => w(r).spec?.schedule ?? '' },
  {
    id: 'suspend',
    header: 'Suspend',
    width: '5.5rem',
    value: (r) => (w(r).spec?.suspend ? 'True' : 'False'),
  },
  numberColumn('active', 'Active', (r) => w(r).status?.active?.length ?? 0),
  {
    id: 'last',
    header: 'Last schedule',
    width: '7.5rem',
    align: 'end',
    value: (r) => time(w(r).status?.lastScheduleTime),
    render: (r) => (w(r).status?.lastScheduleTime ? `${age(w(r).status?.lastScheduleTime)} ago` : 'never'),
  },
];
