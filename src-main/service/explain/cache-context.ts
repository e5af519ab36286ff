/**
 * What an explanation looks up (src-shared/guidance/findings.ts ExplainContext), answered from one
 * cluster's watch caches: never a cluster read per request, as every other answer about objects.
 *
 * Rules:
 * - A look-up answers null only when the kind's cache has listed and holds no such object; a kind
 *   the cluster does not serve, or whose cache cannot list (forbidden, unreachable, still syncing
 *   past its wait), answers undefined: unknown is never reported as missing.
 * - Each object and each namespace's list is looked up once per explanation.
 * - An aborted request stops: its abort propagates (checked before each look-up, and while a cache
 *   is waited for), nothing else does.
 * - listAll reads every namespace's objects of one kind (a Pending pod's node fit sums the pods on
 *   each node, whatever their namespace); it is not remembered, as it runs once per explanation.
 * - The object's events are its kind's, namespace's and name's, oldest first; events that cannot
 *   be read are none (the explanation still answers from the object).
 */

import type {
  EventLike,
  ExplainContext,
  ListedObject,
  ObjectLike,
} from '../../../src-shared/guidance/findings';
import { refKey } from '../../../src-shared/guidance/refs';
import type { GuidanceRef } from '../../../src-shared/guidance/types';
import type { ResourceEntry } from '../cache/entries';
import { resourceRows } from '../cache/list-queries';
import type { ClusterConnection } from '../clusters/cluster';
import type { KindInfo } from '../clusters/kind-info';

/** The object as the explanation is about it: its kind and where it lives. */
export interface ExplainedObject {
  kind: KindInfo;
  namespace: string | undefined;
  name: string;
}

/** `fn`'s answer, or undefined when it fails for any reason but the request's own abort. */
async function unlessFailed<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    if (signal.aborted) throw err;
    return undefined;
  }
}

/**
 * The entries of one kind in one namespace once its cache has listed; a cluster-scoped kind's all.
 * A namespaced kind named without a namespace (a cluster-scoped object's message naming a Service)
 * cannot be placed: that fails, so the look-up answers unknown.
 */
async function entriesOf(
  cluster: ClusterConnection,
  resourceType: string,
  namespace: string | undefined,
  signal: AbortSignal,
): Promise<readonly ResourceEntry[]> {
  signal.throwIfAborted();
  const kind = await cluster.kind(resourceType, signal);
  if (kind.namespaced && namespace === undefined)
    throw new Error(`${resourceType} named without a namespace`);
  const cache = cluster.resources(kind);
  await cache.acquire(signal);
  return resourceRows(cache.read().view, kind.namespaced ? namespace : '', undefined);
}

/** The object's events, oldest first (the cache keeps them newest first). */
async function eventsOf(cluster: ClusterConnection, about: ExplainedObject, signal: AbortSignal) {
  signal.throwIfAborted();
  const cache = cluster.events();
  await cache.acquire(signal);
  const kindKey = about.kind.kind.toLowerCase();
  return cache
    .read()
    .view.by('namespace', about.namespace ?? '')
    .filter((e) => e.kindKey === kindKey && e.name === about.name)
    .map(
      (e): EventLike => ({
        type: e.type === 'WARNING' ? 'Warning' : 'Normal',
        reason: e.reason,
        message: e.message,
      }),
    )
    .reverse();
}

export async function cacheExplainContext(
  cluster: ClusterConnection,
  about: ExplainedObject,
  signal: AbortSignal,
): Promise<ExplainContext> {
  const found = new Map<string, Promise<ObjectLike | null | undefined>>();
  const listed = new Map<string, Promise<readonly ListedObject[] | undefined>>();
  const events = (await unlessFailed(signal, () => eventsOf(cluster, about, signal))) ?? [];
  return {
    events,
    find(ref: GuidanceRef) {
      const key = refKey(ref);
      let answer = found.get(key);
      if (!answer) {
        answer = unlessFailed(signal, async () => {
          const rows = await entriesOf(cluster, ref.resourceType, ref.namespace, signal);
          const entry = rows.find((r) => r.name === ref.name);
          return entry ? (JSON.parse(entry.json) as ObjectLike) : null;
        });
        found.set(key, answer);
      }
      return answer;
    },
    listAll(resourceType: string) {
      return unlessFailed(signal, async () => {
        signal.throwIfAborted();
        const kind = await cluster.kind(resourceType, signal);
        const cache = cluster.resources(kind);
        await cache.acquire(signal);
        return resourceRows(cache.read().view, undefined, undefined).map(
          (r) => JSON.parse(r.json) as ListedObject,
        );
      });
    },
    list(resourceType: string, namespace: string) {
      const key = `${resourceType}/${namespace}`;
      let answer = listed.get(key);
      if (!answer) {
        answer = unlessFailed(signal, async () => {
          const rows = await entriesOf(cluster, resourceType, namespace, signal);
          return rows.map((r) => JSON.parse(r.json) as ListedObject);
        });
        listed.set(key, answer);
      }
      return answer;
    },
  };
}
