import type { Condition, Meta } from '../../../kube/meta';

export interface Namespace {
  metadata: Meta;
  status?: { phase?: string; conditions?: Condition[] };
}
