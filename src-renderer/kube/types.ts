import type { KubeObject } from '../../src-shared/contract/models';

/**
 * Read-only views of the few fields the UI shows, all optional: the service passes manifests
 * through as the apiserver wrote them, so nothing here is guaranteed to exist.
 */

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastHeartbeatTime?: string;
  lastUpdateTime?: string;
}

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

export interface ResourceList {
  cpu?: string;
  memory?: string;
  [name: string]: string | undefined;
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

export type Meta = KubeObject['metadata'] & { deletionTimestamp?: string; generation?: number };

export interface Pod {
  metadata: Meta;
  spec?: PodSpec;
  status?: PodStatus;
}

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

export interface PodTemplate {
  metadata?: { labels?: Record<string, string> };
  spec?: PodSpec;
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

export interface Workload {
  metadata: Meta;
  spec?: {
    replicas?: number;
    selector?: LabelSelector;
    template?: PodTemplate;
    strategy?: {
      type?: string;
      rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string };
    };
    updateStrategy?: { type?: string; rollingUpdate?: Record<string, unknown> };
    minReadySeconds?: number;
    progressDeadlineSeconds?: number;
    revisionHistoryLimit?: number;
    serviceName?: string;
    podManagementPolicy?: string;
    // Job
    completions?: number;
    parallelism?: number;
    backoffLimit?: number;
    activeDeadlineSeconds?: number;
    suspend?: boolean;
    // CronJob
    schedule?: string;
    concurrencyPolicy?: string;
    startingDeadlineSeconds?: number;
    successfulJobsHistoryLimit?: number;
    failedJobsHistoryLimit?: number;
    jobTemplate?: { spec?: { template?: PodTemplate; backoffLimit?: number } };
    timeZone?: string;
  };
  status?: {
    replicas?: number;
    updatedReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    unavailableReplicas?: number;
    currentReplicas?: number;
    observedGeneration?: number;
    conditions?: Condition[];
    // DaemonSet
    desiredNumberScheduled?: number;
    currentNumberScheduled?: number;
    numberReady?: number;
    numberAvailable?: number;
    numberUnavailable?: number;
    numberMisscheduled?: number;
    updatedNumberScheduled?: number;
    // Job
    /** A Job counts running pods; a CronJob lists its running Jobs. */
    active?: number | Array<{ name: string; namespace?: string }>;
    succeeded?: number;
    failed?: number;
    startTime?: string;
    completionTime?: string;
    // CronJob
    lastScheduleTime?: string;
    lastSuccessfulTime?: string;
  };
}

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

export interface Namespace {
  metadata: Meta;
  status?: { phase?: string; conditions?: Condition[] };
}

/** Views a manifest through one of the shapes above; fields stay optional, so reading them is safe. */
export function view<T>(obj: KubeObject): T {
  return obj as unknown as T;
}
