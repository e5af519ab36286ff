import { view } from '../../../kube/meta';
import { type KindColumn, numberColumn, type Row, ratioColumn } from '../columns';
import type { DaemonSet } from './types';

const w = (r: Row) => view<DaemonSet>(r.resource);

export const daemonsetColumns: KindColumn[] = [
  numberColumn('desired', 'Desired', (r) => w(r).status?.desiredNumberScheduled ?? 0),
  numberColumn('current', 'Current', (r) => w(r).status?.currentNumberScheduled ?? 0),
  ratioColumn('ready', 'Ready', (r) => [
    w(r).status?.numberReady ?? 0,
    w(r).status?.desiredNumberScheduled ?? 0,
  ]),
  numberColumn('updated', 'Up-to-date', (r) => w(r).status?.updatedNumberScheduled ?? 0),
  numberColumn('available', 'Available', (r) => w(r).status?.numberAvailable ?? 0),
];
