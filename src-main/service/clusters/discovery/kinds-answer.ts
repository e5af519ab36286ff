/**
 * The rows of `GET …/kinds`: each discovered kind with its printer columns when a CRD defines it.
 * A snapshot cluster has no discovery yet (its file holds the tailored kinds only): it answers
 * those, from the kinds table, with the verbs a read-only snapshot serves (get, list, watch) and
 * the categories the apiserver gives them (`all` for the namespaced ones). Both are ordered by
 * resourceType.
 */

import type { ServedKind } from '../../../../src-shared/contract/kinds-operations';
import { RESOURCE_KINDS, RESOURCE_TYPES } from '../../../../src-shared/kube/kinds';
import type { DiscoveryView } from './cluster-discovery';
import { columnsOf, crdIndex } from './crds';
import { compareText } from './names';

export function kindRows(view: DiscoveryView): ServedKind[] {
  const crds = crdIndex(view.crds);
  return view.kinds.map((k) => {
    const columns = columnsOf(crds, k.group, k.resource, k.version);
    return {
      resourceType: k.resourceType,
      plural: k.resource,
      kind: k.kind,
      group: k.group,
      version: k.version,
      namespaced: k.namespaced,
      shortNames: [...k.shortNames],
      categories: [...k.categories],
      verbs: [...k.verbs],
      ...(columns ? { columns: [...columns] } : {}),
    };
  });
}

export const SNAPSHOT_VERBS: readonly string[] = ['get', 'list', 'watch'];

export function snapshotKindRows(): ServedKind[] {
  return RESOURCE_TYPES.map((t) => {
    const k = RESOURCE_KINDS[t];
    return {
      resourceType: k.singular,
      plural: k.plural,
      kind: k.kind,
      group: k.group,
      version: k.version,
      namespaced: k.namespaced,
      shortNames: [...k.shortNames],
      categories: k.namespaced ? ['all'] : [],
      verbs: [...SNAPSHOT_VERBS],
    };
  }).sort((a, b) => compareText(a.resourceType, b.resourceType));
}
