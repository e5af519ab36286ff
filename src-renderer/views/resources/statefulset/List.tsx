import { view, type Workload } from '../../../kube/types';
import { type KindColumn, numberColumn, type Row, ratioColumn } from '../columns';

const w = (r: Row) => view<Workload>(r.resource);

export const statefulsetColumns: KindColumn[] = [
  ratioColumn('ready', 'Ready', (r) => [w(r).status?.readyReplicas ?? 0, w(r).spec?.replicas ?? 1]),
  numberColumn('updated', 'Up-to-date', (r) => w(r).status?.updatedReplicas ?? 0),
  {
    id: 'service',
    header: 'Service',
    width: 'minmax(7rem, 1fr)',
    value: (r) => w(r).spec?.serviceName ?? '',
  },
];
