import type { Condition, Meta, ResourceList } from '../../../kube/meta';

export interface Node {
  metadata: Meta;
  spec?: {
    unschedulable?: boolean;
    taints?: Array<{ key: string; value?: string; effect: string }>;
    podCIDR?: string;
    providerID?: string;
  };
  status?: {
    capacity?: ResourceList;
    allocatable?: ResourceList;
    conditions?: Condition[];
    addresses?: Array<{ type: string; address: string }>;
    nodeInfo?: {
      osImage?: string;
      kernelVersion?: string;
      containerRuntimeVersion?: string;
      kubeletVersion?: string;
      operatingSystem?: string;
      architecture?: string;
      machineID?: string;
      bootID?: string;
    };
  };
}
