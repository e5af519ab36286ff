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

describe('isFailingPod with sparse or unusual statuses', () => {
  it('is false for a pod with no status at all, or containers with no state yet', () => {
    expect(isFailingPod({ metadata: { name: 'p' } })).toBe(false);
    expect(isFailingPod({ metadata: { name: 'p' }, status: null })).toBe(false);
    expect(
      isFailingPod(
        pod({ phase: 'Running', initContainerStatuses: [{ name: 'i' }], containerStatuses: [{ name: 'a' }] }),
      ),
    ).toBe(false);
  });

  it('is false while init containers ended with code 0 and the app container is initialising', () => {
    expect(
      isFailingPod(
        pod({
          phase: 'Pending',
          initContainerStatuses: [{ name: 'init', state: { terminated: { exitCode: 0 } } }],
          containerStatuses: [{ name: 'a', ready: false, state: { waiting: { reason: 'PodInitializing' } } }],
        }),
      ),
    ).toBe(false);
  });

  it('counts an unready container only while it runs, in a running pod, and not an init sidecar', () => {
    const unreadyRunning = { name: 'a', ready: false, restartCount: 0, state: running };
    expect(isFailingPod(pod({ phase: 'Running', containerStatuses: [unreadyRunning] }))).toBe(true);
    // Still being created: not running yet, so not ready says nothing.
    expect(
      isFailingPod(
        pod({
          phase: 'Running',
          containerStatuses: [
            ready('a'),
            { name: 'b', ready: false, state: { waiting: { reason: 'ContainerCreating' } } },
          ],
        }),
      ),
    ).toBe(false);
    // A pod that is not Running yet reports no readiness worth counting.
    expect(isFailingPod(pod({ phase: 'Pending', containerStatuses: [unreadyRunning] }))).toBe(false);
    // A sidecar init container runs unready while it starts up; the pod's own containers decide.
    expect(
      isFailingPod(
        pod({ phase: 'Running', initContainerStatuses: [unreadyRunning], containerStatuses: [ready('b')] }),
      ),
    ).toBe(false);
  });

  it('is false for a healthy pod with a running debug container, which always reports unready', () => {
    expect(
      isFailingPod(
        pod({
          phase: 'Running',
          containerStatuses: [ready('a')],
          ephemeralContainerStatuses: [{ name: 'debug', ready: false, restartCount: 0, state: running }],
        }),
      ),
    ).toBe(false);
  });

  it('reads ephemeral containers too: one that restarted makes the pod failing', () => {
    expect(
      isFailingPod(
        pod({
          phase: 'Running',
          containerStatuses: [ready('a')],
          ephemeralContainerStatuses: [{ name: 'debug', restartCount: 1, state: running }],
        }),
      ),
    ).toBe(true);
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

  it('takes ephemeral containers that ran, after the regular ones, and skips containers with no state', () => {
    const debugged = pod({
      phase: 'Running',
      containerStatuses: [ready('app'), { name: 'no-state' }],
      ephemeralContainerStatuses: [
        { name: 'debug', state: { terminated: { exitCode: 0 } } },
        { name: 'debug-pending', state: { waiting: { reason: 'ContainerCreating' } } },
      ],
    });
    expect(logTargets(debugged, 'all').map((t) => t.container)).toEqual(['app', 'debug']);
  });

  it('takes a container whose only run ended before the last restart', () => {
    const restarted = pod({
      phase: 'Running',
      containerStatuses: [
        {
          name: 'a',
          restartCount: 1,
          state: { waiting: { reason: 'ContainerCreating' } },
          lastState: { terminated: { exitCode: 137 } },
        },
      ],
    });
    expect(logTargets(restarted, 'all')).toEqual([
      { namespace: 'ns', pod: 'p', container: 'a', previous: false },
      { namespace: 'ns', pod: 'p', container: 'a', previous: true },
    ]);
  });

  it('gives a pod without a namespace the empty namespace', () => {
    const clusterLess: PodLike = {
      metadata: { name: 'q' },
      status: { phase: 'Running', containerStatuses: [ready('a')] },
    };
    expect(logTargets(clusterLess, 'all')).toEqual([
      { namespace: '', pod: 'q', container: 'a', previous: false },
    ]);
  });
});
