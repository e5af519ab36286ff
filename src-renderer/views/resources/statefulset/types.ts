import type { Condition, LabelSelector, Meta } from '../../../kube/meta';
import type { PodTemplate } from '../pod/types';

export interface StatefulSet {
  metadata: Meta;
  spec?: {
    replicas?: number;
    selector?: LabelSelector;
    template?: PodTemplate;
    serviceName?: string;
    podManagementPolicy?: string;
    updateStrategy?: { type?: string; rollingUpdate?: Record<string, unknown> };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
  };
  status?: {
    replicas?: number;
    currentReplicas?: number;
    updatedReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    observedGeneration?: number;
    conditions?: Condition[];
  };
}
