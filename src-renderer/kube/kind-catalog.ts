import type { ServedKind } from '../../src-shared/contract/kinds-operations';
import { RESOURCE_KINDS, RESOURCE_TYPES, type ResourceType } from '../../src-shared/kube/kinds';

/**
 * The kinds a cluster serves as the renderer names them: the `/kinds` rows plus the words people
 * read ("ConfigMaps", "NetworkPolicies"). The nine keep the labels of the kinds table; any other
 * kind's label comes from its Kind and its plural. Events are left out: they have their own area.
 * Until `/kinds` answers (or where it cannot), the nine stand in, so the tree never goes blank.
 */

export interface KindEntry extends ServedKind {
  label: { singular: string; plural: string };
}

/** Kinds that are not browsed as lists: events live in the Events area. */
const NOT_BROWSED = new Set(['event', 'event.events.k8s.io']);

export function isBuiltInType(t: string): t is ResourceType {
  return (RESOURCE_TYPES as readonly string[]).includes(t);
}

/**
 * "ConfigMap" + "configmaps" → "ConfigMaps"; "Ingress" + "ingresses" → "Ingresses";
 * "Endpoints" + "endpoints" → "Endpoints"; "NetworkPolicy" + "networkpolicies" → "NetworkPolicies":
 * the Kind's own capitals, with the plural's ending.
 */
export function pluralLabel(kind: string, plural: string): string {
  const lower = kind.toLowerCase();
  if (plural.startsWith(lower)) return kind + plural.slice(lower.length);
  if (lower.endsWith('y') && plural === `${lower.slice(0, -1)}ies`) return `${kind.slice(0, -1)}ies`;
  return `${kind}s`;
}

export function toEntry(k: ServedKind): KindEntry {
  const builtIn = isBuiltInType(k.resourceType) ? RESOURCE_KINDS[k.resourceType].label : undefined;
  return { ...k, label: builtIn ?? { singular: k.kind, plural: pluralLabel(k.kind, k.plural) } };
}

/** The browsable kinds of a `/kinds` answer, as entries. */
export function catalog(kinds: readonly ServedKind[]): KindEntry[] {
  return kinds.filter((k) => !NOT_BROWSED.has(k.resourceType)).map(toEntry);
}

/** One of the nine as an entry, from the kinds table: what stands in before `/kinds` answers. */
export function builtInEntry(t: ResourceType): KindEntry {
  const info = RESOURCE_KINDS[t];
  return {
    resourceType: t,
    plural: info.plural,
    kind: info.kind,
    group: info.group,
    version: info.version,
    namespaced: info.namespaced,
    shortNames: [...info.shortNames],
    categories: [],
    verbs: ['get', 'list', 'watch'],
    label: info.label,
  };
}

export const BUILT_IN_ENTRIES: readonly KindEntry[] = RESOURCE_TYPES.map(builtInEntry);

/** The entry for a resourceType: from the served kinds, else the nine's, else undefined (not served). */
export function entryFor(kinds: readonly KindEntry[], t: string): KindEntry | undefined {
  return kinds.find((k) => k.resourceType === t) ?? (isBuiltInType(t) ? builtInEntry(t) : undefined);
}
