import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import {
  cleanObject,
  compareResources,
  EVENT_INDEXES,
  type EventEntry,
  eventEntry,
  eventFingerprint,
  eventKeyOf,
  eventRecord,
  keyOf,
  labelKeys,
  type ResourceEntry,
  resourceEntry,
} from './entries';

const pod = (meta: Record<string, unknown>, rest: Record<string, unknown> = {}) =>
  ({ metadata: meta, ...rest }) as unknown as KubeObject;

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

describe('object keys', () => {
  it('keys a namespaced object namespace/name, a cluster-scoped one /name', () => {
    expect(keyOf({ metadata: { namespace: 'shop', name: 'web' } })).toBe('shop/web');
    expect(keyOf({ metadata: { name: 'node-a' } })).toBe('/node-a');
    expect(keyOf({})).toBe('/');
  });

  it('keys an event by its uid, and by namespace/name only when it has none', () => {
    expect(eventKeyOf({ metadata: { namespace: 'shop', name: 'e1', uid: 'u-9' } })).toBe('u-9');
    expect(eventKeyOf({ metadata: { namespace: 'shop', name: 'e1' } })).toBe('shop/e1');
  });
});

describe('resource entries', () => {
  it('keeps key, namespace, name and labels of the object', () => {
    const e = resourceEntry(pod({ name: 'web', namespace: 'shop', labels: { app: 'web' } }), 'v1', 'Pod');
    expect({ key: e.key, namespace: e.namespace, name: e.name, labels: e.labels }).toEqual({
      key: 'shop/web',
      namespace: 'shop',
      name: 'web',
      labels: { app: 'web' },
    });
  });

  it('gives a cluster-scoped object the empty namespace', () => {
    const e = resourceEntry(pod({ name: 'node-a' }), 'v1', 'Node');
    expect(e.namespace).toBe('');
    expect(e.key).toBe('/node-a');
    expect(e.labels).toBeUndefined();
  });

  it("keeps the object's own apiVersion and kind over the kind's defaults, and every other field", () => {
    const obj = pod(
      { name: 'd', namespace: 'n', managedFields: [{ manager: 'kubectl' }], annotations: { a: 'b' } },
      { apiVersion: 'apps/v1beta2', kind: 'Deployment', spec: { replicas: 2 } },
    );
    const clean = cleanObject(obj, 'apps/v1', 'Other');
    expect(clean).toEqual({
      apiVersion: 'apps/v1beta2',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'n', annotations: { a: 'b' } },
      spec: { replicas: 2 },
    });
    // The object it came from is left as it was.
    expect(obj.metadata.managedFields).toEqual([{ manager: 'kubectl' }]);
  });

  it('fills in the apiVersion and kind of the collection when the object carries none', () => {
    const e = resourceEntry(pod({ name: 'a', namespace: 'n', managedFields: [] }), 'batch/v1', 'Job');
    expect(JSON.parse(e.json)).toEqual({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'a', namespace: 'n' },
    });
  });

  it('makes one index key per label, label=value, and none for an object without labels', () => {
    const e = resourceEntry(
      pod({ name: 'a', namespace: 'n', labels: { app: 'web', tier: '' } }),
      'v1',
      'Pod',
    );
    expect(labelKeys(e)).toEqual(['app=web', 'tier=']);
    expect(labelKeys(resourceEntry(pod({ name: 'b', namespace: 'n' }), 'v1', 'Pod'))).toBeUndefined();
    expect(labelKeys(resourceEntry(pod({ name: 'c', namespace: 'n', labels: {} }), 'v1', 'Pod'))).toEqual([]);
  });

  it('orders resources by namespace first, then name', () => {
    const entries: ResourceEntry[] = [
      ['shop', 'b'],
      ['', 'z'],
      ['batch', 'z'],
      ['shop', 'a'],
      ['batch', 'a'],
      ['', 'a'],
    ].map(([namespace, name]) => resourceEntry(pod({ namespace, name }), 'v1', 'Pod'));
    expect(entries.sort(compareResources).map((e) => e.key)).toEqual([
      '/a',
      '/z',
      'batch/a',
      'batch/z',
      'shop/a',
      'shop/b',
    ]);
    const a = resourceEntry(pod({ namespace: 'x', name: 'same' }), 'v1', 'Pod');
    expect(compareResources(a, { ...a })).toBe(0);
    expect(compareResources(resourceEntry(pod({ namespace: 'b', name: 'a' }), 'v1', 'Pod'), a)).toBe(-1);
    expect(compareResources(a, resourceEntry(pod({ namespace: 'b', name: 'z' }), 'v1', 'Pod'))).toBe(1);
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
