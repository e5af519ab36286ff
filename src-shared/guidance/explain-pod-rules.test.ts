import { describe, expect, it } from 'vitest';
import { type ContainerStatusLike, explainPod, type PodConditionLike } from './explain-pod';

const withContainers = (
  containerStatuses: ContainerStatusLike[],
  initContainerStatuses?: ContainerStatusLike[],
) =>
  explainPod({ status: { containerStatuses, ...(initContainerStatuses ? { initContainerStatuses } : {}) } });
const withConditions = (conditions: PodConditionLike[], phase?: string) =>
  explainPod({ status: { conditions, ...(phase ? { phase } : {}) } });

describe('container findings', () => {
  it('a container with no state reported yet is no finding', () => {
    expect(withContainers([{ name: 'app' }, { name: 'side', state: null }])).toEqual([]);
  });

  it('a completed init container is normal, a completed app container is reported', () => {
    const done = { terminated: { exitCode: 0 } };
    expect(withContainers([], [{ name: 'init', state: done }])).toEqual([]);
    const findings = withContainers([{ name: 'app', state: done }]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      source: 'terminated',
      container: 'app',
      reason: 'Completed',
      severity: 'info',
    });
    const failedInit = withContainers([], [{ name: 'init', state: { terminated: { exitCode: 3 } } }]);
    expect(failedInit[0]).toMatchObject({ container: 'init', initContainer: true, reason: 'Error' });
  });

  it('a termination with a reason of no entry is info when it exited 0 and an error otherwise', () => {
    const [ok] = withContainers([{ name: 'a', state: { terminated: { exitCode: 0, reason: 'Tidied' } } }]);
    expect(ok).toMatchObject({ reason: 'Tidied', severity: 'info' });
    expect(ok).not.toHaveProperty('guidance');
    const [bad] = withContainers([
      { name: 'b', state: { terminated: { exitCode: 2, reason: 'Tidied', message: 'gone' } } },
    ]);
    expect(bad).toMatchObject({ reason: 'Tidied', severity: 'error', message: 'gone' });
    expect(bad?.exitCode?.code).toBe(2);
  });

  it('the last termination is reported for a waiting or restarted container only', () => {
    const lastState = { terminated: { exitCode: 137, reason: 'OOMKilled' } };
    const running = { running: {} };
    const last = (cs: ContainerStatusLike) =>
      withContainers([cs]).filter((f) => f.source === 'last-terminated');
    expect(last({ name: 'a', state: running, lastState, restartCount: 0 })).toEqual([]);
    expect(last({ name: 'a', state: running, lastState })).toEqual([]);
    expect(last({ name: 'a', state: running, lastState, restartCount: 2 })).toHaveLength(1);
    const waiting = { waiting: { reason: 'ContainerCreating' } };
    const behindWaiting = last({ name: 'a', state: waiting, lastState, restartCount: 0 });
    expect(behindWaiting).toHaveLength(1);
    expect(behindWaiting[0]?.exitCode?.signalName).toBe('SIGKILL');
  });
});

describe('condition findings', () => {
  it('DisruptionTarget is a finding when True; other conditions when not True', () => {
    const found = withConditions([
      { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI' },
      { type: 'Ready', status: 'True' },
      { type: 'ContainersReady', status: 'False' },
    ]).map((f) => f.reason);
    expect(found).toEqual(['DisruptionTarget', 'ContainersReady']);
    expect(withConditions([{ type: 'DisruptionTarget', status: 'False' }])).toEqual([]);
  });

  it('a finished pod being not ready is no finding', () => {
    expect(withConditions([{ type: 'Ready', status: 'False', reason: 'PodCompleted' }])).toEqual([]);
    const succeeded = withConditions([{ type: 'Ready', status: 'False' }], 'Succeeded');
    expect(succeeded.filter((f) => f.source === 'condition')).toEqual([]);
    const failed = withConditions([{ type: 'Ready', status: 'False' }], 'Failed');
    expect(failed.filter((f) => f.source === 'condition')).toHaveLength(1);
  });

  it('a failing condition without an entry is a warning', () => {
    const [f] = withConditions([{ type: 'example.com/Gate', status: 'False' }]);
    expect(f).toMatchObject({ source: 'condition', reason: 'example.com/Gate', severity: 'warning' });
    expect(f).not.toHaveProperty('guidance');
  });

  it('only an unschedulable PodScheduled message is read as a scheduling failure', () => {
    const message = '0/3 nodes are available: 3 Insufficient memory.';
    const [scheduled] = withConditions([{ type: 'PodScheduled', status: 'False', message }]);
    expect(scheduled?.scheduling).toMatchObject({ available: 0, total: 3 });
    const [other] = withConditions([{ type: 'Initialized', status: 'False', message }]);
    expect(other).not.toHaveProperty('scheduling');
    const [unreadable] = withConditions([
      { type: 'PodScheduled', status: 'False', message: 'waiting for a gate' },
    ]);
    expect(unreadable).not.toHaveProperty('scheduling');
    expect(unreadable?.message).toBe('waiting for a gate');
  });
});

describe('pod-level findings', () => {
  it('a known phase carries its guidance, an unknown one is a warning without', () => {
    const [failed] = explainPod({ status: { phase: 'Failed' } });
    expect(failed?.guidance?.match).toBe('Failed');
    expect(failed?.severity).toBe('error');
    const [odd] = explainPod({ status: { phase: 'Hibernating' } });
    expect(odd).toMatchObject({ source: 'phase', reason: 'Hibernating', severity: 'warning' });
    expect(odd).not.toHaveProperty('guidance');
  });

  it('a pod reason without an entry is a warning', () => {
    const [f] = explainPod({ status: { reason: 'SomethingOdd', message: 'why' } });
    expect(f).toMatchObject({
      source: 'pod-reason',
      reason: 'SomethingOdd',
      message: 'why',
      severity: 'warning',
    });
    expect(f).not.toHaveProperty('guidance');
  });
});
