/**
 * Which namespaces and kinds a caller sees at all (`--authorize rbac`), for the namespace list and
 * the kinds list. Rules:
 * - A namespace is visible when the caller may `list namespaces` cluster-wide, or `get` that
 *   namespace (a Role in it granting `get namespaces` is enough, as the apiserver files a request
 *   on Namespace X under namespace X).
 * - A cluster-scoped kind is visible when the caller may `list` it cluster-wide; a namespaced kind
 *   when it may `list` it cluster-wide or in one of the namespaces it sees.
 * - Open access sees everything and asks nothing (its answers are all yes, given at once).
 */
import type { ReadAccess } from './access';

const NAMESPACES = { group: '', resource: 'namespaces' } as const;

export async function visibleNamespaces(
  access: ReadAccess,
  candidates: Iterable<string>,
): Promise<'all' | ReadonlySet<string>> {
  if (access.open || (await access.allows({ verb: 'list', ...NAMESPACES }))) return 'all';
  return access.namespaces({ verb: 'get', ...NAMESPACES }, candidates);
}

export interface KindScope {
  group: string;
  plural: string;
  namespaced: boolean;
}

/**
 * The kinds among `kinds` the caller may list somewhere, in their order; `namespaces` are the
 * namespaces it sees (every one of them when it sees all). Eight kinds are checked at a time.
 */
export async function visibleKinds<K extends KindScope>(
  access: ReadAccess,
  kinds: readonly K[],
  namespaces: readonly string[],
): Promise<K[]> {
  const visible: boolean[] = [];
  // One iterator shared by every worker: each takes the next kind when it is free.
  const next = kinds.entries();
  const worker = async () => {
    for (const [i, k] of next) {
      const list = { verb: 'list', group: k.group, resource: k.plural } as const;
      if (!k.namespaced) {
        visible[i] = await access.allows(list);
      } else {
        const allowed = await access.namespaces(list, namespaces);
        visible[i] = allowed === 'all' || allowed.size > 0;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return kinds.filter((_, i) => visible[i]);
}
