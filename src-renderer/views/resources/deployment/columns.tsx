import { view } from '../../../kube/meta';
import { type KindColumn, numberColumn, type Row, ratioColumn } from '../columns';
import type { Deployment } from './types';

const w = (r: Row) => view<Deployment>(r.resource);

export const deploymentColumns: KindColumn[] = [
  ratioColumn('ready', 'Ready', (r) => [w(r).status?.readyReplicas ?? 0, w(r).spec?.replicas ?? 1]),
  numberColumn('updated', 'Up-to-date', (r) => w(r).status?.updatedReplicas ?? 0),
  numberColumn('available', 'Available', (r) => w(r).status?.availableReplicas ?? 0),
  {
    id: 'strategy',
    header: 'Strategy',
    width: '8rem',
    value: (r) => w(r).spec?.strategy?.type ?? 'RollingUpdate',
  },
];
