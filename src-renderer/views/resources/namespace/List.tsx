import { type Namespace, view } from '../../../kube/types';
import { badgeColumn, type KindColumn } from '../columns';

export const namespaceColumns: KindColumn[] = [
  badgeColumn(
    'status',
    'Status',
    '8rem',
    (r) => view<Namespace>(r.resource).status?.phase ?? 'Unknown',
    (v) => (v === 'Active' ? 'ok' : 'warn'),
  ),
];
