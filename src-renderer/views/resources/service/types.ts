import type { Meta } from '../../../kube/meta';

export interface Service {
  metadata: Meta;
  spec?: {
    type?: string;
    clusterIP?: string;
    clusterIPs?: string[];
    externalIPs?: string[];
    externalName?: string;
    selector?: Record<string, string>;
    sessionAffinity?: string;
    ports?: Array<{
      name?: string;
      port: number;
      targetPort?: number | string;
      nodePort?: number;
      protocol?: string;
    }>;
  };
  status?: { loadBalancer?: { ingress?: Array<{ ip?: string; hostname?: string }> } };
}
