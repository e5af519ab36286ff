/** Event entries: their keys, what they keep of an event, the record served, fingerprints and indexes. */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import {
  EVENT_INDEXES,
  type EventEntry,
  eventEntry,
  eventFingerprint,
  eventKeyOf,
  eventRecord,
} from './entries';

function rawEvent(over: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'web-1.17a', namespace: 'shop', uid: 'ev-uid-1' },
    involvedObject: { kind: 'Pod', name: 'web-1', namespace: 'shop', uid: 'pod-uid-1' },
    reason: 'BackOff',
    message: 'Back-off restarting failed container',
    type: 'Warning',
    count: 4,
    firstTimestamp: '2026-03-01T10:00:00Z',
    lastTimestamp: '2026-03-01T10:05:00Z',
    source: { component: 'kubelet', host: 'node-a' },
    ...over,
  } as unknown as KubeObject;
}

describe('event keys', () => {
  it('keys an event by its uid, and by namespace/name only when it has none', () => {
    expect(eventKeyOf({ metadata: { namespace: 'shop', name: 'e1', uid: 'u-9' } })).toBe('u-9');
    expect(eventKeyOf({ metadata: { namespace: 'shop', name: 'e1' } })).toBe('shop/e1');
    expect(eventKeyOf({})).toBe('/');
  });
});

describe('event entries', () => {
  it('keeps what the event record shows, with the kind lower-cased as its index key', () => {
    const e = eventEntry(rawEvent(), 'c1');
    expect(e).toMatchObject({
      key: 'ev-uid-1',
      eventId: 'ev-uid-1',
      lastMs: Date.parse('2026-03-01T10:05:00Z'),
      type: 'WARNING',
      reason: 'BackOff',
      namespace: 'shop',
      kind: 'Pod',
      kindKey: 'pod',
      name: 'web-1',
      category: 'resource',
      clusterId: 'c1',
      resourceId: 'pod-uid-1',
      firstTimestamp: '2026-03-01T10:00:00Z',
      lastTimestamp: '2026-03-01T10:05:00Z',
      count: 4,
      message: 'Back-off restarting failed container',
      component: 'kubelet',
      host: 'node-a',
    });
  });

  it('serves the record in the spec field order, with the workspace it is read for', () => {
    const record = eventRecord(eventEntry(rawEvent(), 'c1'), 'ws');
    expect(Object.keys(record)).toEqual([
      'workspaceId',
      'clusterId',
      'resourceId',
      'eventId',
      'firstTimestamp',
      'lastTimestamp',
      'count',
      'message',
      'reason',
      'type',
      'involvedObject',
      'source',
    ]);
    expect(record.workspaceId).toBe('ws');
    expect(record.involvedObject).toEqual({
      kind: 'Pod',
      name: 'web-1',
      uid: 'pod-uid-1',
      namespace: 'shop',
    });
    expect(record.source).toEqual({ component: 'kubelet', host: 'node-a' });
    expect(record.firstTimestamp).toBe('2026-03-01T10:00:00Z');
  });

  it('fingerprints equal records alike and tells apart records that differ in what they show', () => {
    const base = eventFingerprint(eventEntry(rawEvent(), 'c1'));
    expect(eventFingerprint(eventEntry(rawEvent(), 'c1'))).toBe(base);
    expect(eventFingerprint(eventEntry(rawEvent({ count: 5 }), 'c1'))).not.toBe(base);
    expect(eventFingerprint(eventEntry(rawEvent({ message: 'other' }), 'c1'))).not.toBe(base);
  });

  it('indexes each event by type, reason, namespace, lower-cased kind and category', () => {
    const node = eventEntry(
      rawEvent({ involvedObject: { kind: 'Node', name: 'node-a', uid: 'n-1' }, type: 'Normal' }),
      'c1',
    );
    const index = (e: EventEntry) => Object.entries(EVENT_INDEXES).map(([name, keys]) => [name, keys(e)]);
    expect(index(node)).toEqual([
      ['type', 'NORMAL'],
      ['reason', 'BackOff'],
      ['namespace', ''],
      ['kind', 'node'],
      ['category', 'system'],
    ]);
    expect(index(eventEntry(rawEvent(), 'c1'))).toEqual([
      ['type', 'WARNING'],
      ['reason', 'BackOff'],
      ['namespace', 'shop'],
      ['kind', 'pod'],
      ['category', 'resource'],
    ]);
  });
});
