/**
 * What a pod spec names, as the kubelet and the admission chain read it: the ConfigMaps, Secrets
 * and claims of its volumes (projected sources and ephemeral claims included), of `env` and
 * `envFrom` in every container (init and ephemeral ones too), its ServiceAccount, Node,
 * PriorityClass and image pull secrets. Pure: a spec in, references out, each with the field path
 * that names it (`via`), whether every such reference is optional, and the keys it reads. The
 * input is cluster data: anything of an unexpected shape is skipped, never thrown on.
 */

import { type Obj, objAt, objs, str } from './json';

/** A kind by API group and Kind, as owner references and discovery name it. */
export interface GroupKind {
  readonly group: string;
  readonly kind: string;
}

export const CONFIG_MAP: GroupKind = { group: '', kind: 'ConfigMap' };
export const SECRET: GroupKind = { group: '', kind: 'Secret' };
export const CLAIM: GroupKind = { group: '', kind: 'PersistentVolumeClaim' };
export const VOLUME: GroupKind = { group: '', kind: 'PersistentVolume' };
export const SERVICE_ACCOUNT: GroupKind = { group: '', kind: 'ServiceAccount' };
export const NODE: GroupKind = { group: '', kind: 'Node' };
export const PRIORITY_CLASS: GroupKind = { group: 'scheduling.k8s.io', kind: 'PriorityClass' };
export const STORAGE_CLASS: GroupKind = { group: 'storage.k8s.io', kind: 'StorageClass' };
export const INGRESS_CLASS: GroupKind = { group: 'networking.k8s.io', kind: 'IngressClass' };

/** One object another names. `namespace` is undefined for a cluster-scoped kind. */
export interface UseLink {
  readonly target: GroupKind;
  readonly namespace: string | undefined;
  readonly name: string;
  /** The field that names it, e.g. `spec.volumes[config]` or `spec.containers[app].envFrom`. */
  readonly via: string;
  /** The reference says `optional: true`: the pod starts without the object. */
  readonly optional: boolean;
  /** The keys it reads (configMapKeyRef, secretKeyRef, a volume's items); undefined when none. */
  readonly keys: readonly string[] | undefined;
}

const bool = (v: unknown): boolean => v === true;

/** The keys a volume source's `items` project. */
function itemKeys(source: Obj): string[] | undefined {
  const keys = objs(source.items)
    .map((i) => str(i.key))
    .filter((k): k is string => k !== undefined);
  return keys.length ? keys : undefined;
}

function link(
  target: GroupKind,
  namespace: string | undefined,
  name: string | undefined,
  via: string,
  optional = false,
  keys?: readonly string[],
): UseLink[] {
  if (!name) return [];
  return [{ target, namespace, name, via, optional, keys }];
}

function volumeLinks(vol: Obj, ns: string, podName: string | undefined, at: string): UseLink[] {
  const out: UseLink[] = [];
  const cm = objAt(vol, 'configMap');
  if (cm) out.push(...link(CONFIG_MAP, ns, str(cm.name), at, bool(cm.optional), itemKeys(cm)));
  const secret = objAt(vol, 'secret');
  if (secret)
    out.push(...link(SECRET, ns, str(secret.secretName), at, bool(secret.optional), itemKeys(secret)));
  const claim = objAt(vol, 'persistentVolumeClaim');
  if (claim) out.push(...link(CLAIM, ns, str(claim.claimName), at));
  // A generic ephemeral volume's claim is named <pod>-<volume> (a template has no pod name yet).
  if (objAt(vol, 'ephemeral') && podName && str(vol.name))
    out.push(...link(CLAIM, ns, `${podName}-${str(vol.name)}`, at));
  for (const p of objs(objAt(vol, 'projected')?.sources)) {
    const pcm = objAt(p, 'configMap');
    if (pcm) out.push(...link(CONFIG_MAP, ns, str(pcm.name), at, bool(pcm.optional), itemKeys(pcm)));
    const ps = objAt(p, 'secret');
    if (ps) out.push(...link(SECRET, ns, str(ps.name), at, bool(ps.optional), itemKeys(ps)));
  }
  // Volume plugins that read their credentials from a Secret of the pod's namespace.
  const csiSecret = objAt(objAt(vol, 'csi'), 'nodePublishSecretRef');
  if (csiSecret) out.push(...link(SECRET, ns, str(csiSecret.name), at));
  for (const plugin of ['cephfs', 'rbd', 'iscsi', 'flexVolume', 'scaleIO', 'storageos'])
    out.push(...link(SECRET, ns, str(objAt(objAt(vol, plugin), 'secretRef')?.name), at));
  out.push(...link(SECRET, ns, str(objAt(vol, 'azureFile')?.secretName), at));
  return out;
}

function containerLinks(c: Obj, ns: string, at: string): UseLink[] {
  const out: UseLink[] = [];
  for (const from of objs(c.envFrom)) {
    const cm = objAt(from, 'configMapRef');
    if (cm) out.push(...link(CONFIG_MAP, ns, str(cm.name), `${at}.envFrom`, bool(cm.optional)));
    const secret = objAt(from, 'secretRef');
    if (secret) out.push(...link(SECRET, ns, str(secret.name), `${at}.envFrom`, bool(secret.optional)));
  }
  for (const env of objs(c.env)) {
    const valueFrom = objAt(env, 'valueFrom');
    const via = `${at}.env[${str(env.name) ?? ''}]`;
    const cm = objAt(valueFrom, 'configMapKeyRef');
    if (cm) out.push(...link(CONFIG_MAP, ns, str(cm.name), via, bool(cm.optional), keyOf(cm)));
    const secret = objAt(valueFrom, 'secretKeyRef');
    if (secret) out.push(...link(SECRET, ns, str(secret.name), via, bool(secret.optional), keyOf(secret)));
  }
  return out;
}

const keyOf = (ref: Obj): string[] | undefined => {
  const key = str(ref.key);
  return key ? [key] : undefined;
};

/**
 * The references of a pod spec found at `at` (`spec` for a pod, `spec.template.spec` for a
 * workload), in the namespace `ns`. `podName` is the pod's own name (ephemeral claims); absent
 * for a template. An unset serviceAccountName is the namespace's `default`, as admission sets it.
 */
export function podSpecLinks(spec: Obj, ns: string, at: string, podName?: string): UseLink[] {
  const out: UseLink[] = [];
  for (const vol of objs(spec.volumes))
    out.push(...volumeLinks(vol, ns, podName, `${at}.volumes[${str(vol.name) ?? ''}]`));
  for (const field of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of objs(spec[field]))
      out.push(...containerLinks(c, ns, `${at}.${field}[${str(c.name) ?? ''}]`));
  }
  const sa = str(spec.serviceAccountName) ?? str(spec.serviceAccount) ?? 'default';
  out.push(...link(SERVICE_ACCOUNT, ns, sa, `${at}.serviceAccountName`));
  out.push(...link(NODE, undefined, str(spec.nodeName), `${at}.nodeName`));
  out.push(...link(PRIORITY_CLASS, undefined, str(spec.priorityClassName), `${at}.priorityClassName`));
  for (const s of objs(spec.imagePullSecrets))
    out.push(...link(SECRET, ns, str(s.name), `${at}.imagePullSecrets`));
  return out;
}
