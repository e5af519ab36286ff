import { describe, expect, it } from 'vitest';
import { podStatus, readyCount, restarts } from './status';
import type { Pod } from './types';

const meta = { name: 'p', namespace: 'n' };

describe('podStatus (kubectl STATUS column)', () => {
  it('shows the waiting reason of a container', () => {
    const pod: Pod = {
      metadata: meta,
      status: {
        phase: 'Running',
        containerStatuses: [{ name: 'a', state: { waiting: { reason: 'CrashLoopBackOff' } } }],
      },
    };
    expect(podStatus(pod)).toBe('CrashLoopBackOff');
  });
  it('shows init progress and init failures', () => {
    const base = { metadata: meta, spec: { initContainers: [{ name: 'i1' }, { name: 'i2' }] } };
    expect(
      podStatus({
        ...base,
        status: {
          phase: 'Pending',
          initContainerStatuses: [
            { name: 'i1', state: { terminated: { exitCode: 0 } } },
            { name: 'i2', state: { running: {} } },
          ],
        },
      }),
    ).toBe('Init:1/2');
    expect(
      podStatus({
        ...base,
        status: {
          phase: 'Pending',
          initContainerStatuses: [{ name: 'i1', state: { terminated: { exitCode: 2 } } }],
        },
      }),
    ).toBe('Init:ExitCode:2');
  });
  it('prefers the pod reason (Evicted) and Terminating while deleting', () => {
    expect(podStatus({ metadata: meta, status: { phase: 'Failed', reason: 'Evicted' } })).toBe('Evicted');
    expect(
      podStatus({
        metadata: { ...meta, deletionTimestamp: '2026-01-01T00:00:00Z' },
        status: { phase: 'Running' },
      }),
    ).toBe('Terminating');
  });
  it('counts ready containers and restarts', () => {
    const pod: Pod = {
      metadata: meta,
      spec: { containers: [{ name: 'a' }, { name: 'b' }] },
      status: {
        containerStatuses: [
          { name: 'a', ready: true, restartCount: 2 },
          { name: 'b', ready: false, restartCount: 3 },
        ],
      },
    };
    expect(readyCount(pod)).toEqual({ ready: 1, total: 2 });
    expect(restarts(pod)).toBe(5);
  });
});
