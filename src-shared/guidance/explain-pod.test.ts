import { describe, expect, it } from 'vitest';
import { explainPod, type PodLike } from './explain-pod';

describe('explainPod', () => {
  it('explains CrashLoopBackOff caused by OOMKilled', () => {
    const pod: PodLike = {
      status: {
        phase: 'Running',
        conditions: [
          { type: 'PodScheduled', status: 'True' },
          { type: 'Initialized', status: 'True' },
          {
            type: 'ContainersReady',
            status: 'False',
            reason: 'ContainersNotReady',
            message: 'containers with unready status: [api]',
          },
          { type: 'Ready', status: 'False', reason: 'ContainersNotReady' },
        ],
        containerStatuses: [
          {
            name: 'api',
            ready: false,
            restartCount: 5,
            state: {
              waiting: {
                reason: 'CrashLoopBackOff',
                message: 'back-off 2m40s restarting failed container=api pod=api-7d9c_default',
              },
            },
            lastState: { terminated: { exitCode: 137, reason: 'OOMKilled' } },
          },
          { name: 'sidecar', ready: true, restartCount: 0, state: { running: {} } },
        ],
      },
    };
    const f = explainPod(pod);
    expect(f.map((x) => [x.source, x.container ?? '', x.reason])).toEqual([
      ['phase', '', 'Running'],
      ['waiting', 'api', 'CrashLoopBackOff'],
      ['last-terminated', 'api', 'OOMKilled'],
      ['condition', '', 'ContainersReady'],
      ['condition', '', 'Ready'],
    ]);
    const waiting = f[1]!;
    expect(waiting.severity).toBe('error');
    expect(waiting.guidance?.id).toBe('waiting-crashloopbackoff');
    expect(waiting.message).toMatch(/back-off/);
    const last = f[2]!;
    expect(last.guidance?.id).toBe('terminated-oomkilled');
    expect(last.exitCode?.code).toBe(137);
    expect(last.exitCode?.signalName).toBe('SIGKILL');
    expect(f[3]?.guidance?.id).toBe('pod-condition-containersready-false');
    expect(f[3]?.message).toContain('[api]');
  });

  it('explains ImagePullBackOff', () => {
    const f = explainPod({
      status: {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'True' }],
        containerStatuses: [
          {
            name: 'web',
            ready: false,
            restartCount: 0,
            state: {
              waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "nginx:1.999"' },
            },
            lastState: {},
          },
        ],
      },
    });
    expect(f.map((x) => x.reason)).toEqual(['Pending', 'ImagePullBackOff']);
    const pull = f[1]!;
    expect(
      pull.guidance?.checks.some(
        (c) => c.action?.kind === 'show-field' && c.action.path === 'spec.imagePullSecrets',
      ),
    ).toBe(true);
    expect(pull.exitCode).toBeUndefined();
  });

  it('explains a Pending, unschedulable pod with the parsed scheduler message', () => {
    const f = explainPod({
      status: {
        phase: 'Pending',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message:
              '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
          },
        ],
      },
    });
    expect(f.map((x) => x.reason)).toEqual(['Pending', 'PodScheduled']);
    const cond = f[1]!;
    expect(cond.guidance?.id).toBe('pod-condition-podscheduled-false');
    expect(cond.scheduling?.reasons).toEqual([
      { count: 3, reason: 'Insufficient cpu', hint: expect.any(String) },
    ]);
    expect(cond.scheduling?.preemption?.total).toBe(3);
  });

  it('explains an evicted pod through its pod-level reason', () => {
    const f = explainPod({
      status: {
        phase: 'Failed',
        reason: 'Evicted',
        message: 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 80Mi.',
        containerStatuses: [
          {
            name: 'app',
            state: { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown' } },
            restartCount: 0,
          },
        ],
      },
    });
    expect(f.map((x) => [x.source, x.reason])).toEqual([
      ['phase', 'Failed'],
      ['pod-reason', 'Evicted'],
      ['terminated', 'ContainerStatusUnknown'],
    ]);
    expect(f[1]?.guidance?.match).toBe('Evicted');
    expect(f[1]?.message).toMatch(/low on resource/);
    expect(f[2]?.exitCode?.code).toBe(137);
  });

  it('reports a failing init container but not completed ones', () => {
    const f = explainPod({
      status: {
        phase: 'Pending',
        conditions: [{ type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized' }],
        initContainerStatuses: [
          { name: 'wait', state: { terminated: { exitCode: 0, reason: 'Completed' } }, restartCount: 0 },
          {
            name: 'migrate',
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 1, reason: 'Error' } },
            restartCount: 3,
          },
        ],
        containerStatuses: [
          { name: 'app', state: { waiting: { reason: 'PodInitializing' } }, restartCount: 0 },
        ],
      },
    });
    expect(f.map((x) => [x.source, x.container ?? '', x.reason, x.initContainer ?? false])).toEqual([
      ['phase', '', 'Pending', false],
      ['waiting', 'migrate', 'CrashLoopBackOff', true],
      ['last-terminated', 'migrate', 'Error', true],
      ['waiting', 'app', 'PodInitializing', false],
      ['condition', '', 'Initialized', false],
    ]);
    expect(f[2]?.exitCode?.title).toMatch(/application error/);
  });

  it('keeps a finished Job pod quiet', () => {
    const f = explainPod({
      status: {
        phase: 'Succeeded',
        conditions: [{ type: 'Ready', status: 'False', reason: 'PodCompleted' }],
        containerStatuses: [
          { name: 'job', state: { terminated: { exitCode: 0, reason: 'Completed' } }, restartCount: 0 },
        ],
      },
    });
    expect(f.map((x) => x.severity)).toEqual(['info', 'info']);
  });

  it('copes with empty and null-ish objects', () => {
    expect(explainPod({})).toEqual([]);
    expect(explainPod({ status: null })).toEqual([]);
    const f = explainPod({
      status: {
        phase: 'Weird',
        containerStatuses: [{ name: 'x', state: { waiting: { reason: 'NewReason' } } }],
      },
    });
    expect(f[0]).toMatchObject({ reason: 'Weird', severity: 'warning' });
    expect(f[0]?.guidance).toBeUndefined();
    expect(f[1]).toMatchObject({ reason: 'NewReason', severity: 'warning' });
  });
});
