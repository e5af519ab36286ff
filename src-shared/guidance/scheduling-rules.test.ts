import { describe, expect, it } from 'vitest';
import { type FailedSchedulingInfo, parseFailedScheduling, schedulingReasonHint } from './scheduling';

function parsed(message: string): FailedSchedulingInfo {
  const r = parseFailedScheduling(message);
  if (r === null) throw new Error(`expected ${JSON.stringify(message)} to parse`);
  return r;
}

const pairs = (r: FailedSchedulingInfo) => r.reasons.map((x) => [x.count, x.reason]);

describe('splitting the message into reasons', () => {
  it('commas inside [...] belong to the reason, like commas inside {...}', () => {
    const r = parsed(
      '0/5 nodes are available: 2 node(s) had untolerated taints [a=1:NoSchedule,b=2:NoExecute], 3 Insufficient cpu.',
    );
    expect(pairs(r)).toEqual([
      [2, 'node(s) had untolerated taints [a=1:NoSchedule,b=2:NoExecute]'],
      [3, 'Insufficient cpu'],
    ]);
  });

  it('a stray closing brace or bracket does not stop the splitting after it', () => {
    const r = parsed(
      '0/6 nodes are available: 1 node(s) had odd label} x, 2 node(s) had odd label] y, 3 Too many pods.',
    );
    expect(pairs(r)).toEqual([
      [1, 'node(s) had odd label} x'],
      [2, 'node(s) had odd label] y'],
      [3, 'Too many pods'],
    ]);
  });

  it('an empty piece between doubled commas is skipped, the reasons on both sides stay apart', () => {
    const r = parsed('0/5 nodes are available: 2 Insufficient cpu,,3 Insufficient memory.');
    expect(pairs(r)).toEqual([
      [2, 'Insufficient cpu'],
      [3, 'Insufficient memory'],
    ]);
  });

  it('a count of several digits is read whole', () => {
    const r = parsed('0/15 nodes are available: 3 Insufficient cpu, 12 Insufficient memory.');
    expect(pairs(r)).toEqual([
      [3, 'Insufficient cpu'],
      [12, 'Insufficient memory'],
    ]);
  });

  it('a number inside a count-less continuation is not read as a count', () => {
    const r = parsed(
      "0/3 nodes are available: 3 node(s) had taint {dedicated: gpu}, that the pod didn't tolerate on 2 pools.",
    );
    expect(pairs(r)).toEqual([
      [3, "node(s) had taint {dedicated: gpu}, that the pod didn't tolerate on 2 pools"],
    ]);
  });

  it('a continuation is glued onto the reason right before it, also when more reasons follow', () => {
    const r = parsed(
      "0/5 nodes are available: 3 node(s) had taint {team: a}, that the pod didn't tolerate, 1 Insufficient cpu, 1 Too many pods.",
    );
    expect(pairs(r)).toEqual([
      [3, "node(s) had taint {team: a}, that the pod didn't tolerate"],
      [1, 'Insufficient cpu'],
      [1, 'Too many pods'],
    ]);
  });

  it('a count-less reason counts the nodes that are not available', () => {
    const r = parsed('1/4 nodes are available: pod has unbound immediate PersistentVolumeClaims.');
    expect(pairs(r)).toEqual([[3, 'pod has unbound immediate PersistentVolumeClaims']]);
    const pre = parsed(
      '0/4 nodes are available: 4 Insufficient cpu. preemption: 1/4 nodes are available: pod has unbound immediate PersistentVolumeClaims.',
    );
    expect(pre.preemption?.reasons.map((x) => [x.count, x.reason])).toEqual([
      [3, 'pod has unbound immediate PersistentVolumeClaims'],
    ]);
  });
});

describe('the message as a whole', () => {
  it('whitespace around the message is ignored', () => {
    const r = parsed('\n  0/2 nodes are available: 2 Too many pods.  \n');
    expect(r).toMatchObject({ available: 0, total: 2 });
    expect(pairs(r)).toEqual([[2, 'Too many pods']]);
    expect(parsed('  no nodes available to schedule pods\n')).toMatchObject({ available: 0, total: 0 });
  });

  it('the no-nodes sentence is recognised only at the start of the message', () => {
    expect(parseFailedScheduling('binding rejected: no nodes available to schedule pods')).toBeNull();
  });

  it('every trailing dot and space is stripped from the preemption verdict', () => {
    const r = parsed(
      '0/2 nodes are available: 2 Insufficient memory. preemption: not eligible due to preemptionPolicy=Never.. ',
    );
    expect(r.preemption).toEqual({ message: 'not eligible due to preemptionPolicy=Never', reasons: [] });
  });

  it('a second "preemption:" inside the verdict stays part of it', () => {
    const r = parsed(
      '0/2 nodes are available: 2 Insufficient memory. preemption: disabled, preemption: off.',
    );
    expect(r.preemption?.message).toBe('disabled, preemption: off');
  });
});

describe('hints', () => {
  it('a plain resource gets the request hint, an extended resource (with a slash) the device-plugin hint', () => {
    const memory = schedulingReasonHint('Insufficient memory');
    expect(memory).toMatch(/lower the memory request/);
    expect(memory).not.toMatch(/device plugin/);
    const gpu = schedulingReasonHint('Insufficient nvidia.com/gpu');
    expect(gpu).toMatch(/device plugin/);
    expect(gpu).toContain('nvidia.com/gpu');
  });

  it.each([
    ['node(s) had untolerated taint {node.kubernetes.io/memory-pressure: }', /under memory pressure/],
    ['node(s) had untolerated taint {node.kubernetes.io/disk-pressure: }', /under disk pressure/],
    ['node(s) had untolerated taint {node.kubernetes.io/pid-pressure: }', /under pid pressure/],
    ["node(s) didn't have enough free storage", /local storage capacity/],
    ['node(s) did not have enough storage capacity', /local storage capacity/],
    ['node(s) were being deleted', /being deleted/],
  ])('%j gets its own hint', (reason, hint) => {
    expect(schedulingReasonHint(reason)).toMatch(hint);
  });
});
