import type { Condition, Meta, ResourceList } from '../../../kube/meta';

/** A pod as the views read it; workloads reuse PodTemplate and PodSpec for their template. */

export interface ContainerState {
  running?: { startedAt?: string } | null;
  waiting?: { reason?: string; message?: string } | null;
  terminated?: {
    exitCode: number;
    signal?: number;
    reason?: string;
    message?: string;
    startedAt?: string;
    finishedAt?: string;
  } | null;
}

export interface ContainerStatus {
  name: string;
  ready?: boolean;
  started?: boolean;
  restartCount?: number;
  image?: string;
  imageID?: string;
  state?: ContainerState;
  lastState?: ContainerState;
}

export interface Probe {
  httpGet?: { path?: string; port?: number | string; scheme?: string };
  tcpSocket?: { port?: number | string };
  exec?: { command?: string[] };
  grpc?: { port?: number };
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  failureThreshold?: number;
  successThreshold?: number;
}

export interface Container {
  name: string;
  image?: string;
  imagePullPolicy?: string;
  command?: string[];
  args?: string[];
  ports?: Array<{ name?: string; containerPort: number; protocol?: string; hostPort?: number }>;
  env?: Array<{ name: string; value?: string; valueFrom?: Record<string, unknown> }>;
  envFrom?: Array<Record<string, unknown>>;
  resources?: { requests?: ResourceList; limits?: ResourceList };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean; subPath?: string }>;
  securityContext?: Record<string, unknown>;
  lifecycle?: Record<string, unknown>;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface PodSpec {
  nodeName?: string;
  containers?: Container[];
  initContainers?: Container[];
  volumes?: Array<{ name: string; [source: string]: unknown }>;
  imagePullSecrets?: Array<{ name: string }>;
  serviceAccountName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: Record<string, unknown>;
  tolerations?: Toleration[];
  restartPolicy?: string;
  priorityClassName?: string;
  schedulingGates?: Array<{ name: string }>;
  topologySpreadConstraints?: Array<Record<string, unknown>>;
  securityContext?: Record<string, unknown>;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
}

export interface PodStatus {
  phase?: string;
  reason?: string;
  message?: string;
  hostIP?: string;
  podIP?: string;
  qosClass?: string;
  startTime?: string;
  conditions?: Condition[];
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
}

export interface Pod {
  metadata: Meta;
  spec?: PodSpec;
  status?: PodStatus;
}

export interface PodTemplate {
  metadata?: { labels?: Record<string, string> };
  spec?: PodSpec;
}
