import type { Condition, LabelSelector, Meta } from '../../../kube/meta';
import type { PodTemplate } from '../pod/types';

export interface DaemonSet {
  metadata: Meta;
  spec?: {
    selector?: LabelSelector;
    template?: PodTemplate;
    updateStrategy?: { type?: string; rollingUpdate?: Record<string, unknown> };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
  };
  status?: {
    desiredNumberScheduled?: number;
    currentNumberScheduled?: number;
    numberReady?: number;
    numberAvailable?: number;
    numberUnavailable?: number;
    numberMisscheduled?: number;
    updatedNumberScheduled?: number;
    observedGeneration?: number;
    conditions?: Condition[];
  };
}
