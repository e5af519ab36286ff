import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import type { HistoryRow } from '../events/history/filter';
import { normaliseEvent } from '../events/normalise';
import { historyEvent, historyEventRow, liveEventRow } from './event-rows';

const row = (over: Partial<HistoryRow> = {}): HistoryRow => ({
  key: 'uid-1',
  eventId: 'uid-1',
  lastMs: Date.parse('2026-03-02T10:00:00.123456Z'),
  firstMs: Date.parse('2026-03-01T09:00:00Z'),
  type: 'WARNING',
  reason: 'BackOff',
  namespace: 'shop',
  kind: 'Pod',
  kindKey: 'pod',
  name: 'web-1',
  category: 'resource',
  clusterId: 'c',
  resourceId: 'pod-uid',
  firstTimestamp: '2026-03-01T09:00:00Z',
  lastTimestamp: '2026-03-02T10:00:00.123456Z',
  count: 7,
  message: 'Back-off restarting failed container',
  component: 'kubelet',
  host: 'worker-1',
  expiredAt: 1,
  ...over,
});

describe('historyEvent', () => {
  it('normalises back to the very record the history kept', () => {
    for (const r of [
      row(),
      row({
        namespace: '',
        kind: 'Node',
        name: 'worker-3',
        category: 'system',
        type: 'NORMAL',
        component: '',
        host: '',
      }),
    ]) {
      const { lastMs, category, ...record } = normaliseEvent(historyEvent(r), 'c');
      expect(record).toEqual({
        clusterId: 'c',
        resourceId: r.resourceId,
        eventId: r.eventId,
        firstTimestamp: r.firstTimestamp,
        lastTimestamp: r.lastTimestamp,
        count: r.count,
        message: r.message,
        reason: r.reason,
        type: r.type,
        involvedObject: { kind: r.kind, name: r.name, uid: r.resourceId, namespace: r.namespace },
        source: { component: r.component, host: r.host },
      });
      expect(lastMs).toBe(r.lastMs);
      expect(category).toBe(r.category);
    }
  });

  it('is a core/v1 Event named as the apiserver names them, in its object namespace or default', () => {
    const e = historyEvent(row());
    expect(e).toMatchObject({ apiVersion: 'v1', kind: 'Event', type: 'Warning' });
    expect(e.metadata.name).toMatch(/^web-1\.[0-9a-f]{16}$/);
    expect(e.metadata.namespace).toBe('shop');
    expect(historyEvent(row({ namespace: '' })).metadata.namespace).toBe('default');
    // The same uid always gets the same name.
    expect(historyEvent(row()).metadata.name).toBe(e.metadata.name);
    expect(historyEventRow(row())).toMatchObject({
      uid: 'uid-1',
      namespace: 'shop',
      lastTimestamp: row().lastTimestamp,
    });
  });
});

describe('liveEventRow', () => {
  it('keeps the object but its managedFields, and takes the time column from the fallbacks', () => {
    const obj = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e.1', namespace: 'shop', uid: 'u-1', managedFields: [{ manager: 'kubelet' }] },
      involvedObject: { kind: 'Pod', name: 'web-1', namespace: 'shop' },
      reason: 'Started',
      eventTime: '2026-03-02T10:00:00.000001Z',
      custom: { kept: true },
    } as unknown as KubeObject;
    const r = liveEventRow(obj);
    expect(r).toMatchObject({ uid: 'u-1', namespace: 'shop', lastTimestamp: '2026-03-02T10:00:00.000001Z' });
    const stored = JSON.parse(r.json);
    expect(stored.metadata.managedFields).toBeUndefined();
    expect(stored.custom).toEqual({ kept: true });
    expect(stored.lastTimestamp).toBeUndefined();
  });

  it('stores a list item, which carries no apiVersion or kind, as a core/v1 Event', () => {
    const item = {
      metadata: { name: 'e.2', namespace: 'shop', uid: 'u-2' },
      involvedObject: { kind: 'Pod', name: 'web-2', namespace: 'shop' },
      lastTimestamp: '2026-03-02T11:00:00Z',
    } as unknown as KubeObject;
    const stored = JSON.parse(liveEventRow(item).json);
    expect(stored).toMatchObject({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'e.2' } });
  });

  it('gives an event without a namespace the empty namespace column', () => {
    const clusterScoped = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'node-3.1', uid: 'u-3' },
      involvedObject: { kind: 'Node', name: 'node-3' },
      lastTimestamp: '2026-03-02T12:00:00Z',
    } as unknown as KubeObject;
    expect(liveEventRow(clusterScoped)).toMatchObject({
      uid: 'u-3',
      namespace: '',
      lastTimestamp: '2026-03-02T12:00:00Z',
    });
  });
});
