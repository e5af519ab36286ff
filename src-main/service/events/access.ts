/**
 * What an events read may see under `--authorize rbac` (issue 26 §2): events need `list events` in
 * their namespace. Rules:
 * - A read of one namespace (the `namespace` filter) the caller may not list events in is a 403
 *   naming the permission, before any cluster work; a read across namespaces answers only the
 *   namespaces where it may, counts included (the namespace set is part of the filter, so the live
 *   cache, the history, the timeline, the groups and the watch cut alike).
 * - System events (about nodes and other cluster-scoped objects: no namespace) need `list events`
 *   cluster-wide: the entry keeps the involved object's namespace, not the Event's own, so no one
 *   namespace's grant can be said to cover them.
 * - Open access (no `--authorize rbac`, a snapshot) asks nothing and filters nothing.
 */
import { readableIn } from '../auth/read-scope';
import type { EventsTarget } from './target';

/** The permission an events read needs, as the apiserver names it. */
export const LIST_EVENTS = { verb: 'list', group: '', resource: 'events' } as const;

/**
 * The namespaces an events read may answer from: undefined for every namespace (or when the read
 * names one, which is then checked here); else the set the caller may list events in.
 */
export async function eventNamespaces(
  target: Pick<EventsTarget, 'access' | 'cluster'>,
  namespace: string | undefined,
  signal: AbortSignal,
): Promise<ReadonlySet<string> | undefined> {
  const { access, cluster } = target;
  // Stryker disable next-line ConditionalExpression: a shortcut; open access allows the rest too.
  if (access.open) return undefined;
  if (namespace !== undefined) {
    await access.require({ ...LIST_EVENTS, namespace });
    return undefined;
  }
  return readableIn(access, cluster, LIST_EVENTS, signal);
}
