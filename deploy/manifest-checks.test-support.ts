/**
 * Checks on rendered Kubernetes objects, for deploy/*.test.ts. Rules:
 * - Each check returns what is wrong, as sentences naming the object, and [] when nothing is: a
 *   test expects [] from the real render and something from a deliberately broken copy, so a
 *   check that cannot fail shows up as a failing test.
 * - Objects come from `kubectl kustomize`, already validated by kustomize's own parsing; the
 *   types below are the few fields the checks read, not a Kubernetes schema.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';

export type Labels = Record<string, string>;

export interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  runAsGroup?: number;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  privileged?: boolean;
  seccompProfile?: { type?: string };
  capabilities?: { drop?: string[]; add?: string[] };
}

export interface Probe {
  httpGet?: { path?: string; port?: number | string };
  exec?: { command?: string[] };
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
}

export interface Container {
  name: string;
  image?: string;
  args?: string[];
  env?: EnvVar[];
  ports?: { name?: string; containerPort: number; protocol?: string }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: SecurityContext;
  lifecycle?: { preStop?: { sleep?: { seconds: number } } };
}

export interface PodSpec {
  terminationGracePeriodSeconds?: number;
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  enableServiceLinks?: boolean;
  securityContext?: SecurityContext;
  topologySpreadConstraints?: {
    topologyKey: string;
    maxSkew: number;
    labelSelector?: { matchLabels?: Labels };
  }[];
  containers: Container[];
  initContainers?: Container[];
}

export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  nonResourceURLs?: string[];
  verbs: string[];
}

export interface NetworkPolicyPeer {
  podSelector?: { matchLabels?: Labels };
  namespaceSelector?: { matchLabels?: Labels };
  ipBlock?: { cidr: string };
}

export interface NetworkPolicyPort {
  port?: number | string;
  protocol?: string;
}

/** The spec fields the tests read, of every kind rendered; each kind has some of them. */
export interface Spec {
  // Deployment, StatefulSet
  replicas?: number;
  selector?: { matchLabels?: Labels } | Labels;
  template?: { metadata: { labels?: Labels }; spec: PodSpec };
  // PodDisruptionBudget
  minAvailable?: number | string;
  // NetworkPolicy
  podSelector?: { matchLabels?: Labels };
  policyTypes?: string[];
  ingress?: { from?: NetworkPolicyPeer[]; ports?: NetworkPolicyPort[] }[];
  egress?: { to?: NetworkPolicyPeer[]; ports?: NetworkPolicyPort[] }[];
  // Service
  ports?: { name?: string; port: number; targetPort?: number | string }[];
  // Ingress
  tls?: { hosts?: string[]; secretName?: string }[];
  rules?: {
    host?: string;
    http?: { paths: { backend: { service: { name: string; port: { name?: string; number?: number } } } }[] };
  }[];
}

/** One rendered object: the fields the checks read, each optional where kinds differ. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Labels; annotations?: Labels };
  spec?: Spec;
  rules?: PolicyRule[];
  roleRef?: { kind: string; name: string };
  subjects?: { kind: string; name: string; namespace?: string }[];
  data?: Record<string, string>;
}

export const DEPLOY_DIR = import.meta.dirname;
export const READ_VERBS = new Set(['get', 'list', 'watch']);
const run = promisify(execFile);

/** Why kubectl cannot render here, or null when it can. */
export function kubectlMissing(): string | null {
  const r = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  if (r.error) return `kubectl is not on the PATH (${(r.error as NodeJS.ErrnoException).code})`;
  if (r.status !== 0) return `kubectl version --client failed: ${r.stderr.trim()}`;
  return null;
}

/** `kubectl kustomize deploy/<dir>`, parsed: every object it renders. */
export async function render(dir: string): Promise<KubeObject[]> {
  const { stdout } = await run('kubectl', ['kustomize', join(DEPLOY_DIR, dir)], {
    maxBuffer: 16 * 1024 * 1024,
    timeout: 120_000,
  });
  return parseAllDocuments(stdout).map((d) => {
    if (d.errors.length > 0) throw new Error(`kubectl kustomize ${dir}: ${d.errors[0]!.message}`);
    return d.toJS() as KubeObject;
  });
}

export function find(objects: readonly KubeObject[], kind: string, name: string): KubeObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the render`);
  return found;
}

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicaSet']);

export function workloads(objects: readonly KubeObject[]): KubeObject[] {
  return objects.filter((o) => WORKLOAD_KINDS.has(o.kind));
}

export function podSpecOf(o: KubeObject): PodSpec {
  const pod = o.spec?.template?.spec;
  if (!pod) throw new Error(`${o.kind} ${o.metadata.name} has no pod template`);
  return pod;
}

export function podLabelsOf(o: KubeObject): Labels {
  return o.spec?.template?.metadata.labels ?? {};
}

/** Whether `selector` (matchLabels) selects pods labelled `labels`: non-empty and a subset. */
export function selects(selector: Labels | undefined, labels: Labels | undefined): boolean {
  const entries = Object.entries(selector ?? {});
  return entries.length > 0 && entries.every(([k, v]) => labels?.[k] === v);
}

/**
 * The `restricted` Pod Security Standard's container rules, with the container's own context
 * over the pod's where both say something, plus a read-only root filesystem and resources.
 */
export function containerProblems(owner: string, pod: PodSpec): string[] {
  const problems: string[] = [];
  for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
    const own = c.securityContext ?? {};
    const podCtx = pod.securityContext ?? {};
    const where = `${owner} container ${c.name}`;
    if ((own.runAsNonRoot ?? podCtx.runAsNonRoot) !== true)
      problems.push(`${where}: runAsNonRoot is not true`);
    const uid = own.runAsUser ?? podCtx.runAsUser;
    if (uid === 0) problems.push(`${where}: runs as uid 0`);
    if (own.readOnlyRootFilesystem !== true) problems.push(`${where}: root filesystem is writable`);
    if (own.allowPrivilegeEscalation !== false) problems.push(`${where}: privilege escalation not refused`);
    if (own.privileged === true) problems.push(`${where}: privileged`);
    const seccomp = own.seccompProfile?.type ?? podCtx.seccompProfile?.type;
    if (seccomp !== 'RuntimeDefault') problems.push(`${where}: seccomp is ${seccomp ?? 'unset'}`);
    if (!own.capabilities?.drop?.includes('ALL')) problems.push(`${where}: capabilities not all dropped`);
    if ((own.capabilities?.add ?? []).length > 0) problems.push(`${where}: adds capabilities`);
    for (const part of ['requests', 'limits'] as const) {
      const r = c.resources?.[part];
      if (!r?.memory || (part === 'requests' && !r.cpu)) problems.push(`${where}: no ${part}`);
    }
  }
  return problems;
}

/** A ClusterRole or Role that may only read: get/list/watch, no wildcard anywhere, no Secrets. */
export function readOnlyProblems(role: KubeObject, opts: { secrets: boolean }): string[] {
  const problems: string[] = [];
  const where = `${role.kind} ${role.metadata.name}`;
  if (!role.rules?.length) problems.push(`${where}: no rules`);
  for (const [i, rule] of (role.rules ?? []).entries()) {
    for (const v of rule.verbs)
      if (!READ_VERBS.has(v) && !isAccessReview(rule, v)) problems.push(`${where} rule ${i}: verb ${v}`);
    for (const field of [rule.apiGroups, rule.resources, rule.nonResourceURLs])
      if (field?.includes('*')) problems.push(`${where} rule ${i}: wildcard`);
    if (!opts.secrets && rule.apiGroups?.includes('') && rule.resources?.includes('secrets'))
      problems.push(`${where} rule ${i}: reads Secrets`);
  }
  return problems;
}

/**
 * `create` on SubjectAccessReviews alone (`--authorize rbac`): a review is computed and answered,
 * never stored, so it writes nothing. Any other resource or group in the rule is not this.
 */
export function isAccessReview(rule: { apiGroups?: string[]; resources?: string[] }, verb: string): boolean {
  return (
    verb === 'create' &&
    rule.apiGroups?.length === 1 &&
    rule.apiGroups[0] === 'authorization.k8s.io' &&
    rule.resources?.length === 1 &&
    rule.resources[0] === 'subjectaccessreviews'
  );
}

/** The verbs `role` grants on `resource` of `group`. */
export function verbsOn(role: KubeObject, group: string, resource: string): Set<string> {
  const verbs = new Set<string>();
  for (const rule of role.rules ?? []) {
    if (rule.apiGroups?.includes(group) && rule.resources?.includes(resource))
      for (const v of rule.verbs) verbs.add(v);
  }
  return verbs;
}
