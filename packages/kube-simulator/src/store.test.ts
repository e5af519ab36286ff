import { describe, expect, it } from 'vitest';
import { SimStore } from './store';
import { Table } from './table';
import type { CoreEvent, KubeObject } from './types';

const ns = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, uid: '', resourceVersion: '', creationTimestamp: '' },
});
const cm = (namespace: string, name: string, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace, ...(labels ? { labels } : {}) },
  spec: {},
});

describe('Table', () => {
  it('orders keys bytewise like etcd and finds namespace ranges', () => {
    const t = new Table();
    for (const key of ['shop/b', 'shop-a/x', 'shop/a', 'default/z', 'kube-system/a']) t.set(key, ns(key));
    expect([...t.values()].map((o) => o.metadata.name)).toEqual([
      'default/z',
      'kube-system/a',
      'shop-a/x',
      'shop/a',
      'shop/b',
    ]);
    expect([...t.values('shop')].map((o) => o.metadata.name)).toEqual(['shop/a', 'shop/b']);
    t.delete('shop/a');
    expect(t.range('shop')).toEqual([3, 4]);
  });
});

describe('SimStore', () => {
  it('assigns increasing resourceVersions, keeps uid and creationTimestamp on update', () => {
    const store = new SimStore(() => 1_700_000_000_000);
    const a = store.upsert(cm('shop', 'one'));
    const b = store.upsert(cm('shop', 'one', { x: 'y' }));
    expect(Number(b.metadata.resourceVersion)).toBeGreaterThan(Number(a.metadata.resourceVersion));
    expect(b.metadata.uid).toBe(a.metadata.uid);
    expect(b.metadata.creationTimestamp).toBe('2023-11-14T22:13:20Z');
    expect(b.metadata.managedFields?.[0]?.fieldsV1).toHaveProperty('f:spec');
    expect(store.count('services', 'shop')).toBe(1);
  });

  it('replays history and reports compaction', () => {
    const store = new SimStore(Date.now, 3);
    store.upsert(cm('a', 's1'));
    const since = store.rv;
    store.upsert(cm('a', 's2'));
    store.remove('services', 'a', 's1');
    expect(store.changesSince('services', since)?.map((c) => c.type)).toEqual(['ADDED', 'DELETED']);
    for (let i = 0; i < 5; i++) store.upsert(cm('a', `more${i}`));
    expect(store.changesSince('services', since)).toBeUndefined();
    expect(store.changesSince('services', store.rv)).toEqual([]);
  });

  it('notifies subscribers with the previous object on MODIFIED', () => {
    const store = new SimStore();
    const seen: string[] = [];
    const off = store.subscribe('Service', (c) =>
      seen.push(`${c.type}:${c.prev?.metadata.labels?.v ?? '-'}`),
    );
    store.upsert(cm('a', 's', { v: '1' }));
    store.upsert(cm('a', 's', { v: '2' }));
    off();
    store.upsert(cm('a', 's', { v: '3' }));
    expect(seen).toEqual(['ADDED:-', 'MODIFIED:1']);
  });

  it('fills the involved object uid when an event names an existing object', () => {
    const store = new SimStore();
    const pod = store.upsert({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'x' } });
    expect(pod).toMatchObject({ spec: { containers: [] }, status: { phase: 'Pending' } });
    const ev = store.addEvent({
      involvedObject: { kind: 'Pod', namespace: 'x', name: 'p' },
      reason: 'Pulled',
      message: 'm',
    });
    expect(ev.involvedObject).toMatchObject({
      uid: pod.metadata.uid,
      resourceVersion: pod.metadata.resourceVersion,
    });
  });

  it('records and bumps events in both shapes', () => {
    let now = 1_700_000_000_000;
    const store = new SimStore(() => now);
    const classic = store.addEvent({
      involvedObject: { kind: 'Pod', namespace: 'x', name: 'p' },
      reason: 'Started',
      message: 'Started container app',
      source: { component: 'kubelet', host: 'n1' },
    });
    expect(classic).toMatchObject({
      count: 1,
      firstTimestamp: '2023-11-14T22:13:20Z',
      source: { component: 'kubelet', host: 'n1' },
      reportingComponent: 'kubelet',
    });
    expect(classic.involvedObject.apiVersion).toBe('v1');
    now += 60_000;
    const bumped = store.bumpEvent('x', classic.metadata.name) as CoreEvent;
    expect(bumped).toMatchObject({ count: 2, lastTimestamp: '2023-11-14T22:14:20Z' });
    const modern = store.addEvent({
      involvedObject: { kind: 'Pod', namespace: 'x', name: 'p', uid: 'u', apiVersion: 'v1' },
      reason: 'FailedScheduling',
      message: '0/1 nodes are available',
      type: 'Warning',
      eventTime: '2023-11-14T22:14:20.000000Z',
      reportingComponent: 'default-scheduler',
    });
    expect(modern).toMatchObject({ firstTimestamp: null, lastTimestamp: null, source: {} });
    expect(modern.count).toBeUndefined();
    now += 1000;
    const series = store.bumpEvent('x', modern.metadata.name) as CoreEvent;
    expect(series.series).toEqual({ count: 2, lastObservedTime: '2023-11-14T22:14:21.000000Z' });
    expect(modern.metadata.managedFields?.[0]?.manager).toBe('kube-scheduler');
  });
});
