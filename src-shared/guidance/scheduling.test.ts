import { describe, expect, it } from 'vitest';
import { parseFailedScheduling, schedulingReasonHint } from './scheduling';

describe('parseFailedScheduling', () => {
  it('parses the current format with preemption', () => {
    const r = parseFailedScheduling(
      "0/3 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
    expect(r).not.toBeNull();
    expect(r?.available).toBe(0);
    expect(r?.total).toBe(3);
    expect(r?.reasons.map((x) => [x.count, x.reason])).toEqual([
      [1, 'Insufficient memory'],
      [1, 'node(s) had untolerated taint {node.kubernetes.io/not-ready: }'],
      [1, "node(s) didn't match Pod's node affinity/selector"],
    ]);
    expect(r?.reasons[0]?.hint).toMatch(/memory/);
    expect(r?.reasons[1]?.hint).toMatch(/NotReady/);
    expect(r?.reasons[2]?.hint).toMatch(/nodeSelector/);
    expect(r?.preemption).toMatchObject({ available: 0, total: 3 });
    expect(r?.preemption?.reasons).toEqual([
      { count: 3, reason: 'Preemption is not helpful for scheduling', hint: expect.any(String) },
    ]);
  });

  it('keeps old "had taint {…}, that the pod didn\'t tolerate" as one reason', () => {
    const r = parseFailedScheduling(
      "0/5 nodes are available: 2 Insufficient cpu, 3 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate.",
    );
    expect(r?.total).toBe(5);
    expect(r?.reasons).toHaveLength(2);
    expect(r?.reasons[1]).toMatchObject({
      count: 3,
      reason: "node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate",
    });
    expect(r?.reasons[1]?.hint).toMatch(/Control-plane/);
    expect(r?.preemption).toBeUndefined();
  });

  it('does not split taints whose value contains commas or colons', () => {
    const r = parseFailedScheduling(
      '0/4 nodes are available: 2 node(s) had untolerated taint {dedicated: gpu,a100}, 2 node(s) had untolerated taint {team: "a, b"}.',
    );
    expect(r?.reasons.map((x) => x.reason)).toEqual([
      'node(s) had untolerated taint {dedicated: gpu,a100}',
      'node(s) had untolerated taint {team: "a, b"}',
    ]);
    expect(r?.reasons[0]?.hint).toMatch(/toleration/);
  });

  it('handles count-less pod-level reasons and the doubled final dot', () => {
    const r = parseFailedScheduling(
      '0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling..',
    );
    expect(r?.reasons).toEqual([
      {
        count: 1,
        reason: 'pod has unbound immediate PersistentVolumeClaims',
        hint: expect.stringMatching(/PVC/),
      },
    ]);
    expect(r?.preemption?.reasons[0]?.reason).toBe('Preemption is not helpful for scheduling');
  });

  it('parses mixed preemption verdicts', () => {
    const r = parseFailedScheduling(
      '0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 Insufficient cpu. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.',
    );
    expect(r?.reasons.map((x) => x.count)).toEqual([1, 3]);
    expect(r?.preemption?.reasons.map((x) => x.count)).toEqual([1, 3]);
    expect(r?.preemption?.reasons[1]?.hint).toMatch(/lower-priority/);
  });

  it('parses a preemption verdict without counts', () => {
    const r = parseFailedScheduling(
      '0/2 nodes are available: 2 Insufficient memory. preemption: not eligible due to preemptionPolicy=Never.',
    );
    expect(r?.preemption).toEqual({ message: 'not eligible due to preemptionPolicy=Never', reasons: [] });
  });

  it.each([
    ['0/3 nodes are available: 3 node(s) had volume node affinity conflict.', /zone/],
    [
      "0/2 nodes are available: 2 node(s) didn't find available persistent volumes to bind.",
      /PersistentVolume/,
    ],
    ["0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.", /anti-affinity/],
    ["0/3 nodes are available: 3 node(s) didn't match pod affinity rules.", /co-located/],
    ["0/3 nodes are available: 3 node(s) didn't satisfy existing pods anti-affinity rules.", /already/],
    ["0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints.", /topologyKey/],
    ['0/3 nodes are available: 3 node(s) were unschedulable.', /uncordon/],
    ["0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports.", /hostPort/],
    ['0/3 nodes are available: 3 Too many pods.', /pod limit/],
    ['0/3 nodes are available: 3 node(s) exceed max volume count.', /attachment limit/],
    ['0/3 nodes are available: 3 Insufficient nvidia.com/gpu.', /device plugin/],
    ['0/3 nodes are available: persistentvolumeclaim "data" not found.', /PVC "data"/],
  ])('hints for %j', (message, hint) => {
    const r = parseFailedScheduling(message);
    expect(r?.reasons).toHaveLength(1);
    expect(r?.reasons[0]?.hint).toMatch(hint);
  });

  it('handles clusters without nodes', () => {
    const r = parseFailedScheduling('no nodes available to schedule pods');
    expect(r).toMatchObject({ available: 0, total: 0 });
    expect(r?.reasons[0]?.hint).toMatch(/no schedulable nodes/);
  });

  it('returns null for other messages', () => {
    expect(
      parseFailedScheduling('running PreBind plugin "VolumeBinding": binding volumes: timed out'),
    ).toBeNull();
    expect(parseFailedScheduling('')).toBeNull();
  });

  it('leaves unknown reasons without a hint', () => {
    const r = parseFailedScheduling('0/2 nodes are available: 2 node(s) frobnicated.');
    expect(r?.reasons).toEqual([{ count: 2, reason: 'node(s) frobnicated' }]);
    expect(schedulingReasonHint('node(s) frobnicated')).toBeUndefined();
  });
});
