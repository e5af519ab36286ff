import { describe, expect, it } from 'vitest';
import { endedRuns, type PodObject, runKey, runsAtDeletion } from './terminations';

const pod = (statuses: unknown[], inits: unknown[] = []): PodObject =>
  ({
    metadata: { name: 'p', namespace: 'n', uid: 'u1' },
    status: { containerStatuses: statuses, initContainerStatuses: inits },
  }) as PodObject;

const term = (over: Record<string, unknown> = {}) => ({
  exitCode: 1,
  reason: 'Error',
  finishedAt: '2026-11-28T02:10:00Z',
  containerID: 'containerd://a',
  ...over,
});

describe('endedRuns', () => {
  it('name the run a restart replaced by restartCount - 1, read as previous', () => {
    expect(
      endedRuns(
        pod([{ name: 'app', restartCount: 3, state: { running: {} }, lastState: { terminated: term() } }]),
      ),
    ).toEqual([
      {
        container: 'app',
        restartCount: 2,
        finishedAt: '2026-11-28T02:10:00Z',
        exitCode: 1,
        reason: 'Error',
        previous: true,
      },
    ]);
  });

  it('name a run that stays ended by restartCount, read as current', () => {
    expect(
      endedRuns(
        pod([
          {
            name: 'task',
            restartCount: 0,
            state: { terminated: term({ exitCode: 0, reason: 'Completed' }) },
          },
        ]),
      ),
    ).toEqual([
      {
        container: 'task',
        restartCount: 0,
        finishedAt: '2026-11-28T02:10:00Z',
        exitCode: 0,
        reason: 'Completed',
        previous: false,
      },
    ]);
  });

  it('list init containers first, then containers, both runs of one that restarted and then ended', () => {
    const runs = endedRuns(
      pod(
        [
          {
            name: 'app',
            restartCount: 1,
            state: { terminated: term({ exitCode: 3 }) },
            lastState: { terminated: term() },
          },
        ],
        [
          {
            name: 'init',
            restartCount: 0,
            state: { terminated: term({ exitCode: 0, reason: 'Completed' }) },
          },
        ],
      ),
    );
    expect(runs.map((r) => [r.container, r.restartCount, r.previous, r.exitCode])).toEqual([
      ['init', 0, false, 0],
      ['app', 0, true, 1],
      ['app', 1, false, 3],
    ]);
  });

  it('ignore a lastState with no restart counted, running containers, and malformed statuses', () => {
    expect(
      endedRuns(
        pod([{ name: 'app', restartCount: 0, state: { running: {} }, lastState: { terminated: term() } }]),
      ),
    ).toEqual([]);
    expect(endedRuns(pod([{ name: 'app', state: { running: {} }, lastState: {} }]))).toEqual([]);
    expect(endedRuns(pod([{ state: { terminated: term() } }]))).toEqual([]);
    expect(endedRuns({ metadata: { name: 'p' } } as PodObject)).toEqual([]);
    // A negative or fractional count is read as 0: the run that stays ended is run 0.
    expect(
      endedRuns(pod([{ name: 'a', restartCount: -2, state: { terminated: term() } }]))[0]!.restartCount,
    ).toBe(0);
    expect(
      endedRuns(pod([{ name: 'a', restartCount: 1.5, state: { terminated: term() } }]))[0]!.restartCount,
    ).toBe(0);
  });

  it('fill what the kubelet left out: no exit code is null, no reason follows the exit code, no time is null', () => {
    const [a, b, c] = endedRuns(
      pod([
        { name: 'a', restartCount: 0, state: { terminated: { exitCode: 0 } } },
        { name: 'b', restartCount: 0, state: { terminated: { exitCode: 2, reason: '', finishedAt: '' } } },
        { name: 'c', restartCount: 0, state: { terminated: { exitCode: 'x', reason: 7 } } },
      ]),
    );
    expect(a).toMatchObject({ exitCode: 0, reason: 'Completed', finishedAt: null });
    expect(b).toMatchObject({ exitCode: 2, reason: 'Error', finishedAt: null });
    expect(c).toMatchObject({ exitCode: null, reason: 'Error' });
  });

  it('keep the reason the kubelet gave, and read a status without a state', () => {
    const [oom, clean] = endedRuns(
      pod([
        {
          name: 'a',
          restartCount: 1,
          lastState: { terminated: term({ exitCode: 137, reason: 'OOMKilled' }) },
        },
        { name: 'b', restartCount: 0, state: { terminated: { exitCode: 0, reason: '' } } },
      ]),
    );
    expect(oom).toMatchObject({
      container: 'a',
      restartCount: 0,
      exitCode: 137,
      reason: 'OOMKilled',
      previous: true,
    });
    expect(clean).toMatchObject({ container: 'b', exitCode: 0, reason: 'Completed' });
  });
});

describe('runsAtDeletion', () => {
  it('give each container its current run: ended as shown, or Deleted without an exit code while it ran', () => {
    expect(
      runsAtDeletion(
        pod([
          { name: 'web', restartCount: 2, state: { running: {} }, lastState: { terminated: term() } },
          { name: 'job', restartCount: 0, state: { terminated: term({ exitCode: 143 }) } },
          { name: 'waits', restartCount: 1, state: { waiting: { reason: 'CrashLoopBackOff' } } },
          { state: { running: {} } },
        ]),
      ),
    ).toEqual([
      {
        container: 'web',
        restartCount: 2,
        finishedAt: null,
        exitCode: null,
        reason: 'Deleted',
        previous: false,
      },
      {
        container: 'job',
        restartCount: 0,
        finishedAt: '2026-11-28T02:10:00Z',
        exitCode: 143,
        reason: 'Error',
        previous: false,
      },
    ]);
    expect(runsAtDeletion(pod([{ name: 'new', restartCount: 0 }]))).toEqual([]);
  });
});

it('runKey names a run by pod uid, container and restart index', () => {
  expect(runKey('u1', 'app', 3)).toBe('u1/app/3');
});
