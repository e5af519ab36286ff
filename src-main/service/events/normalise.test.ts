/**
 * How one Kubernetes event becomes a record, field by field, for the shapes the wire carries: the
 * full core/v1 event, an events.k8s.io-style one with most fields empty, and one with nothing but
 * its metadata. The integration tests (event-mapping.it.test.ts) check the same rules over HTTP.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import { type ClusterEvent, compareEvents, normaliseEvent } from './normalise';

const event = (fields: Record<string, unknown>, metadata: Record<string, unknown> = {}) =>
  ({ metadata: { name: 'e1', namespace: 'shop', uid: 'uid-e1', ...metadata }, ...fields }) as KubeObject;

describe('category: what the monitoring flags act on', () => {
  it('an event about a namespaced object is a resource event', () => {
    const e = normaliseEvent(event({ involvedObject: { kind: 'Pod', name: 'p', namespace: 'shop' } }), 'c');
    expect(e.category).toBe('resource');
  });

  it('an event about a cluster-scoped object is a system event, whatever namespace the event is in', () => {
    const node = normaliseEvent(
      event({ involvedObject: { kind: 'Node', name: 'n1' } }, { namespace: 'default' }),
      'c',
    );
    expect(node.category).toBe('system');
    expect(node.involvedObject.namespace).toBe('');
  });

  it('an involved object with an empty namespace is cluster-scoped too', () => {
    const e = normaliseEvent(
      event({ involvedObject: { kind: 'Namespace', name: 'shop', namespace: '' } }),
      'c',
    );
    expect(e.category).toBe('system');
  });
});

describe('fields copied from the event', () => {
  it('keeps every field the event carries, under the record’s names', () => {
    const e = normaliseEvent(
      event({
        involvedObject: { kind: 'Pod', name: 'web-1', namespace: 'shop', uid: 'pod-uid' },
        reason: 'BackOff',
        message: 'Back-off restarting failed container',
        type: 'Warning',
        count: 4,
        firstTimestamp: '2026-03-01T10:00:00Z',
        lastTimestamp: '2026-03-01T10:05:00Z',
        source: { component: 'kubelet', host: 'worker-1' },
      }),
      'prod',
    );
    expect(e).toEqual<ClusterEvent>({
      clusterId: 'prod',
      resourceId: 'pod-uid',
      eventId: 'uid-e1',
      firstTimestamp: '2026-03-01T10:00:00Z',
      lastTimestamp: '2026-03-01T10:05:00Z',
      count: 4,
      message: 'Back-off restarting failed container',
      reason: 'BackOff',
      type: 'WARNING',
      involvedObject: { kind: 'Pod', name: 'web-1', uid: 'pod-uid', namespace: 'shop' },
      source: { component: 'kubelet', host: 'worker-1' },
      lastMs: Date.UTC(2026, 2, 1, 10, 5),
      category: 'resource',
    });
  });

  it('gives every missing field an empty value instead of failing: no involved object, no source', () => {
    const e = normaliseEvent({ metadata: { name: 'bare', namespace: 'ns1' } } as KubeObject, 'c');
    expect(e).toEqual<ClusterEvent>({
      clusterId: 'c',
      resourceId: '',
      eventId: 'ns1/bare',
      firstTimestamp: '',
      lastTimestamp: '',
      count: 1,
      message: '',
      reason: '',
      type: 'NORMAL',
      involvedObject: { kind: '', name: '', uid: '', namespace: '' },
      source: { component: '', host: '' },
      lastMs: 0,
      category: 'system',
    });
  });

  it('an event without a uid is identified by namespace/name, and by /name without a namespace', () => {
    expect(normaliseEvent(event({}, { uid: undefined }), 'c').eventId).toBe('shop/e1');
    expect(normaliseEvent(event({}, { uid: undefined, namespace: undefined }), 'c').eventId).toBe('/e1');
  });

  it('type is WARNING for Warning in any case, and NORMAL for anything else', () => {
    const type = (t: string | undefined) => normaliseEvent(event({ type: t }), 'c').type;
    expect([type('Warning'), type('WARNING'), type('warning')]).toEqual(['WARNING', 'WARNING', 'WARNING']);
    expect([type('Normal'), type('Error'), type(undefined)]).toEqual(['NORMAL', 'NORMAL', 'NORMAL']);
  });
});

describe('source falls back to the events.k8s.io reporting fields', () => {
  it('an empty source takes reportingComponent and reportingInstance', () => {
    const e = normaliseEvent(
      event({
        source: { component: '', host: '' },
        reportingComponent: 'sched',
        reportingInstance: 'sched-cp-1',
      }),
      'c',
    );
    expect(e.source).toEqual({ component: 'sched', host: 'sched-cp-1' });
  });

  it('no source at all takes them too', () => {
    const e = normaliseEvent(event({ reportingComponent: 'sched', reportingInstance: 'sched-cp-1' }), 'c');
    expect(e.source).toEqual({ component: 'sched', host: 'sched-cp-1' });
  });

  it('each field falls back on its own: a host without a component', () => {
    const e = normaliseEvent(
      event({ source: { host: 'worker-2' }, reportingComponent: 'kubelet', reportingInstance: 'other' }),
      'c',
    );
    expect(e.source).toEqual({ component: 'kubelet', host: 'worker-2' });
  });
});

describe('times', () => {
  it('a UTC time keeps the precision the cluster gave it', () => {
    const e = normaliseEvent(event({ lastTimestamp: '2026-03-01T10:00:00.123456Z' }), 'c');
    expect(e.lastTimestamp).toBe('2026-03-01T10:00:00.123456Z');
  });

  it('a time in any other form is given as ISO 8601 UTC, even when it contains a Z', () => {
    const offset = normaliseEvent(event({ lastTimestamp: '2026-03-01T11:00:00+01:00' }), 'c');
    expect(offset.lastTimestamp).toBe('2026-03-01T10:00:00.000Z');
    // What JavaScript's Date#toString writes on a machine in a zone whose name holds a Z.
    const text = 'Sun Mar 01 2026 11:00:00 GMT+0100 (Zentraleuropäische Normalzeit)';
    expect(normaliseEvent(event({ lastTimestamp: text }), 'c').lastTimestamp).toBe(
      '2026-03-01T10:00:00.000Z',
    );
  });

  it('lastMs is lastTimestamp in epoch ms, and 0 when the event has no time at all', () => {
    expect(normaliseEvent(event({ lastTimestamp: '2026-03-01T10:00:00.250Z' }), 'c').lastMs).toBe(
      Date.UTC(2026, 2, 1, 10, 0, 0, 250),
    );
    expect(normaliseEvent(event({ lastTimestamp: 'not a time' }), 'c').lastMs).toBe(0);
  });

  it('count is series.count, else count, else 1', () => {
    expect(normaliseEvent(event({ count: 3, series: { count: 9 } }), 'c').count).toBe(9);
    expect(normaliseEvent(event({ count: 3, series: null }), 'c').count).toBe(3);
    expect(normaliseEvent(event({}), 'c').count).toBe(1);
  });
});

describe('compareEvents: newest first, then by eventId', () => {
  const at = (lastMs: number, eventId: string) => ({ lastMs, eventId });

  it('orders by lastTimestamp descending', () => {
    expect(compareEvents(at(2, 'a'), at(1, 'b'))).toBeLessThan(0);
    expect(compareEvents(at(1, 'a'), at(2, 'b'))).toBeGreaterThan(0);
  });

  it('breaks a tie on lastTimestamp by eventId ascending, both ways round', () => {
    expect(compareEvents(at(5, 'a'), at(5, 'b'))).toBe(-1);
    expect(compareEvents(at(5, 'b'), at(5, 'a'))).toBe(1);
  });

  it('an event compares equal to itself, so a sorted collection finds it to replace it', () => {
    expect(compareEvents(at(5, 'a'), at(5, 'a'))).toBe(0);
  });

  it('sorts a shuffled list into the one order the event list answers in', () => {
    const shuffled = [at(1, 'c'), at(3, 'b'), at(2, 'z'), at(3, 'a'), at(2, 'y'), at(1, 'd')];
    expect([...shuffled].sort(compareEvents).map((e) => `${e.lastMs}${e.eventId}`)).toEqual([
      '3a',
      '3b',
      '2y',
      '2z',
      '1c',
      '1d',
    ]);
  });
});
