import { view } from '../../../kube/meta';
import { badgeColumn, type KindColumn } from '../columns';
import { namespacePhase, namespaceTone } from './status';
import type { Namespace } from './types';

export const namespaceColumns: KindColumn[] = [
  badgeColumn('status', 'Status', '8rem', (r) => namespacePhase(view<Namespace>(r.resource)), namespaceTone),
];
