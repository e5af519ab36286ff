/**
 * When an object's events say its failure started: its first BackOff event (a crash loop, an image
 * pull back-off), or its first Warning event (a Pending pod's FailedScheduling, FailedMount…).
 *
 * Rules: read from the event history (live and expired events, events/history/) when it answers
 * for the cluster, and from the event cache (the events the cluster still holds, or a snapshot's);
 * the earlier wins, and an event from before the object was created (a previous object of that
 * name) is ignored. An event list that cannot be read is no evidence: the diagnosis still answers
 * from the object (as explanations do), only an aborted request stops.
 */
import type { ClusterConnection } from '../../clusters/cluster';
import type { EventFilter } from '../../events/filter';
import type { EventHistory } from '../../events/history/index';
import type { Candidate } from './signals';

export interface EventSubject {
  /** The involved object's Kind, lower-cased (`pod`). */
  kindKey: string;
  namespace: string;
  name: string;
  uid: string | undefined;
  /** Epoch ms of its creationTimestamp, when known. */
  createdMs: number | undefined;
}

const firstMsOf = (firstTimestamp: string, lastMs: number) => {
  const t = Date.parse(firstTimestamp);
  return Number.isNaN(t) ? lastMs : Math.min(t, lastMs);
};

async function fromHistory(
  cluster: ClusterConnection,
  history: EventHistory,
  f: EventFilter,
  uid: string | undefined,
): Promise<number | undefined> {
  if (!history.answers(cluster)) return undefined;
  const first = await history.page(cluster, f, 1, 0);
  if (!first || first.total === 0) return undefined;
  // Newest first: the last row is the oldest.
  const last = first.total === 1 ? first : await history.page(cluster, f, 1, first.total - 1);
  const row = last?.rows[0];
  if (!row || (uid !== undefined && row.resourceId !== '' && row.resourceId !== uid)) return undefined;
  return Math.min(row.firstMs, row.lastMs);
}

async function fromCache(
  cluster: ClusterConnection,
  f: EventFilter,
  uid: string | undefined,
  signal: AbortSignal,
): Promise<number | undefined> {
  const cache = cluster.events();
  await cache.acquire(signal);
  let first: number | undefined;
  for (const e of cache.read().view.by('namespace', f.namespace ?? '')) {
    if (e.kindKey !== f.kind || e.name !== f.name) continue;
    if (f.reason !== undefined && e.reason !== f.reason) continue;
    if (f.type !== undefined && e.type !== f.type) continue;
    if (uid !== undefined && e.resourceId !== '' && e.resourceId !== uid) continue;
    const t = firstMsOf(e.firstTimestamp, e.lastMs);
    if (first === undefined || t < first) first = t;
  }
  return first;
}

async function unlessFailed<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    if (signal.aborted) throw err;
    return undefined;
  }
}

/** The first BackOff (or Warning) event of the subject as an onset candidate; undefined when none. */
export async function firstEvent(
  cluster: ClusterConnection,
  history: EventHistory,
  subject: EventSubject,
  which: 'backoff' | 'warning',
  signal: AbortSignal,
): Promise<Candidate | undefined> {
  const f: EventFilter = {
    ...(which === 'backoff' ? { reason: 'BackOff' } : { type: 'WARNING' as const }),
    namespace: subject.namespace,
    kind: subject.kindKey,
    name: subject.name,
    resourceEvents: true,
    systemEvents: true,
  };
  const [recorded, live] = await Promise.all([
    unlessFailed(signal, () => fromHistory(cluster, history, f, subject.uid)),
    unlessFailed(signal, () => fromCache(cluster, f, subject.uid, signal)),
  ]);
  const times = [recorded, live].filter(
    (t): t is number =>
      t !== undefined && (subject.createdMs === undefined || t >= subject.createdMs - 1_000),
  );
  if (times.length === 0) return undefined;
  const timeMs = Math.min(...times);
  return which === 'backoff'
    ? {
        type: 'FirstBackOff',
        message: `the first BackOff event about ${subject.kindKey} ${subject.name}`,
        timeMs,
      }
    : {
        type: 'FirstWarning',
        message: `the first Warning event about ${subject.kindKey} ${subject.name}`,
        timeMs,
      };
}
