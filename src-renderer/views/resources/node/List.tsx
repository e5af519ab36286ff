import { formatQuantity, parseQuantity } from '../../../kube/format';
import { type Node, view } from '../../../kube/types';
import { badgeColumn, type KindColumn, type Row } from '../columns';

const node = (r: Row) => view<Node>(r.resource);

export function nodeStatus(n: Node): string {
  const ready = n.status?.conditions?.find((c) => c.type === 'Ready');
  const base = ready?.status === 'True' ? 'Ready' : ready?.status === 'False' ? 'NotReady' : 'Unknown';
  return n.spec?.unschedulable ? `${base},SchedulingDisabled` : base;
}

export function nodeRoles(n: Node): string {
  const roles = Object.keys(n.metadata.labels ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length));
  return roles.length ? roles.join(',') : '<none>';
}

export const nodeColumns: KindColumn[] = [
  badgeColumn(
    'status',
    'Status',
    'minmax(7rem, 1.2fr)',
    (r) => nodeStatus(node(r)),
    (v) => (v === 'Ready' ? 'ok' : v.startsWith('Ready') ? 'warn' : 'bad'),
  ),
  { id: 'roles', header: 'Roles', width: 'minmax(6rem, 1fr)', value: (r) => nodeRoles(node(r)) },
  {
    id: 'version',
    header: 'Version',
    width: '7rem',
    value: (r) => node(r).status?.nodeInfo?.kubeletVersion ?? '',
  },
  {
    id: 'cpu',
    header: 'CPU (alloc.)',
    width: '7rem',
    align: 'end',
    value: (r) => parseQuantity(node(r).status?.allocatable?.cpu) || 0,
    render: (r) => formatQuantity('cpu', node(r).status?.allocatable?.cpu),
  },
  {
    id: 'memory',
    header: 'Memory (alloc.)',
    width: '8rem',
    align: 'end',
    value: (r) => parseQuantity(node(r).status?.allocatable?.memory) || 0,
    render: (r) => formatQuantity('memory', node(r).status?.allocatable?.memory),
  },
];
