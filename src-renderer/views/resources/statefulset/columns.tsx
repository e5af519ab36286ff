import { view } from '../../../kube/meta';
import { type KindColumn, numberColumn, type Row, ratioColumn } from '../columns';
import type { StatefulSet } from './types';

const w = (r: Row) => view<StatefulSet>(r.resource);

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
