/**
 * Structural types for the objects the simulator stores. They describe the JSON the apiserver
 * returns (timestamps are strings), which is why the client-node model classes are not used.
 * Only the fields the simulator itself reads are typed; everything else rides along untyped.
 */

export type Labels = Record<string, string>;

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Update' | 'Apply';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: FieldsV1;
  subresource?: string;
}

export interface FieldsV1 {
  [key: string]: FieldsV1;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  generateName?: string;
  uid: string;
  resourceVersion: string;
  generation?: number;
  creationTimestamp: string;
  deletionTimestamp?: string;
  labels?: Labels;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

/** What callers hand to the store: identity fields the store can fill in are optional. */
export interface KubeObjectInput {
  apiVersion: string;
  kind: string;
  metadata: Omit<ObjectMeta, 'uid' | 'resourceVersion' | 'creationTimestamp'> &
    Partial<Pick<ObjectMeta, 'uid' | 'resourceVersion' | 'creationTimestamp'>>;
  [key: string]: unknown;
}

interface ContainerStateWaiting {
  reason?: string;
  message?: string;
}
interface ContainerStateRunning {
  startedAt?: string;
}
export interface ContainerStateTerminated {
  exitCode: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  containerID?: string;
  signal?: number;
}
export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
  name: string;
  image: string;
  imageID: string;
  containerID?: string;
  ready: boolean;
  started?: boolean;
  restartCount: number;
  state: ContainerState;
  lastState: ContainerState;
  [key: string]: unknown;
}

export interface Container {
  name: string;
  image: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  [key: string]: unknown;
}

export interface PodSpec {
  nodeName?: string;
  containers: Container[];
  initContainers?: Container[];
  restartPolicy?: string;
  [key: string]: unknown;
}

export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastProbeTime: string | null;
  lastTransitionTime: string;
}

export interface PodStatus {
  phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
  conditions?: PodCondition[];
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
  [key: string]: unknown;
}

export interface Pod extends KubeObject {
  spec: PodSpec;
  status: PodStatus;
}

export interface ObjectReference {
  kind: string;
  namespace?: string;
  name: string;
  uid: string;
  apiVersion: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface CoreEvent extends KubeObject {
  involvedObject: ObjectReference;
  reason: string;
  message: string;
  source: { component?: string; host?: string };
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  count?: number;
  type: 'Normal' | 'Warning';
  eventTime: string | null;
  series?: { count: number; lastObservedTime: string };
  action?: string;
  reportingComponent: string;
  reportingInstance: string;
}

export function isPod(obj: KubeObject): obj is Pod {
  return obj.kind === 'Pod';
}
