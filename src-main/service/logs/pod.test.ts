import { describe, expect, it } from 'vitest';
import {
  type ContainerStatusLike,
  containerNames,
  containerStatus,
  defaultContainer,
  epochOf,
  type PodLike,
  servedInstance,
} from './pod';

const DEFAULT_ANNOTATION = 'kubectl.kubernetes.io/default-container';

function pod(
  containers: string[],
  initContainers: string[] = [],
  annotations?: Record<string, string>,
): PodLike {
  return {
    metadata: { name: 'p', namespace: 'ns', ...(annotations ? { annotations } : {}) },
    spec: {
      containers: containers.map((name) => ({ name })),
      ...(initContainers.length > 0 ? { initContainers: initContainers.map((name) => ({ name })) } : {}),
    },
  };
}

describe('containerStatus', () => {
  const withStatuses: PodLike = {
    metadata: { name: 'p' },
    status: {
      containerStatuses: [
        { name: 'app', containerID: 'c-app' },
        { name: 'sidecar', containerID: 'c-side' },
      ],
      initContainerStatuses: [{ name: 'migrate', containerID: 'c-init' }],
    },
  };

  it('finds a container by name among the containers and then the init containers', () => {
    expect(containerStatus(withStatuses, 'sidecar')?.containerID).toBe('c-side');
    expect(containerStatus(withStatuses, 'app')?.containerID).toBe('c-app');
    expect(containerStatus(withStatuses, 'migrate')?.containerID).toBe('c-init');
    expect(containerStatus(withStatuses, 'nope')).toBeUndefined();
  });

  it('a pod without a status, or with only one kind of status list, has no status for other names', () => {
    expect(containerStatus({ metadata: { name: 'p' } }, 'app')).toBeUndefined();
    expect(
      containerStatus({ metadata: { name: 'p' }, status: { initContainerStatuses: [{ name: 'i' }] } }, 'i')
        ?.name,
    ).toBe('i');
    expect(
      containerStatus({ metadata: { name: 'p' }, status: { containerStatuses: [{ name: 'a' }] } }, 'b'),
    ).toBeUndefined();
  });
});

describe('servedInstance', () => {
  const terminated = (containerID?: string) => ({ exitCode: 1, ...(containerID ? { containerID } : {}) });

  it('is the running instance while the container runs', () => {
    const s: ContainerStatusLike = {
      name: 'a',
      containerID: 'now',
      state: { running: {} },
      lastState: { terminated: terminated('before') },
    };
    expect(servedInstance(s)).toBe('now');
  });

  it('is the terminated instance once the container stopped, falling back to the status container ID', () => {
    expect(
      servedInstance({
        name: 'a',
        containerID: 'status-id',
        state: { terminated: terminated('ended') },
        lastState: { terminated: terminated('older') },
      }),
    ).toBe('ended');
    expect(servedInstance({ name: 'a', containerID: 'status-id', state: { terminated: terminated() } })).toBe(
      'status-id',
    );
  });

  it('is the last terminated instance while the container waits to restart', () => {
    expect(
      servedInstance({
        name: 'a',
        containerID: 'status-id',
        state: { waiting: { reason: 'CrashLoopBackOff' } },
        lastState: { terminated: terminated('last') },
      }),
    ).toBe('last');
  });

  it('is none for a container that never ran, or no status at all', () => {
    expect(
      servedInstance({ name: 'a', state: { waiting: { reason: 'ContainerCreating' } } }),
    ).toBeUndefined();
    expect(servedInstance({ name: 'a', containerID: 'x', state: {}, lastState: {} })).toBeUndefined();
    expect(servedInstance({ name: 'a', containerID: 'x' })).toBeUndefined();
    expect(servedInstance(undefined)).toBeUndefined();
  });
});

describe('containerNames', () => {
  it('lists containers and init containers apart, in spec order', () => {
    expect(containerNames(pod(['web', 'app'], ['init-b', 'init-a']))).toEqual({
      containers: ['web', 'app'],
      initContainers: ['init-b', 'init-a'],
    });
  });

  it('a pod without a spec or without init containers has empty lists', () => {
    expect(containerNames({ metadata: { name: 'p' } })).toEqual({ containers: [], initContainers: [] });
    expect(containerNames(pod(['app']))).toEqual({ containers: ['app'], initContainers: [] });
  });
});

describe('defaultContainer', () => {
  it('is the first container when nothing is annotated', () => {
    expect(defaultContainer(pod(['web', 'app']))).toBe('web');
    expect(defaultContainer({ metadata: { name: 'p' } })).toBeUndefined();
  });

  it('is the annotated container when the pod has it, an init container included', () => {
    expect(defaultContainer(pod(['web', 'app'], [], { [DEFAULT_ANNOTATION]: 'app' }))).toBe('app');
    expect(defaultContainer(pod(['web', 'app'], ['setup'], { [DEFAULT_ANNOTATION]: 'setup' }))).toBe('setup');
  });

  it('ignores an annotation naming a container the pod does not have, or another annotation', () => {
    expect(defaultContainer(pod(['web', 'app'], ['setup'], { [DEFAULT_ANNOTATION]: 'gone' }))).toBe('web');
    expect(defaultContainer(pod(['web', 'app'], [], { [DEFAULT_ANNOTATION]: '' }))).toBe('web');
    expect(defaultContainer(pod(['web', 'app'], [], { 'other/default-container': 'app' }))).toBe('web');
  });
});

describe('epochOf', () => {
  it('reads an RFC 3339 time as epoch milliseconds', () => {
    expect(epochOf('2026-11-24T10:00:01.250Z')).toBe(Date.UTC(2026, 10, 24, 10, 0, 1, 250));
  });

  it('is undefined for a missing, empty or unreadable time', () => {
    expect(epochOf(undefined)).toBeUndefined();
    expect(epochOf('')).toBeUndefined();
    expect(epochOf('yesterday')).toBeUndefined();
  });
});
