/**
 * The kinds Skiff lists and the names it gives them: only resources whose verbs have both list and
 * watch (what a watch cache needs; `kubectl api-resources --verbs=list,watch`), one per group and
 * resource. A kind's resourceType is its lower-case singular; where two served groups share that
 * singular, each is qualified as `singular.group`, the core group's staying bare as its group has
 * no name (kubectl too resolves a bare name to the core group first). They come ordered by
 * resourceType, then group, so every answer lists them in one order whatever order the cluster
 * sent.
 */

import type { ServedResource } from './model';

export interface DiscoveredKind extends ServedResource {
  readonly resourceType: string;
}

export function isListable(r: Pick<ServedResource, 'verbs'>): boolean {
  return r.verbs.includes('list') && r.verbs.includes('watch');
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function nameKinds(resources: readonly ServedResource[]): DiscoveredKind[] {
  const seen = new Set<string>();
  const listable: ServedResource[] = [];
  for (const r of resources) {
    const id = `${r.group}/${r.resource}`;
    if (!isListable(r) || seen.has(id)) continue;
    seen.add(id);
    listable.push(r);
  }
  // Names are compared as people type them: case does not matter.
  const singularOf = (r: ServedResource) => r.singular.toLowerCase();
  const groupsOf = new Map<string, Set<string>>();
  for (const r of listable)
    groupsOf.set(singularOf(r), (groupsOf.get(singularOf(r)) ?? new Set()).add(r.group));
  return listable
    .map((r) => {
      const singular = singularOf(r);
      const shared = (groupsOf.get(singular) as Set<string>).size > 1;
      const resourceType = shared && r.group !== '' ? `${singular}.${r.group.toLowerCase()}` : singular;
      return { ...r, resourceType };
    })
    .sort((a, b) => compareText(a.resourceType, b.resourceType) || compareText(a.group, b.group));
}
