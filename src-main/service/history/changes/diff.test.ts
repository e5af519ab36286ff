import { describe, expect, it } from 'vitest';
import { applied, diff, LEADER_ANNOTATION, versionOf, versionOfObject, withoutHeartbeats } from './diff';

const node = (beat: string, ready = 'True', probe?: string) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'n1', uid: 'u1', resourceVersion: '7', generation: 2, managedFields: [{ manager: 'x' }] },
  status: {
    conditions: [
      { type: 'Ready', status: ready, lastHeartbeatTime: beat, ...(probe ? { lastProbeTime: probe } : {}) },
      'odd',
    ],
  },
});

describe('versionOf', () => {
  it('stores the object without managedFields and resourceVersion, keeps generation, and says its identity', () => {
    const v = versionOf(JSON.stringify(node('t1')), '/nodes');
    expect(v.resourceVersion).toBe('7');
    expect(v.uid).toBe('u1');
    expect(v.object.metadata).toEqual({ name: 'n1', uid: 'u1', generation: 2 });
    expect((v.object.status as { conditions: unknown[] }).conditions[0]).toMatchObject({
      lastHeartbeatTime: 't1',
    });
    expect((v.comparable.status as { conditions: unknown[] }).conditions).toEqual([
      { type: 'Ready', status: 'True' },
      'odd',
    ]);
  });

  it('copes with an object without metadata, uid or resourceVersion, and never changes what it was given', () => {
    const v = versionOfObject({ kind: 'X' }, 'g/xs');
    expect([v.uid, v.resourceVersion, v.object.metadata]).toEqual(['', '', {}]);
    const given = node('t1');
    const before = JSON.stringify(given);
    versionOfObject(given, '/nodes');
    expect(JSON.stringify(given)).toBe(before);
    const weird = versionOfObject({ metadata: { uid: 5, resourceVersion: 6 } }, 'g/xs');
    expect([weird.uid, weird.resourceVersion]).toEqual(['', '']);
  });
});

describe('heartbeats', () => {
  it("a node's heartbeat or probe time alone is no change; its Ready status is", () => {
    const a = versionOf(JSON.stringify(node('t1', 'True', 'p1')), '/nodes');
    expect(diff(a, versionOf(JSON.stringify(node('t2', 'True', 'p2')), '/nodes'))).toEqual([]);
    expect(diff(a, versionOf(JSON.stringify(node('t2', 'False')), '/nodes'))).toEqual([
      { op: 'replace', path: '/status/conditions/0/status', value: 'False' },
    ]);
  });

  it("a Lease's renewTime is a heartbeat; its holder is not; another kind's renewTime is kept", () => {
    const lease = (holder: string, renew: string) => ({
      metadata: {},
      spec: { holderIdentity: holder, renewTime: renew },
    });
    const l = (o: object) => versionOfObject(o as Record<string, unknown>, 'coordination.k8s.io/leases');
    expect(diff(l(lease('a', '1')), l(lease('a', '2')))).toEqual([]);
    expect(diff(l(lease('a', '1')), l(lease('b', '2')))).toEqual([
      { op: 'replace', path: '/spec/holderIdentity', value: 'b' },
    ]);
    const o = (o: object) => versionOfObject(o as Record<string, unknown>, 'x/ys');
    expect(diff(o(lease('a', '1')), o(lease('a', '2')))).toHaveLength(1);
    expect(withoutHeartbeats({ spec: { holderIdentity: 'a' } }, 'coordination.k8s.io/leases')).toEqual({
      spec: { holderIdentity: 'a' },
    });
  });

  it('the leader-election annotation is left out of any kind; other annotations stay', () => {
    const cm = (leader: string, other: string) => ({
      metadata: { annotations: { [LEADER_ANNOTATION]: leader, other } },
    });
    const v = (o: object) => versionOfObject(o as Record<string, unknown>, '/configmaps');
    expect(diff(v(cm('{"renewTime":1}', 'x')), v(cm('{"renewTime":2}', 'x')))).toEqual([]);
    expect(diff(v(cm('1', 'x')), v(cm('1', 'y')))).toEqual([
      { op: 'replace', path: '/metadata/annotations/other', value: 'y' },
    ]);
    expect(v(cm('1', 'x')).comparable).toEqual({ metadata: { annotations: { other: 'x' } } });
  });

  it("an HPA's currentMetrics are a measurement; its desiredReplicas are kept; another kind's currentMetrics too", () => {
    const hpa = (cpu: number, desired: number) => ({
      status: { currentMetrics: [{ cpu }], desiredReplicas: desired },
    });
    const h = (o: object) =>
      versionOfObject(o as Record<string, unknown>, 'autoscaling/horizontalpodautoscalers');
    expect(diff(h(hpa(10, 2)), h(hpa(90, 2)))).toEqual([]);
    expect(diff(h(hpa(10, 2)), h(hpa(90, 3)))).toEqual([
      { op: 'replace', path: '/status/desiredReplicas', value: 3 },
    ]);
    const x = (o: object) => versionOfObject(o as Record<string, unknown>, 'x/ys');
    expect(diff(x(hpa(10, 2)), x(hpa(90, 2)))).toHaveLength(1);
  });

  it('leaves an object without those fields as it is (the same object)', () => {
    const o = { metadata: { annotations: { a: '1' } }, status: { phase: 'Running' }, spec: {} };
    expect(withoutHeartbeats(o, 'coordination.k8s.io/leases')).toBe(o);
    expect(withoutHeartbeats(o, '/nodes')).toBe(o);
  });
});

describe('applied', () => {
  it('applies a patch to a copy; a patch that does not apply throws', () => {
    const obj = { spec: { replicas: 1 } };
    expect(applied(obj, [{ op: 'replace', path: '/spec/replicas', value: 2 }])).toEqual({
      spec: { replicas: 2 },
    });
    expect(obj.spec.replicas).toBe(1);
    expect(() => applied(obj, [{ op: 'remove', path: '/spec/missing/x' }])).toThrow();
  });
});
