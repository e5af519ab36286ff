import { createHash } from 'node:crypto';
import type { KubeObject } from '../../../src-shared/contract/models';
import { cleanObject } from '../cache/entries';
import type { HistoryRow } from '../events/history/filter';
import { normaliseEvent } from '../events/normalise';

/** One row of the snapshot's `events` table. */
export interface EventRow {
  uid: string;
  namespace: string;
  lastTimestamp: string;
  json: string;
}

/** A core/v1 Event as the cluster listed it: managedFields removed, the list's timestamp fallbacks applied to the column only. */
export function liveEventRow(obj: KubeObject): EventRow {
  const clean = cleanObject(obj, 'v1', 'Event');
  const record = normaliseEvent(clean, '');
  return {
    uid: record.eventId,
    namespace: clean.metadata.namespace ?? '',
    lastTimestamp: record.lastTimestamp,
    json: JSON.stringify(clean),
  };
}

/**
 * A recorded event written back as a core/v1 Event, so a reader treats live and expired events
 * alike. The history keeps the twelve record fields, not the object, so what is not among them is
 * made up the way documented in docs/snapshot-format.md: the name is the involved object's name
 * and a hash of the uid (as the apiserver names events `<object>.<hex>`), the namespace is the
 * involved object's (`default` for cluster-scoped objects, where the apiserver puts their events),
 * and `creationTimestamp` is the first occurrence. Normalising it gives back the same record.
 */
export function historyEvent(row: HistoryRow): KubeObject {
  const namespace = row.namespace || 'default';
  const hash = createHash('sha1').update(row.eventId).digest('hex').slice(0, 16);
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${row.name || 'event'}.${hash}`,
      namespace,
      uid: row.eventId,
      creationTimestamp: row.firstTimestamp,
    },
    involvedObject: {
      kind: row.kind,
      name: row.name,
      ...(row.namespace ? { namespace: row.namespace } : {}),
      uid: row.resourceId,
    },
    reason: row.reason,
    message: row.message,
    type: row.type === 'WARNING' ? 'Warning' : 'Normal',
    count: row.count,
    firstTimestamp: row.firstTimestamp,
    lastTimestamp: row.lastTimestamp,
    source: {
      ...(row.component ? { component: row.component } : {}),
      ...(row.host ? { host: row.host } : {}),
    },
  } as KubeObject;
}

export function historyEventRow(row: HistoryRow): EventRow {
  const obj = historyEvent(row);
  return {
    uid: row.eventId,
    namespace: obj.metadata.namespace ?? '',
    lastTimestamp: row.lastTimestamp,
    json: JSON.stringify(obj),
  };
}
