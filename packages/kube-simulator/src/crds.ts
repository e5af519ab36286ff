/**
 * CustomResourceDefinitions as the apiserver's apiextensions controllers treat them: a valid CRD
 * serves one kind per served version (preferred first, in Kubernetes' version priority), and gets
 * the status those controllers write (accepted names, NamesAccepted and Established). Only the
 * checks a client would meet on a create are made; schemas are not validated.
 */

import { FULL_VERBS, type ResourceDef, type SubresourceDef } from './resources';
import type { KubeObject } from './types';

export const CRD_GROUP = 'apiextensions.k8s.io';
export const CRD_KIND = 'CustomResourceDefinition';

interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  subresources?: { status?: unknown; scale?: unknown };
}

interface CrdNames {
  plural: string;
  singular?: string;
  kind: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

interface CrdSpec {
  group: string;
  names: CrdNames;
  scope: 'Namespaced' | 'Cluster';
  versions: CrdVersion[];
}

const DNS_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/** A CRD's spec when it is one the apiserver would accept, else the field and what is wrong. */
export function crdSpec(
  crd: KubeObject,
): { ok: true; spec: CrdSpec } | { ok: false; field: string; message: string } {
  const spec = crd.spec as Partial<CrdSpec> | undefined;
  const fail = (field: string, message: string) => ({ ok: false as const, field, message });
  if (typeof spec?.group !== 'string' || !spec.group.includes('.'))
    return fail('spec.group', 'should be a domain with at least one dot');
  const names = spec.names;
  if (typeof names?.plural !== 'string' || !DNS_LABEL.test(names.plural))
    return fail('spec.names.plural', 'Required value');
  if (typeof names.kind !== 'string' || names.kind === '') return fail('spec.names.kind', 'Required value');
  if (crd.metadata.name !== `${names.plural}.${spec.group}`) {
    return fail('metadata.name', `must be spec.names.plural+"."+spec.group`);
  }
  if (spec.scope !== 'Namespaced' && spec.scope !== 'Cluster') {
    return fail('spec.scope', 'Unsupported value: supported values: "Cluster", "Namespaced"');
  }
  const versions = spec.versions;
  if (!Array.isArray(versions) || versions.length === 0)
    return fail('spec.versions', 'must have exactly one version marked as storage version');
  if (versions.filter((v) => v?.storage === true).length !== 1) {
    return fail('spec.versions', 'must have exactly one version marked as storage version');
  }
  if (!versions.every((v) => typeof v?.name === 'string' && DNS_LABEL.test(v.name))) {
    return fail('spec.versions[].name', 'must be a DNS-1035 label');
  }
  return { ok: true, spec: spec as CrdSpec };
}

/** Kubernetes' version priority: GA before beta before alpha, higher numbers first, then by name. */
function compareVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number] | undefined => {
    const m = VERSION.exec(v);
    if (!m) return undefined;
    const stage = m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1;
    return [stage, Number(m[1]), Number(m[3] ?? 0)];
  };
  const ra = rank(a);
  const rb = rank(b);
  if (ra && rb) return rb[0] - ra[0] || rb[1] - ra[1] || rb[2] - ra[2];
  if (ra) return -1;
  if (rb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const SCALE: SubresourceDef = {
  name: 'scale',
  verbs: ['get', 'patch', 'update'],
  responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
};
const STATUS: SubresourceDef = { name: 'status', verbs: ['get', 'patch', 'update'] };

/** The kinds a valid CRD serves, one per served version, preferred first. */
export function crdDefs(crd: KubeObject): ResourceDef[] {
  const checked = crdSpec(crd);
  if (!checked.ok) return [];
  const { group, names, scope, versions } = checked.spec;
  return versions
    .filter((v) => v.served)
    .sort((a, b) => compareVersions(a.name, b.name))
    .map((v) => {
      const subresources = [
        ...(v.subresources?.scale ? [SCALE] : []),
        ...(v.subresources?.status ? [STATUS] : []),
      ];
      return {
        resource: names.plural,
        singular: names.singular || names.kind.toLowerCase(),
        kind: names.kind,
        listKind: names.listKind || `${names.kind}List`,
        group,
        version: v.name,
        namespaced: scope === 'Namespaced',
        verbs: FULL_VERBS,
        ...(names.shortNames?.length ? { shortNames: names.shortNames } : {}),
        ...(names.categories?.length ? { categories: names.categories } : {}),
        ...(subresources.length > 0 ? { subresources } : {}),
        fieldLabels: [],
        key: crd.metadata.name,
      };
    });
}

/** The status the apiextensions controllers give a CRD they accepted; kept when it has one. */
export function established(crd: KubeObject, time: string): KubeObject {
  const current = crd.status as { conditions?: unknown[] } | undefined;
  const checked = crdSpec(crd);
  if (current?.conditions?.length || !checked.ok) return crd;
  const { names, versions } = checked.spec;
  const condition = (type: string, reason: string, message: string) => ({
    type,
    status: 'True',
    lastTransitionTime: time,
    reason,
    message,
  });
  return {
    ...crd,
    status: {
      conditions: [
        condition('NamesAccepted', 'NoConflicts', 'no conflicts found'),
        condition('Established', 'InitialNamesAccepted', 'the initial names have been accepted'),
      ],
      acceptedNames: {
        plural: names.plural,
        singular: names.singular || names.kind.toLowerCase(),
        kind: names.kind,
        listKind: names.listKind || `${names.kind}List`,
        ...(names.shortNames?.length ? { shortNames: names.shortNames } : {}),
        ...(names.categories?.length ? { categories: names.categories } : {}),
      },
      storedVersions: versions.filter((v) => v.storage).map((v) => v.name),
    },
  };
}
