/** The generator's description of a pod: a shared template plus what the kubelet reports. */

import type { Labels, OwnerReference } from '../types';
import type { NodeInfo } from './context';
import type { LogProfileId } from './log-profiles';

export interface ContainerTemplate {
  name: string;
  image: string;
  log: LogProfileId;
  ports?: { name?: string; containerPort: number; protocol?: 'TCP' | 'UDP' }[];
  requests?: Record<string, string>;
  limits?: Record<string, string>;
  readiness?: { path: string; port: number };
  liveness?: { path: string; port: number };
  env?: Record<string, unknown>[];
  args?: string[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}

export interface PodTemplate {
  /** Unique per template. */
  id: string;
  /** Templates with the same field structure share managedFields tries (defaults to id). */
  shape?: string;
  labels: Labels;
  containers: ContainerTemplate[];
  initContainers?: ContainerTemplate[];
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  nodeSelector?: Record<string, string>;
  serviceAccountName?: string;
  volumes?: Record<string, unknown>[];
  tolerateEverything?: boolean;
  priorityClassName?: string;
}

export interface LastExit {
  exitCode: number;
  reason: string;
  /** When the current instance started (the previous one died just before). */
  agoMs: number;
}

export type PodState =
  | { kind: 'running'; restarts?: number; lastExit?: LastExit; ready?: boolean; startedAgoMs?: number }
  | { kind: 'unschedulable'; message: string }
  | { kind: 'errimagepull'; message: string }
  | { kind: 'imagepullbackoff'; message: string }
  | { kind: 'crashloop'; restarts: number; exitCode: number; lastFinishedAgoMs: number }
  | { kind: 'containercreating' }
  | { kind: 'configerror'; message: string }
  | { kind: 'succeeded'; durationMs: number }
  | { kind: 'failed'; exitCode: number; durationMs: number }
  | { kind: 'node-lost' };

export interface PodPlan {
  namespace: string;
  name: string;
  generateName?: string;
  template: PodTemplate;
  labels?: Labels;
  owner?: OwnerReference;
  node: NodeInfo | undefined;
  state: PodState;
  createdAgoMs: number;
  hostname?: string;
  subdomain?: string;
  /** Per-pod spec additions (DaemonSet pods pin themselves to a node with affinity). */
  extraSpec?: Record<string, unknown>;
  annotations?: Record<string, string>;
}
