/**
 * A Kubernetes Event (core/v1, or written through events.k8s.io) as one record, and the one order
 * of events everywhere (the cache, the history, the watch's replay).
 *
 * Rules: timestamps are ISO 8601 UTC, the cluster's own precision kept, with the documented
 * fallbacks for events.k8s.io writers; what an event lacks becomes an empty value, never a throw;
 * newest first, ties by eventId, so pages never shuffle between requests.
 */
import type { EventRecord, KubeObject } from '../../../src-shared/contract/models';

/** An event record without its workspace (the same cluster can sit in several workspaces). */
export type ClusterEvent = Omit<EventRecord, 'workspaceId'> & {
  /** lastTimestamp in epoch ms, for ordering and `since`. */
  lastMs: number;
  /** Events about namespaced objects are "resource" events; nodes and cluster-scoped objects are "system". */
  category: 'resource' | 'system';
};

interface RawEvent extends KubeObject {
  involvedObject?: { kind?: string; name?: string; uid?: string; namespace?: string };
  reason?: string;
  message?: string;
  type?: string;
  count?: number;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  eventTime?: string | null;
  series?: { count?: number; lastObservedTime?: string | null } | null;
  source?: { component?: string; host?: string };
  reportingComponent?: string;
  reportingInstance?: string;
}

/** ISO 8601 UTC with the precision the cluster gave, or '' when the value is not a time. */
function isoUtc(value: string | null | undefined): string {
  if (!value) return '';
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return '';
  // Keep the apiserver's own form when it already is UTC; it may carry microseconds we must not lose.
  return /Z$/.test(value) ? value : new Date(ms).toISOString();
}

export function normaliseEvent(obj: KubeObject, clusterId: string): ClusterEvent {
  const e = obj as RawEvent;
  // events.k8s.io writers leave first/lastTimestamp empty. The documented fallback order is
  // eventTime, then series.lastObservedTime, then creationTimestamp, for both fields.
  const fallback =
    isoUtc(e.eventTime) || isoUtc(e.series?.lastObservedTime) || isoUtc(e.metadata.creationTimestamp);
  const lastTimestamp = isoUtc(e.lastTimestamp) || fallback;
  const firstTimestamp = isoUtc(e.firstTimestamp) || fallback;
  const involved = e.involvedObject ?? {};
  const namespace = involved.namespace ?? '';
  return {
    clusterId,
    resourceId: involved.uid ?? '',
    eventId: e.metadata.uid ?? `${e.metadata.namespace ?? ''}/${e.metadata.name}`,
    firstTimestamp,
    lastTimestamp,
    count: e.series?.count ?? e.count ?? 1,
    message: e.message ?? '',
    reason: e.reason ?? '',
    type: (e.type ?? '').toUpperCase() === 'WARNING' ? 'WARNING' : 'NORMAL',
    involvedObject: {
      kind: involved.kind ?? '',
      name: involved.name ?? '',
      uid: involved.uid ?? '',
      namespace,
    },
    source: {
      component: e.source?.component || e.reportingComponent || '',
      host: e.source?.host || e.reportingInstance || '',
    },
    lastMs: lastTimestamp ? Date.parse(lastTimestamp) : 0,
    category: namespace !== '' ? 'resource' : 'system',
  };
}

/** Newest first; ties broken by eventId so pages never shuffle between requests. */
export function compareEvents(
  a: Pick<ClusterEvent, 'lastMs' | 'eventId'>,
  b: Pick<ClusterEvent, 'lastMs' | 'eventId'>,
): number {
  if (a.lastMs !== b.lastMs) return b.lastMs - a.lastMs;
  return a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0;
}
