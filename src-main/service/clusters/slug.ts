/**
 * clusterIds from context names: URL-safe slugs that stay the same across starts and never
 * collide (see the rule below).
 */
import { createHash } from 'node:crypto';

/**
 * clusterId rule: lower-case the context name, turn every run of characters outside [a-z0-9] into
 * one '-', trim '-' from both ends, cut to 50 characters (room for a 7-character collision suffix within 63); an empty result becomes 'cluster'.
 */
export function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/, '');
  return slug === '' ? 'cluster' : slug;
}

const suffixOf = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 6);

/**
 * Assigns clusterIds to context names. Ids already assigned (persisted in the data dir) are kept,
 * so an id never changes under a script once it has been seen, and never passes to another
 * context. A new context whose slug is taken gets `<slug>-<first 6 hex of sha256(context name)>`,
 * which is the same on every machine.
 */
export function assignClusterIds(
  contexts: readonly string[],
  known: Readonly<Record<string, string>>,
  reserved: readonly string[] = [],
): Record<string, string> {
  const result: Record<string, string> = {};
  const taken = new Set<string>(reserved);
  for (const ctx of contexts) {
    const id = known[ctx];
    if (id !== undefined && !taken.has(id)) {
      result[ctx] = id;
      taken.add(id);
    }
  }
  // An id once given to a context stays its own while that context is gone: workspaces grant
  // access and the event history records by clusterId, so a newcomer must not inherit either.
  for (const id of Object.values(known)) taken.add(id);
  for (const ctx of contexts) {
    if (result[ctx] !== undefined) continue;
    let id = slugify(ctx);
    if (taken.has(id)) id = `${id}-${suffixOf(ctx)}`;
    for (let n = 2; taken.has(id); n++) id = `${slugify(ctx)}-${suffixOf(ctx)}-${n}`;
    result[ctx] = id;
    taken.add(id);
  }
  return result;
}
