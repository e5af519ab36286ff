import type { ServedKind } from '../../src-shared/contract/kinds-operations';
import { RESOURCE_KINDS, RESOURCE_TYPES, type ResourceType } from '../../src-shared/kube/kinds';

/**
 * The kinds a cluster serves as the renderer names them: the `/kinds` rows plus the words people
 * read ("ConfigMaps", "NetworkPolicies"). The nine keep the labels of the kinds table; any other
 * kind's label comes from its Kind and its plural. Events are left out: they have their own area.
 * Until `/kinds` answers (or where it cannot), the nine stand in, so the tree never goes blank.
 */

/** A CRD's additionalPrinterColumns row, as `/kinds` answers it. */
export type PrinterColumn = NonNullable<ServedKind['columns']>[number];

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
  if (plural === `${lower.slice(0, -1)}ies`) return `${kind.slice(0, -1)}ies`;
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
  // The same object on every call, so a store selector answering it does not re-render forever.
  return kinds.find((k) => k.resourceType === t) ?? BUILT_IN_ENTRIES.find((k) => k.resourceType === t);
}

/**
 * An entry for a resourceType the served kinds do not name (a link to an object of a kind not
 * served, a hash from another cluster): enough to ask the service, whose answer then says why not.
 */
export function unknownEntry(resourceType: string, namespaced: boolean): KindEntry {
  const singular = resourceType.split('.')[0] ?? resourceType;
  return {
    resourceType,
    plural: `${singular}s`,
    kind: singular,
    group: resourceType.slice(singular.length + 1),
    version: '',
    namespaced,
    shortNames: [],
    categories: [],
    verbs: [],
    label: { singular, plural: `${singular}s` },
  };
}

/**
 * The resourceType of an object named by apiVersion and Kind (an ownerReference, an event's
 * involvedObject), among the served kinds; undefined when none matches.
 */
export function resourceTypeOf(
  kinds: readonly KindEntry[],
  apiVersion: string,
  kind: string,
): string | undefined {
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '';
  const named = (k: KindEntry) => k.kind === kind && k.group === group;
  return (kinds.find(named) ?? BUILT_IN_ENTRIES.find(named))?.resourceType;
}
