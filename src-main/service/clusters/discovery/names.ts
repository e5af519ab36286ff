/**
 * The kinds Skiff lists and the names it gives them: only resources whose verbs have both list and
 * watch (what a watch cache needs; `kubectl api-resources --verbs=list,watch`), one per group and
 * resource. A kind's resourceType is its lower-case singular; where two served groups share that
 * singular, each is qualified as `singular.group`, but for the core group's, which stays bare as
 * its group has no name (kubectl too resolves a bare name to the core group first), and one of the
 * nine tailored kinds', whose bare name scripts already use (src-shared/kube/kinds.ts: `deployment`
 * stays apps' whatever CRD also calls itself that). They come ordered by
 * resourceType, then group, so every answer lists them in one order whatever order the cluster
 * sent.
 */

import { RESOURCE_KINDS, RESOURCE_TYPES } from '../../../../src-shared/kube/kinds';
import type { ServedResource } from './model';

/** The groups whose kind keeps a bare name shared with another group: singular → group. */
const BARE = new Map<string, string>(RESOURCE_TYPES.map((t) => [t, RESOURCE_KINDS[t].group]));

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
      const holders = groupsOf.get(singular) as Set<string>;
      const bare =
        holders.size === 1 || r.group === '' || (BARE.get(singular) === r.group && !holders.has(''));
      const resourceType = bare ? singular : `${singular}.${r.group.toLowerCase()}`;
      return { ...r, resourceType };
    })
    .sort((a, b) => compareText(a.resourceType, b.resourceType) || compareText(a.group, b.group));
}
