import type { GuidanceCheck, GuidanceRef } from './types';

/**
 * The objects an explanation can point at: those a pod's spec uses (ConfigMaps, Secrets and claims
 * from volumes, projected sources, env and envFrom) and those a controller's message names
 * (`configmap "app-config" not found`, `exceeded quota: compute-quota`). Pure and structural, so
 * the service and the renderer read plain JSON alike. Refs carry the canonical lower-case singular;
 * nothing here looks anything up, so none is marked missing.
 */

type KeyRef = { name?: string; optional?: boolean | null } | null | undefined;

// Structural subsets of core/v1: only the fields read here.
export type VolumeLike = {
  name: string;
  configMap?: KeyRef;
  secret?: { secretName?: string; optional?: boolean | null } | null;
  persistentVolumeClaim?: { claimName?: string } | null;
  projected?: { sources?: readonly { configMap?: KeyRef; secret?: KeyRef }[] | null } | null;
};

export type ContainerRefsLike = {
  name: string;
  env?:
    | readonly { name: string; valueFrom?: { configMapKeyRef?: KeyRef; secretKeyRef?: KeyRef } | null }[]
    | null;
  envFrom?: readonly { configMapRef?: KeyRef; secretRef?: KeyRef }[] | null;
};

export type PodSpecRefsLike = {
  volumes?: readonly VolumeLike[] | null;
  initContainers?: readonly ContainerRefsLike[] | null;
  containers?: readonly ContainerRefsLike[] | null;
};

export type UsedKind = 'ConfigMap' | 'Secret' | 'PersistentVolumeClaim';

/** One object a pod uses, and where it uses it (`volume "config"`, `env DB_PASSWORD of container app`). */
export type UsedObject = { kind: UsedKind; ref: GuidanceRef; via: string; optional: boolean };

/** The empty list absent fields stand for. */
const NONE: readonly never[] = Object.freeze([]);

const RESOURCE_TYPE: Record<UsedKind, string> = {
  ConfigMap: 'configmap',
  Secret: 'secret',
  PersistentVolumeClaim: 'persistentvolumeclaim',
};

/**
 * Every ConfigMap, Secret and claim the pod spec uses, in spec order: volumes, then each init
 * container's and container's env and envFrom. An object used several times is listed once, at
 * its first use; it is optional only if every use is.
 */
export function podUses(
  namespace: string | undefined,
  spec: PodSpecRefsLike | null | undefined,
): UsedObject[] {
  const found = new Map<string, UsedObject>();
  const use = (
    kind: UsedKind,
    r: KeyRef | { name?: string | undefined; optional?: boolean | null },
    via: string,
  ) => {
    if (!r?.name) return;
    const name = r.name;
    const key = `${kind}/${name}`;
    const optional = r.optional === true;
    const seen = found.get(key);
    if (seen) {
      if (!optional) seen.optional = false;
      return;
    }
    const ref: GuidanceRef = { resourceType: RESOURCE_TYPE[kind], name };
    if (namespace) ref.namespace = namespace;
    found.set(key, { kind, ref, via, optional });
  };
  for (const v of spec?.volumes ?? NONE) {
    const via = `volume "${v.name}"`;
    use('ConfigMap', v.configMap, via);
    if (v.secret) use('Secret', { name: v.secret.secretName, optional: v.secret.optional }, via);
    use('PersistentVolumeClaim', { name: v.persistentVolumeClaim?.claimName }, via);
    for (const s of v.projected?.sources ?? NONE) {
      use('ConfigMap', s.configMap, via);
      use('Secret', s.secret, via);
    }
  }
  for (const c of [...(spec?.initContainers ?? NONE), ...(spec?.containers ?? NONE)]) {
    for (const e of c.env ?? NONE) {
      const via = `env ${e.name} of container ${c.name}`;
      use('ConfigMap', e.valueFrom?.configMapKeyRef, via);
      use('Secret', e.valueFrom?.secretKeyRef, via);
    }
    for (const e of c.envFrom ?? NONE) {
      const via = `envFrom of container ${c.name}`;
      use('ConfigMap', e.configMapRef, via);
      use('Secret', e.secretRef, via);
    }
  }
  return [...found.values()];
}

// What a kubelet, controller or admission message calls a kind, singular or plural, with or
// without its group (`configmap "x"`, `storageclass.storage.k8s.io "x"`, `serviceaccounts "x"`).
const NAMED: readonly { test: RegExp; kind: string; resourceType: string; namespaced: boolean }[] = [
  {
    test: /\bconfigmaps? "([^"]+)" not found/gi,
    kind: 'ConfigMap',
    resourceType: 'configmap',
    namespaced: true,
  },
  { test: /\bsecrets? "([^"]+)" not found/gi, kind: 'Secret', resourceType: 'secret', namespaced: true },
  {
    test: /\bpersistentvolumeclaims? "([^"]+)" not found/gi,
    kind: 'PersistentVolumeClaim',
    resourceType: 'persistentvolumeclaim',
    namespaced: true,
  },
  {
    test: /\bserviceaccounts? "([^"]+)" not found/gi,
    kind: 'ServiceAccount',
    resourceType: 'serviceaccount',
    namespaced: true,
  },
  { test: /\bservices? "([^"]+)" not found/gi, kind: 'Service', resourceType: 'service', namespaced: true },
  {
    test: /\bstorageclass(?:es)?(?:\.storage\.k8s\.io)? "([^"]+)" not found/gi,
    kind: 'StorageClass',
    resourceType: 'storageclass',
    namespaced: false,
  },
  {
    test: /\bexceeded quota: ([a-z0-9](?:[-a-z0-9.]*[a-z0-9])?)/gi,
    kind: 'ResourceQuota',
    resourceType: 'resourcequota',
    namespaced: true,
  },
];

/** An object a message names, with its kind as people write it. */
export type NamedObject = { kind: string; ref: GuidanceRef };

/**
 * The objects a message names, in the order it names them, each once. Names found in a namespaced
 * object's message live in that object's namespace (kubelet and controllers only name objects there).
 */
export function refsInMessage(message: string, namespace: string | undefined): NamedObject[] {
  const hits: { at: number; named: NamedObject }[] = [];
  for (const rule of NAMED) {
    for (const m of message.matchAll(rule.test)) {
      const ref: GuidanceRef = { resourceType: rule.resourceType, name: m[1] as string };
      if (rule.namespaced && namespace) ref.namespace = namespace;
      hits.push({ at: m.index, named: { kind: rule.kind, ref } });
    }
  }
  hits.sort((a, b) => a.at - b.at);
  return unique(hits.map((h) => h.named));
}

/** One string per object, for de-duplicating refs and caching their look-ups. */
export function refKey(ref: GuidanceRef): string {
  return `${ref.resourceType}/${ref.namespace ?? ''}/${ref.name}`;
}

function unique<T extends { ref: GuidanceRef }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const key = refKey(i.ref);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A check step for each object a message names. */
export function messageChecks(message: string | undefined, namespace: string | undefined): GuidanceCheck[] {
  return refsInMessage(message ?? '', namespace).map(({ kind, ref }) => ({
    text: `${kind} ${ref.name} is named in the message.`,
    ref,
  }));
}

/** A check step for each object the pod needs (optional ones cannot hold it up, so they are left out). */
export function usedObjectChecks(uses: readonly UsedObject[]): GuidanceCheck[] {
  return uses
    .filter((u) => !u.optional)
    .map((u) => ({ text: `${u.kind} ${u.ref.name}, used by ${u.via}.`, ref: u.ref }));
}

/** Steps from several sources, each object once (the first step that names it wins). */
export function mergeChecks(...lists: readonly GuidanceCheck[][]): GuidanceCheck[] {
  const withRef = lists.flat();
  const seen = new Set<string>();
  return withRef.filter((c) => {
    if (!c.ref) return true;
    const key = refKey(c.ref);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The API group of an apiVersion: "" for the core group's `v1`. */
export function groupOf(apiVersion: string | undefined): string {
  if (!apiVersion?.includes('/')) return '';
  return apiVersion.slice(0, apiVersion.indexOf('/'));
}

/** Kubernetes' own groups (the core group, a dotless group such as `apps`, or `*.k8s.io`) serve no singular twice. */
export function isOwnGroup(group: string): boolean {
  return !group.includes('.') || group.endsWith('.k8s.io');
}

/**
 * The ref of an object named by apiVersion and kind (an owner, a scale target). A kind of
 * Kubernetes' own groups goes by the bare singular; any other group's kind is qualified with its
 * group (`rollout.argoproj.io`), which names it whatever else the cluster serves.
 */
export function refOf(
  apiVersion: string | undefined,
  kind: string,
  name: string,
  namespace?: string,
): GuidanceRef {
  const group = groupOf(apiVersion);
  const singular = kind.toLowerCase();
  const ref: GuidanceRef = { resourceType: isOwnGroup(group) ? singular : `${singular}.${group}`, name };
  if (namespace) ref.namespace = namespace;
  return ref;
}
