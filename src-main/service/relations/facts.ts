/**
 * What relations read of one cached object, taken from its JSON text once and kept with the entry
 * (a WeakMap: an entry is immutable, a change is a new entry, and a dropped one takes its facts
 * with it). Lean on purpose: the cache keeps objects as text because parsed graphs are several
 * times bigger, so only the few fields relations need are kept, never the parsed object.
 *
 * Rules of the fields:
 * - `owners` are every ownerReference, the controller one marked;
 * - `uses` are the objects it names: a pod's and a workload template's references (pod-refs.ts),
 *   with the template's paths (`spec.template.spec…`, a CronJob's `spec.jobTemplate.spec.template.spec…`);
 *   a claim's volume and StorageClass; a volume's StorageClass and claim; an Ingress's TLS Secrets
 *   and IngressClass; a ServiceAccount's Secrets and image pull secrets;
 * - `podSelector` is the pods it selects in its namespace: a Service's `spec.selector` (absent or
 *   empty selects none, as the endpoints controller reads it), a PodDisruptionBudget's
 *   `spec.selector` (absent selects none, empty all), a NetworkPolicy's `spec.podSelector` (empty
 *   selects all); undefined when it selects none;
 * - `targets` are the objects it points at by kind: an HPA's scaleTargetRef, an Ingress's backend
 *   Services and resources.
 */

import type { Selector } from '../../../src-shared/kube/selector';
import type { ResourceEntry } from '../cache/entries';
import { groupOf, isObj, type Obj, objAt, objs, str, stringMap } from './json';
import {
  CLAIM,
  type GroupKind,
  INGRESS_CLASS,
  podSpecLinks,
  SECRET,
  STORAGE_CLASS,
  type UseLink,
  VOLUME,
} from './pod-refs';
import { labelSelector } from './selectors';
import { statusOf } from './status';

export interface OwnerLink extends GroupKind {
  readonly name: string;
  readonly uid: string;
  readonly controller: boolean;
}

/** An object pointed at by group, kind and name, in the pointing object's namespace. */
export interface TargetLink extends GroupKind {
  readonly name: string;
  readonly via: string;
}

/** Fields that may be absent are present and undefined: one shape for every object. */
export interface ObjectFacts extends GroupKind {
  readonly uid: string | undefined;
  readonly status: string | undefined;
  readonly owners: readonly OwnerLink[];
  readonly uses: readonly UseLink[];
  readonly podSelector?: Selector;
  readonly targets: readonly TargetLink[];
  /** A ConfigMap's or Secret's key names: what a keyed reference can find. */
  readonly keys?: readonly string[];
}

const NONE: readonly never[] = Object.freeze([]);
const memo = new WeakMap<ResourceEntry, ObjectFacts>();

/** The facts of a cached entry, read from its text the first time only. */
export function factsOf(entry: ResourceEntry): ObjectFacts {
  let facts = memo.get(entry);
  if (!facts) {
    facts = factsOfObject(parse(entry.json));
    memo.set(entry, facts);
  }
  return facts;
}

function parse(json: string): Obj {
  try {
    const v: unknown = JSON.parse(json);
    return isObj(v) ? v : {};
  } catch {
    return {};
  }
}

function owners(metadata: Obj | undefined): OwnerLink[] {
  const out: OwnerLink[] = [];
  for (const ref of objs(metadata?.ownerReferences)) {
    const kind = str(ref.kind);
    const name = str(ref.name);
    const uid = str(ref.uid);
    if (!kind || !name || !uid) continue;
    out.push({ group: groupOf(str(ref.apiVersion)), kind, name, uid, controller: ref.controller === true });
  }
  return out;
}

/** The facts of a parsed object. */
export function factsOfObject(obj: Obj): ObjectFacts {
  const metadata = objAt(obj, 'metadata');
  const group = groupOf(str(obj.apiVersion));
  const kind = str(obj.kind) ?? '';
  const ns = str(metadata?.namespace) ?? '';
  const spec = objAt(obj, 'spec');
  const base = {
    group,
    kind,
    uid: str(metadata?.uid),
    status: statusOf(group, kind, obj),
    owners: owners(metadata),
  };
  const gk = `${group}/${kind}`;
  const kindFacts = BY_KIND[gk]?.(obj, spec, ns) ?? {};
  return { uses: NONE, targets: NONE, ...base, ...kindFacts };
}

type KindFacts = Partial<Pick<ObjectFacts, 'uses' | 'podSelector' | 'targets' | 'keys'>>;

const template = (spec: Obj | undefined, ns: string, at = 'spec.template.spec'): KindFacts => {
  const podSpec = objAt(objAt(spec, 'template'), 'spec');
  return podSpec ? { uses: podSpecLinks(podSpec, ns, at) } : {};
};

const use = (
  target: GroupKind,
  namespace: string | undefined,
  name: string | undefined,
  via: string,
): UseLink[] => (name ? [{ target, namespace, name, via, optional: false, keys: undefined }] : []);

/**
 * A ConfigMap's keys are its data and binaryData; a Secret as the caches keep it has no values,
 * only `keys: [{name, bytes}]` (clusters/secrets-strip.ts).
 */
const dataKeys = (obj: Obj): KindFacts => {
  const keys = [
    ...Object.keys(objAt(obj, 'data') ?? {}),
    ...Object.keys(objAt(obj, 'binaryData') ?? {}),
    ...objs(obj.keys).flatMap((k) => str(k.name) ?? []),
  ];
  return { keys: [...new Set(keys)].sort() };
};

const BY_KIND: Readonly<Record<string, (obj: Obj, spec: Obj | undefined, ns: string) => KindFacts>> = {
  '/Pod': (obj, spec, ns) =>
    spec ? { uses: podSpecLinks(spec, ns, 'spec', str(objAt(obj, 'metadata')?.name)) } : {},
  'apps/Deployment': (_o, spec, ns) => template(spec, ns),
  'apps/ReplicaSet': (_o, spec, ns) => template(spec, ns),
  'apps/StatefulSet': (_o, spec, ns) => template(spec, ns),
  'apps/DaemonSet': (_o, spec, ns) => template(spec, ns),
  'batch/Job': (_o, spec, ns) => template(spec, ns),
  '/ReplicationController': (_o, spec, ns) => template(spec, ns),
  'batch/CronJob': (_o, spec, ns) =>
    template(objAt(spec, 'jobTemplate')?.spec as Obj | undefined, ns, 'spec.jobTemplate.spec.template.spec'),
  '/PersistentVolumeClaim': (_o, spec, _ns) => ({
    uses: [
      ...use(VOLUME, undefined, str(spec?.volumeName), 'spec.volumeName'),
      ...use(STORAGE_CLASS, undefined, str(spec?.storageClassName), 'spec.storageClassName'),
    ],
  }),
  '/PersistentVolume': (_o, spec) => {
    const claim = objAt(spec, 'claimRef');
    return {
      uses: [
        ...use(STORAGE_CLASS, undefined, str(spec?.storageClassName), 'spec.storageClassName'),
        ...use(CLAIM, str(claim?.namespace) ?? '', str(claim?.name), 'spec.claimRef'),
      ],
    };
  },
  '/ServiceAccount': (obj, _spec, ns) => ({
    uses: [
      ...objs(obj.secrets).flatMap((s) => use(SECRET, ns, str(s.name), 'secrets')),
      ...objs(obj.imagePullSecrets).flatMap((s) => use(SECRET, ns, str(s.name), 'imagePullSecrets')),
    ],
  }),
  '/Service': (_o, spec) => {
    const selector = stringMap(spec?.selector);
    return selector ? { podSelector: labelSelector({ matchLabels: selector }) } : {};
  },
  'policy/PodDisruptionBudget': (_o, spec) => {
    const selector = objAt(spec, 'selector');
    return selector ? { podSelector: labelSelector(selector) } : {};
  },
  'networking.k8s.io/NetworkPolicy': (_o, spec) => ({
    podSelector: labelSelector(objAt(spec, 'podSelector') ?? {}),
  }),
  'autoscaling/HorizontalPodAutoscaler': (_o, spec) => {
    const ref = objAt(spec, 'scaleTargetRef');
    if (!ref) return {};
    const kind = str(ref.kind);
    const name = str(ref.name);
    if (!kind || !name) return {};
    return { targets: [{ group: groupOf(str(ref.apiVersion)), kind, name, via: 'spec.scaleTargetRef' }] };
  },
  'networking.k8s.io/Ingress': (_o, spec, ns) => ({
    uses: [
      ...objs(spec?.tls).flatMap((t) => use(SECRET, ns, str(t.secretName), 'spec.tls')),
      ...use(INGRESS_CLASS, undefined, str(spec?.ingressClassName), 'spec.ingressClassName'),
    ],
    targets: ingressBackends(spec),
  }),
  '/ConfigMap': (obj) => dataKeys(obj),
  '/Secret': (obj) => dataKeys(obj),
};

function backendTarget(backend: Obj | undefined, via: string): TargetLink[] {
  const service = str(objAt(backend, 'service')?.name);
  if (service) return [{ group: '', kind: 'Service', name: service, via }];
  const resource = objAt(backend, 'resource');
  if (!resource) return [];
  const kind = str(resource.kind);
  const name = str(resource.name);
  if (!kind || !name) return [];
  return [{ group: str(resource.apiGroup) ?? '', kind, name, via }];
}

function ingressBackends(spec: Obj | undefined): TargetLink[] {
  const out = backendTarget(objAt(spec, 'defaultBackend'), 'spec.defaultBackend');
  for (const [r, rule] of objs(spec?.rules).entries()) {
    for (const path of objs(objAt(rule, 'http')?.paths)) {
      out.push(
        ...backendTarget(
          objAt(path, 'backend'),
          `spec.rules[${str(rule.host) ?? r}].http.paths[${str(path.path) ?? ''}]`,
        ),
      );
    }
  }
  return out;
}
