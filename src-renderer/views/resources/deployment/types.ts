import type { Condition, LabelSelector, Meta } from '../../../kube/meta';
import type { PodTemplate } from '../pod/types';

export interface Deployment {
  metadata: Meta;
  spec?: {
    replicas?: number;
    selector?: LabelSelector;
    template?: PodTemplate;
    strategy?: {
      type?: string;
      rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string };
    };
    minReadySeconds?: number;
    progressDeadlineSeconds?: number;
    revisionHistoryLimit?: number;
  };
  status?: {
    replicas?: number;
    updatedReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    unavailableReplicas?: number;
    observedGeneration?: number;
    conditions?: Condition[];
  };
}
