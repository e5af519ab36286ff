import type { Meta } from '../../../kube/meta';
import type { PodTemplate } from '../pod/types';

export interface CronJob {
  metadata: Meta;
  spec?: {
    schedule?: string;
    timeZone?: string;
    suspend?: boolean;
    concurrencyPolicy?: string;
    startingDeadlineSeconds?: number;
    successfulJobsHistoryLimit?: number;
    failedJobsHistoryLimit?: number;
    jobTemplate?: { spec?: { template?: PodTemplate; backoffLimit?: number } };
  };
  status?: {
    /** The Jobs running now (a Job counts pods instead). */
    active?: Array<{ name: string; namespace?: string }>;
    lastScheduleTime?: string;
    lastSuccessfulTime?: string;
  };
}
