/**
 * The objects whose changes may explain a failure, from the relations of the kinds issue
 * (src-main/service/relations/): the object itself, its owners up to the root (whose pod template
 * the pod runs), what it uses (ConfigMaps, Secrets, claims, its ServiceAccount…), its node, the
 * HorizontalPodAutoscalers of it and of its root owner, and its namespace's ResourceQuotas and
 * LimitRanges (every one of them, named or not, read by kind).
 *
 * Rules: refs come most direct first, so a ref named twice keeps its most direct relation
 * (reads.ts reads it once); relations are read from the watch caches as the Related pane's are,
 * and a kind that cannot be read is simply not looked at (the answer's `related` counts what was);
 * nothing here reads the database.
 */
import type { Relations } from '../../../../src-shared/contract/relations-operations';
import type { RelatedRef } from './reads';

const isAutoscaler = (resourceType: string) =>
  resourceType === 'horizontalpodautoscaler' || resourceType.startsWith('horizontalpodautoscaler.');

/** Refs of one object's relations (and of its root owner's, when read), most direct first. */
export function relatedRefs(
  self: { resourceType: string; namespace: string; name: string },
  relations: Relations | undefined,
  rootRelations: Relations | undefined,
): RelatedRef[] {
  const out: RelatedRef[] = [{ ...self, relation: 'self' }];
  const add = (
    r: { resourceType: string; namespace?: string | undefined; name: string },
    relation: RelatedRef['relation'],
  ) => out.push({ resourceType: r.resourceType, namespace: r.namespace ?? '', name: r.name, relation });
  for (const o of relations?.owners ?? []) add(o, 'owner');
  const uses = [...(relations?.uses ?? []), ...(rootRelations?.uses ?? [])];
  for (const u of uses) if (u.resourceType !== 'node') add(u, 'uses');
  const scalers = [...(relations?.selectedBy ?? []), ...(rootRelations?.selectedBy ?? [])];
  for (const s of scalers) if (isAutoscaler(s.resourceType)) add(s, 'autoscaler');
  for (const u of uses) if (u.resourceType === 'node') add(u, 'node');
  if (self.namespace !== '')
    for (const resourceType of ['resourcequota', 'limitrange'])
      out.push({ resourceType, namespace: self.namespace, relation: 'namespace' });
  return out;
}
