import { describe, expect, it } from 'vitest';
import { isFailingPod, logTargets, type PodLike } from './log-targets';

const running = { running: { startedAt: '2026-01-01T00:00:00Z' } };
const pod = (status: NonNullable<PodLike['status']>): PodLike => ({
  metadata: { name: 'p', namespace: 'ns' },
  status,
});
const ready = (name: string, extra: object = {}) => ({
  name,
  ready: true,
  restartCount: 0,
  state: running,
  ...extra,
});

describe('isFailingPod', () => {
  it('is true for a failed or lost pod and false for one that succeeded', () => {
    expect(isFailingPod(pod({ phase: 'Failed' }))).toBe(true);
    expect(isFailingPod(pod({ phase: 'Unknown' }))).toBe(true);
    expect(
      isFailingPod(pod({ phase: 'Succeeded', containerStatuses: [ready('a', { restartCount: 3 })] })),
    ).toBe(false);
  });

  it('is false for a running pod whose containers are ready and never restarted', () => {
    expect(isFailingPod(pod({ phase: 'Running', containerStatuses: [ready('a'), ready('b')] }))).toBe(false);
  });

  it('is true when a container restarted, waits for a reason other than starting, exited non-zero or runs unready', () => {
    expect(
      isFailingPod(pod({ phase: 'Running', containerStatuses: [ready('a', { restartCount: 1 })] })),
    ).toBe(true);
    const waiting = (reason: string) =>
      pod({ phase: 'Pending', containerStatuses: [{ name: 'a', state: { waiting: { reason } } }] });
    expect(isFailingPod(waiting('CrashLoopBackOff'))).toBe(true);
    expect(isFailingPod(waiting('ImagePullBackOff'))).toBe(true);
    expect(isFailingPod(waiting('ContainerCreating'))).toBe(false);
    expect(isFailingPod(waiting('PodInitializing'))).toBe(false);
    const exited = pod({
      phase: 'Pending',
      initContainerStatuses: [{ name: 'init', state: { terminated: { exitCode: 2 } } }],
    });
    expect(isFailingPod(exited)).toBe(true);
    expect(isFailingPod(pod({ phase: 'Running', containerStatuses: [ready('a', { ready: false })] }))).toBe(
      true,
    );
  });
});

describe('logTargets', () => {
  const p = pod({
    phase: 'Running',
    initContainerStatuses: [{ name: 'init', state: { terminated: { exitCode: 0 } } }],
    containerStatuses: [
      ready('app', { restartCount: 2, lastState: { terminated: { exitCode: 1 } } }),
      { name: 'never', state: { waiting: { reason: 'ContainerCreating' } } },
      {
        name: 'waiting-again',
        restartCount: 1,
        state: { waiting: { reason: 'CrashLoopBackOff' } },
        lastState: { terminated: { exitCode: 1 } },
      },
    ],
  });

  it('takes each container that ran, and the previous run of each that restarted', () => {
    expect(logTargets(p, 'all')).toEqual([
      { namespace: 'ns', pod: 'p', container: 'init', previous: false },
      { namespace: 'ns', pod: 'p', container: 'app', previous: false },
      { namespace: 'ns', pod: 'p', container: 'app', previous: true },
      { namespace: 'ns', pod: 'p', container: 'waiting-again', previous: false },
      { namespace: 'ns', pod: 'p', container: 'waiting-again', previous: true },
    ]);
  });

  it('takes nothing with none, and only failing pods with failing', () => {
    expect(logTargets(p, 'none')).toEqual([]);
    expect(logTargets(p, 'failing')).toHaveLength(5);
    const healthy = pod({ phase: 'Running', containerStatuses: [ready('a')] });
    expect(logTargets(healthy, 'failing')).toEqual([]);
    expect(logTargets(healthy, 'all')).toEqual([
      { namespace: 'ns', pod: 'p', container: 'a', previous: false },
    ]);
  });
});
