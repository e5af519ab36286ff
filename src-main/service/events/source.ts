/**
 * Where an events read answers from: the cluster's event cache, synced, or its recorded history.
 *
 * Rules: every read (the list, the timeline, the groups, the watch) starts here, with its target
 * resolved already (target.ts). With includeExpired=true and a recorded history, a cluster that
 * cannot be reached now still has its history: that is answered, marked stale as of the last
 * recording, rather than an error; a cluster known to be down is not waited for at all. Otherwise
 * the cache is waited for as any list waits for its cache. A problem that is the request's own (a
 * bad token, a missing kind) is never hidden behind the history.
 */
import type { MonitoringFlags } from '../../../src-shared/contract/models';
import type { ResourceCache } from '../cache/resource-cache';
import type { ClusterConnection } from '../clusters/cluster';
import { ProblemError } from '../errors';
import type { EventEntry } from './entries';
import type { EventHistory } from './history/index';
import type { EventsTarget } from './target';

/** A cluster's event cache, started and synced: the watch, and every read the cache answers. */
export async function syncedEvents(target: EventsTarget, signal: AbortSignal) {
  const cache = target.cluster.events();
  await cache.acquire(signal);
  return cache;
}

/**
 * What keeps a cache from answering while a recorded history can: the cluster down (502, 504), or
 * its first list still arriving (503). Anything else is the request's own problem.
 */
const CACHE_UNAVAILABLE = new Set([
  'cluster_unreachable',
  'cluster_timeout',
  'cluster_unauthorized',
  'cluster_error',
  'cluster_syncing',
]);

/**
 * Where an events read answers from. `recorded`: from the event history (includeExpired=true while
 * events are recorded). `cache`: the cluster's event cache, synced; undefined when it cannot answer
 * (the cluster down, its first list still arriving) and the history answers alone, marked stale as
 * of its last recording.
 */
export interface EventsSource {
  cluster: ClusterConnection;
  flags: MonitoringFlags;
  recorded: boolean;
  cache: ResourceCache<EventEntry> | undefined;
  /** RFC 3339: when the data answered was last known to match the cluster; undefined while live. */
  staleSince: string | undefined;
  /** Why the cache cannot answer; thrown when the history has nothing to answer with either. */
  cause?: ProblemError;
}

export async function eventsSource(
  target: EventsTarget,
  history: EventHistory,
  includeExpired: boolean | undefined,
  signal: AbortSignal,
): Promise<EventsSource> {
  const { cluster, flags } = target;
  const recorded = includeExpired === true && history.answers(cluster);
  if (!recorded) {
    const cache = await syncedEvents(target, signal);
    return { cluster, flags, recorded, cache, staleSince: cache.staleSince };
  }
  const cache = cluster.events();
  try {
    // Known down already: no request waits for one more failed attempt.
    const down = cache.neverSyncedCause;
    if (down) throw down;
    await cache.acquire(signal);
    return { cluster, flags, recorded, cache, staleSince: cache.staleSince };
  } catch (err) {
    if (!(err instanceof ProblemError) || !CACHE_UNAVAILABLE.has(err.code)) throw err;
    const recordedAt = await history.lastRecorded(cluster);
    if (recordedAt === undefined) throw err;
    const staleSince = new Date(recordedAt).toISOString();
    return { cluster, flags, recorded, cache: undefined, staleSince, cause: err };
  }
}

/** The source's live cache; when there is none, the problem that kept it from answering. */
export function liveCache(source: EventsSource): ResourceCache<EventEntry> {
  if (source.cache) return source.cache;
  throw source.cause;
}
