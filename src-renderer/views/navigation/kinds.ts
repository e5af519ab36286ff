import {
  NAMESPACED_TYPES,
  RESOURCE_KINDS,
  RESOURCE_TYPES,
  type ResourceType,
} from '../../../src-shared/kube/kinds';

/** The kinds under a namespace in the tree; their order is the kinds table's. */
export const NAMESPACED_KINDS: readonly ResourceType[] = NAMESPACED_TYPES;

/** The tree's and the list heading's name for each kind ("StatefulSets"), from the kinds table. */
export const KIND_LABELS: Readonly<Record<ResourceType, string>> = Object.fromEntries(
  RESOURCE_TYPES.map((t) => [t, RESOURCE_KINDS[t].label.plural]),
) as Record<ResourceType, string>;
