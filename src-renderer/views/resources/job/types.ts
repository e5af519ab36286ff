import type { Condition, LabelSelector, Meta } from '../../../kube/meta';
import type { PodTemplate } from '../pod/types';

export interface Job {
  metadata: Meta;
  spec?: {
    selector?: LabelSelector;
    template?: PodTemplate;
    completions?: number;
    parallelism?: number;
    backoffLimit?: number;
    activeDeadlineSeconds?: number;
    suspend?: boolean;
  };
  status?: {
    /** Pods running now. */
    active?: number;
    succeeded?: number;
    failed?: number;
    startTime?: string;
    completionTime?: string;
    conditions?: Condition[];
  };
}
