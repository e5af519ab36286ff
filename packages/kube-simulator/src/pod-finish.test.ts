import { describe, expect, it } from 'vitest';
import { finishPod } from './pod-finish';
import { SimStore } from './store';
import type { Pod } from './types';

function podStore(restartPolicy: string): SimStore {
  const store = new SimStore();
  store.upsert({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'jobs' } });
  store.upsert({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'task', namespace: 'jobs' },
    spec: {
      restartPolicy,
      containers: [
        { name: 'a', image: 'x' },
        { name: 'b', image: 'x' },
      ],
    },
    status: {
      phase: 'Running',
      conditions: [],
      containerStatuses: ['a', 'b'].map((name) => ({
        name,
        image: 'x',
        imageID: '',
        ready: false,
        started: false,
        restartCount: 0,
        state: { waiting: { reason: 'ContainerCreating' } },
        lastState: {},
      })),
    },
  });
  for (const c of ['a', 'b']) store.startContainer('jobs', 'task', c);
  return store;
}

describe('finishPod', () => {
  it('ends every running container for good and marks the pod Succeeded on exit 0', () => {
    const store = podStore('Never');
    const pod = finishPod(store, 'jobs', 'task') as Pod;
    expect(pod.status.phase).toBe('Succeeded');
    for (const s of pod.status.containerStatuses ?? []) {
      expect(s.state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
      expect(s.restartCount).toBe(0);
    }
    expect(store.peek('pods', 'jobs', 'task')).toMatchObject({ status: { phase: 'Succeeded' } });
  });

  it('marks it Failed with the exit code and reason given', () => {
    const pod = finishPod(podStore('Never'), 'jobs', 'task', {
      exitCode: 3,
      reason: 'DeadlineExceeded',
    }) as Pod;
    expect(pod.status.phase).toBe('Failed');
    expect(pod.status.containerStatuses?.[1]?.state.terminated).toMatchObject({
      exitCode: 3,
      reason: 'DeadlineExceeded',
    });
  });

  it('leaves a container that already ended, and refuses an Always pod or a missing one', () => {
    const store = podStore('OnFailure');
    store.terminateContainer('jobs', 'task', 'a', { exitCode: 0 });
    const pod = finishPod(store, 'jobs', 'task') as Pod;
    expect(pod.status.phase).toBe('Succeeded');
    expect(() => finishPod(podStore('Always'), 'jobs', 'task')).toThrow(
      'pod task has restartPolicy Always: only a Never or OnFailure pod finishes',
    );
    expect(() => finishPod(store, 'jobs', 'nope')).toThrow('pods "nope" not found in namespace jobs');
  });
});
