import type { RawInput, ResultOf } from '../../src-shared/contract/define';
import type { ResourceWrapper } from '../../src-shared/contract/models';
import type { OperationName, Operations } from '../../src-shared/contract/operations';
import { MAX_PAGE_LIMIT } from '../../src-shared/contract/params';
import { RESOURCE_KINDS, RESOURCE_TYPES, type ResourceType } from '../../src-shared/kube/kinds';
import type { ApiClient } from './client';

/** Where a list or object lives. */
export interface Scope {
  workspaceId: string;
  clusterId: string;
}

/** A list bigger than this is cut (and says so): beyond it the browser, not the service, is the bottleneck. */
export const LIST_CAP = 50_000;
const PARALLEL_PAGES = 4;

export interface ListResult {
  items: ResourceWrapper[];
  total: number;
  truncated: boolean;
  /** Set when any page came from a cache whose watch is broken: the oldest of their x-Stale-Since. */
  staleSince?: string;
}

/**
 * The oldest staleSince of a set of replies, or undefined when every one was fresh. Pages of one
 * view can straddle a watch breaking; the view is only as current as its oldest page.
 */
export function oldestStaleSince(replies: ReadonlyArray<{ staleSince?: string }>): string | undefined {
  let oldest: string | undefined;
  for (const r of replies) {
    if (r.staleSince && (oldest === undefined || Date.parse(r.staleSince) < Date.parse(oldest))) {
      oldest = r.staleSince;
    }
  }
  return oldest;
}

/** The namespaced and the cluster-wide form of each resource operation. */
const OPERATIONS = {
  list: { namespaced: 'listNamespacedResources', clusterWide: 'listResources' },
  get: { namespaced: 'getNamespacedResource', clusterWide: 'getResource' },
} as const;

/** One of the nine that lives outside namespaces: its namespace, if a caller passed one, is not a path part. */
const clusterScoped = (kind: string) =>
  (RESOURCE_TYPES as readonly string[]).includes(kind) && !RESOURCE_KINDS[kind as ResourceType].namespaced;

/**
 * Which operation reaches `kind` (any served resourceType) and with what path parameters: the
 * namespaced one when a namespace is given, the cluster-wide one for all namespaces and for
 * cluster-scoped kinds. Callers pass a namespace only for kinds the cluster serves as namespaced.
 * The per-object views (relations, explanations) come in the same two forms and are chosen alike.
 */
export function resourceOperation<N extends OperationName, C extends OperationName>(
  { namespaced, clusterWide }: { namespaced: N; clusterWide: C },
  scope: Scope,
  kind: string,
  namespace: string | null | undefined,
): { name: N | C; params: Scope & { resourceType: string; namespace?: string } } {
  return namespace && !clusterScoped(kind)
    ? { name: namespaced, params: { ...scope, namespace, resourceType: kind } }
    : { name: clusterWide, params: { ...scope, resourceType: kind } };
}

function listPage(
  client: ApiClient,
  scope: Scope,
  kind: string,
  namespace: string | null,
  labelSelector: string,
  limit: number,
  offset: number,
  signal?: AbortSignal,
) {
  const query = {
    limit: String(limit),
    offset: String(offset),
    ...(labelSelector.trim() ? { labelSelector } : {}),
  };
  const { name, params } = resourceOperation(OPERATIONS.list, scope, kind, namespace);
  return client.call(name, { params, query }, signal ? { signal } : {});
}

/**
 * Every object of a list. The service pages at most MAX_PAGE_LIMIT per request, so the first page
 * tells the total and the rest are fetched a few at a time; tables sort and filter on the whole
 * list, which needs all of it.
 */
export async function listAll(
  client: ApiClient,
  scope: Scope,
  kind: string,
  namespace: string | null,
  labelSelector: string,
  signal?: AbortSignal,
): Promise<ListResult> {
  const first = await listPage(client, scope, kind, namespace, labelSelector, MAX_PAGE_LIMIT, 0, signal);
  const total = first.page?.total ?? first.data.length;
  const wanted = Math.min(total, LIST_CAP);
  const replies: Array<{ staleSince?: string }> = [first];
  const items = [...first.data];
  const offsets: number[] = [];
  for (let o = first.data.length; o < wanted; o += MAX_PAGE_LIMIT) offsets.push(o);
  for (let i = 0; i < offsets.length; i += PARALLEL_PAGES) {
    const batch = offsets.slice(i, i + PARALLEL_PAGES);
    const pages = await Promise.all(
      batch.map((o) => listPage(client, scope, kind, namespace, labelSelector, MAX_PAGE_LIMIT, o, signal)),
    );
    for (const p of pages) {
      replies.push(p);
      items.push(...p.data);
    }
  }
  // When every page came back unchanged (the transport hands back the same reply on a 304), hand
  // back the same result too, so a poll of an unchanged 10,000-row list re-renders nothing.
  const key = `${scope.workspaceId}/${scope.clusterId}/${kind}/${namespace ?? ''}/${labelSelector}`;
  const previous = lastLists.get(key);
  if (
    previous &&
    previous.replies.length === replies.length &&
    previous.replies.every((r, i) => r === replies[i])
  ) {
    return previous.result;
  }
  const staleSince = oldestStaleSince(replies);
  const result: ListResult = {
    items: items.slice(0, wanted),
    total,
    truncated: total > wanted,
    ...(staleSince ? { staleSince } : {}),
  };
  lastLists.delete(key);
  lastLists.set(key, { replies, result });
  if (lastLists.size > 20) lastLists.delete(lastLists.keys().next().value as string);
  return result;
}

const lastLists = new Map<string, { replies: unknown[]; result: ListResult }>();

/** How many objects a list has, at the cost of one row: the service reports the total with any page. */
export async function countOf(
  client: ApiClient,
  scope: Scope,
  kind: string,
  namespace: string | null,
  signal?: AbortSignal,
): Promise<number> {
  const reply = await listPage(client, scope, kind, namespace, '', 1, 0, signal);
  return reply.page?.total ?? reply.data.length;
}

export function getOne(
  client: ApiClient,
  scope: Scope,
  kind: string,
  name: string,
  namespace: string | undefined,
  signal?: AbortSignal,
): Promise<ResourceWrapper> {
  return objectRead(client, OPERATIONS.get, scope, { kind, name, namespace }, signal);
}

/**
 * One object's answer (the object itself, its relations, its explanation) by kind and name, through
 * the namespaced or the cluster-wide form of its operation as resourceOperation chooses.
 */
export async function objectRead<N extends OperationName, C extends OperationName>(
  client: ApiClient,
  operations: { namespaced: N; clusterWide: C },
  scope: Scope,
  ref: { kind: string; name: string; namespace?: string | undefined },
  signal?: AbortSignal,
): Promise<ResultOf<Operations[N | C]>> {
  const { name, params } = resourceOperation(operations, scope, ref.kind, ref.namespace);
  // Both forms take these params (the cluster-wide one without the namespace resourceOperation left out).
  const input = { params: { ...params, resourceName: ref.name } } as RawInput<Operations[N | C]>;
  const r = await client.call(name, input, signal ? { signal } : {});
  return r.data;
}
