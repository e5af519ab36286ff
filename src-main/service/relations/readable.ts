/**
 * Relations under `--authorize rbac` (issue 26 §2): every related object an answer returns must be
 * one the caller may `get` (its kind in its namespace, or at the cluster scope). Rules:
 * - The answer is assembled from the shared caches as for everyone, then cut: a ref the caller may
 *   not read is left out, missing ones included (a missing ref says whether an object exists), and
 *   a dependents node left out takes its subtree with it (a child is never lifted to another
 *   parent). `hidden` counts the refs left out, so the Related pane can say some are not shown.
 * - A ref of a kind the cluster does not serve (an owner whose CRD is gone) has no permission to
 *   ask about: it is kept, as the ownerReference that names it is the readable object's own.
 * - One check per (kind, namespace), asked together; the authorizer caches them.
 */
import type { DependentRef, RelationRef, Relations } from '../../../src-shared/contract/relations-operations';
import type { ReadAccess } from '../auth/rbac/access';

/** A served kind as RBAC names it: group and plural. */
export interface KindNames {
  readonly group: string;
  readonly plural: string;
}

type Ref = Pick<RelationRef, 'resourceType' | 'namespace'>;

// Stryker disable next-line StringLiteral: any text for "no namespace" keys the same questions.
const keyOf = (r: Ref) => `${r.resourceType}\u0000${r.namespace ?? ''}`;

/** Every ref of the answer but its object, the dependents tree walked whole. */
function allRefs(r: Relations): Ref[] {
  const out: Ref[] = [...r.owners, ...r.uses, ...r.usedBy, ...r.selects, ...r.selectedBy];
  const walk = (nodes: readonly DependentRef[]) => {
    for (const n of nodes) {
      out.push(n);
      if (n.children) walk(n.children);
    }
  };
  walk(r.dependents);
  return out;
}

/** How many nodes a subtree holds, itself included. */
const sizeOf = (n: DependentRef): number => 1 + (n.children ?? []).reduce((s, c) => s + sizeOf(c), 0);

/** The answer with only what the caller may read; `hidden` counts what was left out. */
export async function readableRelations(
  relations: Relations,
  access: ReadAccess,
  kindOf: (resourceType: string) => KindNames | undefined,
): Promise<Relations> {
  if (access.open) return relations;
  const checks = new Map<string, Promise<boolean>>();
  for (const ref of allRefs(relations)) {
    const key = keyOf(ref);
    if (checks.has(key)) continue;
    const kind = kindOf(ref.resourceType);
    checks.set(
      key,
      kind
        ? access.allows({
            verb: 'get',
            group: kind.group,
            resource: kind.plural,
            ...(ref.namespace !== undefined ? { namespace: ref.namespace } : {}),
          })
        : Promise.resolve(true),
    );
  }
  const answers = new Map<string, boolean>();
  await Promise.all([...checks].map(async ([key, check]) => answers.set(key, await check)));
  const readable = (ref: Ref) => answers.get(keyOf(ref)) === true;
  let hidden = 0;
  const keep = <T extends Ref>(list: readonly T[]): T[] =>
    list.filter((ref) => {
      if (readable(ref)) return true;
      hidden++;
      return false;
    });
  const prune = (nodes: readonly DependentRef[]): DependentRef[] =>
    nodes.flatMap((n) => {
      if (!readable(n)) {
        hidden += sizeOf(n);
        return [];
      }
      if (!n.children) return [n];
      const { children: _, ...node } = n;
      const children = prune(n.children);
      return [children.length > 0 ? { ...node, children } : node];
    });
  const cut: Relations = {
    ...relations,
    owners: keep(relations.owners),
    dependents: prune(relations.dependents),
    uses: keep(relations.uses),
    usedBy: keep(relations.usedBy),
    selects: keep(relations.selects),
    selectedBy: keep(relations.selectedBy),
  };
  return hidden > 0 ? { ...cut, hidden } : cut;
}
