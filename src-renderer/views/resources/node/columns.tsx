import { formatQuantity, parseQuantity } from '../../../kube/format';
import { view } from '../../../kube/meta';
import { badgeColumn, type KindColumn, type Row } from '../columns';
import { nodeRoles, nodeStatus, nodeTone } from './status';
import type { Node } from './types';

const node = (r: Row) => view<Node>(r.resource);

export const nodeColumns: KindColumn[] = [
  badgeColumn('status', 'Status', 'minmax(7rem, 1.2fr)', (r) => nodeStatus(node(r)), nodeTone),
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
