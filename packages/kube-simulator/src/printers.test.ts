import { describe, expect, it } from 'vitest';
import { eventRow, humanDuration, podRow, printerFor, since } from './printers';
import type { ContainerStatus, CoreEvent, Pod, PodCondition } from './types';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('humanDuration (apimachinery duration.HumanDuration)', () => {
  it.each([
    [-2 * S, '<invalid>'],
    [-1 * S, '0s'],
    [-500, '0s'],
    [0, '0s'],
    [S, '1s'],
    [119 * S, '119s'],
    [120 * S, '2m'],
    [190 * S, '3m10s'],
    [9 * M + 59 * S, '9m59s'],
    [10 * M + 30 * S, '10m'],
    [70 * M, '70m'],
    [179 * M, '179m'],
    [3 * H, '3h'],
    [5 * H + 20 * M, '5h20m'],
    [7 * H + 59 * M, '7h59m'],
    [8 * H + 30 * M, '8h'],
    [47 * H, '47h'],
    [48 * H, '2d'],
    [49 * H, '2d1h'],
    [8 * D - H, '7d23h'],
    [8 * D + 2 * H, '8d'],
    [367 * D, '367d'],
    [730 * D, '2y'],
    [731 * D + H, '2y1d'],
    [8 * 365 * D - D, '7y364d'],
    [8 * 365 * D + 2 * H, '8y'],
    [8 * 365 * D + 10 * D, '8y'],
  ])('%d ms is %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });

  it('says <unknown> for a time that is missing or not a time', () => {
    expect(since(undefined, 0)).toBe('<unknown>');
    expect(since(null, 0)).toBe('<unknown>');
    expect(since('', 0)).toBe('<unknown>');
    expect(since('yesterday', 0)).toBe('<unknown>');
    expect(since('2026-03-01T12:00:00Z', Date.parse('2026-03-01T12:05:00Z'))).toBe('5m');
  });
});

const NOW = Date.parse('2026-03-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

function container(name: string, state: ContainerStatus['state'], extra: Partial<ContainerStatus> = {}) {
  return {
    name,
    image: 'img',
    imageID: '',
    ready: false,
    restartCount: 0,
    state,
    lastState: {},
    ...extra,
  } satisfies ContainerStatus;
}

const running = { running: { startedAt: ago(M) } };

function pod(over: {
  status?: Partial<Pod['status']>;
  spec?: Partial<Pod['spec']>;
  deleting?: boolean;
}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-1',
      namespace: 'shop',
      uid: 'u',
      resourceVersion: '1',
      creationTimestamp: ago(3 * D),
      ...(over.deleting ? { deletionTimestamp: ago(S) } : {}),
    },
    spec: { containers: [{ name: 'app', image: 'img' }], ...over.spec },
    status: { phase: 'Running', ...over.status },
  };
}

const cells = (p: Pod) => podRow(p, NOW).cells;
const statusOf = (p: Pod) => cells(p)[2];

const condition = (type: string, status: PodCondition['status'], reason?: string): PodCondition => ({
  type,
  status,
  ...(reason ? { reason } : {}),
  lastProbeTime: null,
  lastTransitionTime: ago(M),
});

describe('podRow (printPod)', () => {
  it('prints name, ready, status, restarts, age and the wide columns', () => {
    const p = pod({
      status: {
        containerStatuses: [container('app', running, { ready: true })],
        podIPs: [{ ip: '10.0.0.7' }, { ip: 'fd00::7' }],
        nominatedNodeName: 'worker-9',
        conditions: [
          condition('Ready', 'True'),
          condition('example.com/gate', 'True'),
          condition('example.com/off', 'False'),
        ],
      },
      spec: {
        nodeName: 'worker-1',
        readinessGates: [
          { conditionType: 'example.com/gate' },
          { conditionType: 'example.com/off' },
          { conditionType: 'example.com/missing' },
        ],
      },
    });
    expect(podRow(p, NOW)).toEqual({
      cells: ['web-1', '1/1', 'Running', '0', '3d', '10.0.0.7', 'worker-1', 'worker-9', '1/3'],
    });
    const none = ['<none>', '<none>', '<none>', '<none>'];
    expect(cells(pod({}))).toEqual(['web-1', '0/1', 'Running', '0', '3d', ...none]);
    const gatedNoConditions = pod({
      spec: { readinessGates: [{ conditionType: 'example.com/gate' }] },
      status: { podIPs: [] },
    });
    expect(cells(gatedNoConditions).slice(5)).toEqual(['<none>', '<none>', '<none>', '0/1']);
  });

  it('prints a captured pod that lacks its spec, its status or a container state', () => {
    const bare = { ...pod({}), spec: undefined, status: undefined } as unknown as Pod;
    expect(cells(bare).slice(1, 4)).toEqual(['0/0', '', '0']);
    const stateless = { name: 'app', image: 'i', ready: true, restartCount: 1 } as unknown as ContainerStatus;
    expect(cells(pod({ status: { containerStatuses: [stateless] } })).slice(1, 4)).toEqual([
      '0/1',
      'Running',
      '1',
    ]);
    const initStateless = { name: 'migrate', restartCount: 0 } as unknown as ContainerStatus;
    const init = pod({
      spec: { initContainers: [{ name: 'migrate', image: 'i' }] },
      status: { phase: 'Pending', initContainerStatuses: [initStateless] },
    });
    expect(statusOf(init)).toBe('Init:0/1');
  });

  it('counts a container as ready only when it is ready and running', () => {
    const unready = pod({ status: { containerStatuses: [container('app', running)] } });
    expect(cells(unready).slice(1, 3)).toEqual(['0/1', 'Running']);
    const stopped = pod({ status: { containerStatuses: [container('app', {}, { ready: true })] } });
    expect(cells(stopped).slice(1, 3)).toEqual(['0/1', 'Running']);
  });

  it('takes the pod reason over the phase, and SchedulingGated from the PodScheduled condition', () => {
    expect(statusOf(pod({ status: { phase: 'Failed', reason: 'Evicted' } }))).toBe('Evicted');
    const pending = (...conditions: PodCondition[]) =>
      statusOf(pod({ status: { phase: 'Pending', conditions } }));
    expect(pending(condition('Ready', 'False'), condition('PodScheduled', 'False', 'SchedulingGated'))).toBe(
      'SchedulingGated',
    );
    expect(pending(condition('PodScheduled', 'False', 'Unschedulable'))).toBe('Pending');
    expect(
      pending(
        condition('Ready', 'False', 'SchedulingGated'),
        condition('PodScheduled', 'False', 'Unschedulable'),
      ),
    ).toBe('Pending');
  });

  it('says which init container holds the pod up, and how', () => {
    const spec = {
      initContainers: [
        { name: 'migrate', image: 'i' },
        { name: 'seed', image: 'i' },
      ],
    };
    // As the kubelet reports a pod still initialising: its containers wait in PodInitializing.
    const conditions = [condition('PodScheduled', 'True'), condition('Initialized', 'False')];
    const containerStatuses = [container('app', { waiting: { reason: 'PodInitializing' } })];
    const initPod = (...statuses: ContainerStatus[]) =>
      pod({
        spec,
        status: { phase: 'Pending', initContainerStatuses: statuses, containerStatuses, conditions },
      });
    const init = (...statuses: ContainerStatus[]) => statusOf(initPod(...statuses));
    const done = container('migrate', { terminated: { exitCode: 0, reason: 'Completed' } });
    const seed = container('seed', running, { started: true });
    expect(cells(initPod(done, seed)).slice(1, 4)).toEqual(['0/1', 'Init:1/2', '0']);
    expect(init(container('migrate', { waiting: { reason: 'PodInitializing' } }))).toBe('Init:0/2');
    const failing = container(
      'seed',
      { waiting: { reason: 'CrashLoopBackOff' } },
      { restartCount: 3, lastState: { terminated: { exitCode: 1, finishedAt: ago(20 * S) } } },
    );
    expect(cells(initPod(done, failing)).slice(1, 4)).toEqual([
      '0/1',
      'Init:CrashLoopBackOff',
      '3 (20s ago)',
    ]);
    expect(init(container('migrate', { terminated: { exitCode: 137, reason: 'OOMKilled' } }))).toBe(
      'Init:OOMKilled',
    );
    expect(init(container('migrate', { terminated: { exitCode: 3 } }))).toBe('Init:ExitCode:3');
    expect(init(container('migrate', { terminated: { exitCode: 137, signal: 9 } }))).toBe('Init:Signal:9');
  });

  it('counts a sidecar that has not started as holding the pod up, unless the pod says it is initialised', () => {
    const spec = { initContainers: [{ name: 'proxy', image: 'i', restartPolicy: 'Always' }] };
    const proxy = container('proxy', running, { started: false, restartCount: 1 });
    const app = container('app', running, { ready: true, restartCount: 2 });
    const initialized = (state: 'True' | 'False') =>
      pod({
        spec,
        status: {
          initContainerStatuses: [proxy],
          containerStatuses: [app],
          conditions: [condition('PodScheduled', 'True'), condition('Initialized', state)],
        },
      });
    expect(cells(initialized('False')).slice(1, 4)).toEqual(['0/2', 'Init:0/1', '1']);
    expect(cells(initialized('True')).slice(1, 4)).toEqual(['1/2', 'Init:0/1', '3']);
    const startedNotReady = pod({
      spec,
      status: {
        initContainerStatuses: [container('proxy', running, { started: true })],
        containerStatuses: [app],
      },
    });
    expect(cells(startedNotReady).slice(1, 3)).toEqual(['1/2', 'Running']);
  });

  it('drops the restarts of init containers that ran to completion once the pod is initialised', () => {
    const p = pod({
      spec: { initContainers: [{ name: 'migrate', image: 'i' }] },
      status: {
        initContainerStatuses: [
          container(
            'migrate',
            { terminated: { exitCode: 0, reason: 'Completed' } },
            { restartCount: 2, lastState: { terminated: { exitCode: 1, finishedAt: ago(H) } } },
          ),
        ],
        containerStatuses: [container('app', running, { ready: true })],
        conditions: [condition('Initialized', 'True')],
      },
    });
    expect(cells(p).slice(1, 4)).toEqual(['1/1', 'Running', '0']);
  });

  it('counts a started sidecar (restartPolicy Always) as a container, and its restarts once initialised', () => {
    const p = pod({
      spec: { initContainers: [{ name: 'proxy', image: 'i', restartPolicy: 'Always' }] },
      status: {
        initContainerStatuses: [
          container('proxy', running, {
            ready: true,
            started: true,
            restartCount: 2,
            lastState: { terminated: { exitCode: 1, finishedAt: ago(10 * M) } },
          }),
        ],
        containerStatuses: [container('app', running, { ready: true, restartCount: 1 })],
        conditions: [condition('Initialized', 'True')],
      },
    });
    expect(cells(p).slice(1, 4)).toEqual(['2/2', 'Running', '3 (10m ago)']);
  });

  it('shows the reason of the first container that has one, and the latest restart with the count', () => {
    const p = pod({
      spec: {
        containers: [
          { name: 'app', image: 'i' },
          { name: 'envoy', image: 'i' },
        ],
      },
      status: {
        containerStatuses: [
          container(
            'app',
            { waiting: { reason: 'CrashLoopBackOff' } },
            { restartCount: 7, lastState: { terminated: { exitCode: 1, finishedAt: ago(2 * H) } } },
          ),
          container('envoy', running, {
            ready: true,
            restartCount: 1,
            lastState: { terminated: { exitCode: 1, finishedAt: ago(40 * S) } },
          }),
        ],
      },
    });
    expect(cells(p).slice(1, 4)).toEqual(['1/2', 'CrashLoopBackOff', '8 (40s ago)']);
    const twoReasons = pod({
      status: {
        containerStatuses: [
          container('app', { waiting: { reason: 'CrashLoopBackOff' } }),
          container('envoy', { terminated: { exitCode: 1, reason: 'Error' } }),
        ],
      },
    });
    expect(statusOf(twoReasons)).toBe('CrashLoopBackOff');
    const exited = pod({
      status: { containerStatuses: [container('app', { terminated: { exitCode: 2 } })] },
    });
    expect(statusOf(exited)).toBe('ExitCode:2');
    const killed = pod({
      status: { containerStatuses: [container('app', { terminated: { exitCode: 0, signal: 15 } })] },
    });
    expect(statusOf(killed)).toBe('Signal:15');
    const restartedNoTime = pod({
      status: { containerStatuses: [container('app', running, { restartCount: 2 })] },
    });
    expect(cells(restartedNoTime)[3]).toBe('2');
    const neverRestarted = pod({
      status: {
        containerStatuses: [
          container('app', running, { lastState: { terminated: { exitCode: 0, finishedAt: ago(M) } } }),
        ],
      },
    });
    expect(cells(neverRestarted)[3]).toBe('0');
    const laterFirst = pod({
      status: {
        containerStatuses: [
          container('app', running, {
            restartCount: 1,
            lastState: { terminated: { exitCode: 1, finishedAt: ago(40 * S) } },
          }),
          container('envoy', running, {
            restartCount: 1,
            lastState: { terminated: { exitCode: 1, finishedAt: ago(2 * H) } },
          }),
        ],
      },
    });
    expect(cells(laterFirst)[3]).toBe('2 (40s ago)');
  });

  it('says Running or NotReady for a Completed container beside one still running', () => {
    const statuses = [
      container('job', { terminated: { exitCode: 0, reason: 'Completed' } }),
      container('app', running, { ready: true }),
    ];
    const scheduled = condition('PodScheduled', 'True');
    const withConditions = (...conditions: PodCondition[]) =>
      statusOf(pod({ status: { containerStatuses: statuses, conditions } }));
    expect(withConditions(scheduled, condition('Ready', 'True'))).toBe('Running');
    expect(withConditions(scheduled, condition('Ready', 'False'))).toBe('NotReady');
    expect(statusOf(pod({ status: { containerStatuses: statuses } }))).toBe('NotReady');
    const alone = pod({ status: { phase: 'Succeeded', containerStatuses: [statuses[0]!] } });
    expect(podRow(alone, NOW)).toEqual({
      cells: ['web-1', '0/1', 'Completed', '0', '3d', '<none>', '<none>', '<none>', '<none>'],
      conditions: [
        {
          type: 'Completed',
          status: 'True',
          reason: 'Succeeded',
          message: 'The pod has completed successfully.',
        },
      ],
    });
    expect(podRow(pod({ status: { phase: 'Failed' } }), NOW).conditions).toEqual([
      { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' },
    ]);
    expect(podRow(pod({}), NOW).conditions).toBeUndefined();
  });

  it('says Terminating for a pod being deleted, Unknown on a lost node, and leaves a finished one as it was', () => {
    expect(statusOf(pod({ deleting: true }))).toBe('Terminating');
    expect(statusOf(pod({ deleting: true, status: { reason: 'NodeLost' } }))).toBe('Unknown');
    expect(statusOf(pod({ deleting: true, status: { phase: 'Succeeded' } }))).toBe('Succeeded');
    expect(statusOf(pod({ deleting: true, status: { phase: 'Failed' } }))).toBe('Failed');
  });
});

function event(over: Partial<CoreEvent>): CoreEvent {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: 'web-1.1',
      namespace: 'shop',
      uid: 'e',
      resourceVersion: '2',
      creationTimestamp: ago(H),
    },
    involvedObject: {
      kind: 'Pod',
      name: 'web-1',
      namespace: 'shop',
      uid: 'u',
      apiVersion: 'v1',
      fieldPath: 'spec.containers{app}',
    },
    reason: 'BackOff',
    message: '  Back-off restarting failed container\n',
    source: { component: 'kubelet', host: 'worker-1' },
    firstTimestamp: ago(H),
    lastTimestamp: ago(30 * S),
    count: 12,
    type: 'Warning',
    eventTime: null,
    reportingComponent: '',
    reportingInstance: '',
    ...over,
  };
}

describe('eventRow (printEvent)', () => {
  it('prints last seen, type, reason, object and the trimmed message, then the wide columns', () => {
    expect(eventRow(event({}), NOW).cells).toEqual([
      '30s',
      'Warning',
      'BackOff',
      'pod/web-1',
      'spec.containers{app}',
      'kubelet, worker-1',
      'Back-off restarting failed container',
      '60m',
      12,
      'web-1.1',
    ]);
  });

  it('reads an events.k8s.io-style event: eventTime, series, reporting controller and instance', () => {
    const recorded = event({
      firstTimestamp: null,
      lastTimestamp: null,
      count: 0,
      eventTime: ago(2 * H),
      series: { count: 5, lastObservedTime: ago(90 * S) },
      source: {},
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-cp-1',
    });
    const c = eventRow(recorded, NOW).cells;
    expect([c[0], c[5], c[7], c[8]]).toEqual(['90s', 'default-scheduler, default-scheduler-cp-1', '120m', 5]);
    const single = eventRow(
      event({ firstTimestamp: null, lastTimestamp: null, count: 0, eventTime: ago(3 * M) }),
      NOW,
    ).cells;
    expect([single[0], single[7], single[8]]).toEqual(['3m', '3m', 1]);
    const lastMissing = eventRow(event({ lastTimestamp: null }), NOW).cells;
    expect(lastMissing[0]).toBe('60m');
  });

  it('prints a captured event that lacks its fields', () => {
    const sparse = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'x.1', namespace: 'shop', uid: 'e', resourceVersion: '2', creationTimestamp: ago(H) },
      reportingComponent: 'kubelet',
      reportingInstance: 'worker-2',
    } as unknown as CoreEvent;
    expect(eventRow(sparse, NOW).cells).toEqual([
      '<unknown>',
      '',
      '',
      '',
      '',
      'kubelet, worker-2',
      '',
      '<unknown>',
      1,
      'x.1',
    ]);
    const kindless = event({ involvedObject: { name: 'web-1' } as CoreEvent['involvedObject'] });
    expect(eventRow(kindless, NOW).cells[3]).toBe('/web-1');
  });

  it('names the object by kind alone when it has no name, and the source by component alone without a host', () => {
    const c = eventRow(
      event({
        involvedObject: { kind: 'Node', name: '', uid: '', apiVersion: 'v1' },
        source: { component: 'kubelet' },
      }),
      NOW,
    ).cells;
    expect([c[3], c[4], c[5]]).toEqual(['node', '', 'kubelet']);
    expect(eventRow(event({ source: { host: 'worker-1' } }), NOW).cells[5]).toBe('');
  });
});

describe('printerFor', () => {
  it('has printers for core pods and events only; the rest get the plain answer kubectl prints as NAME and AGE', () => {
    expect(printerFor('', 'pods')?.columns.map((c) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Ready', 0],
      ['Status', 0],
      ['Restarts', 0],
      ['Age', 0],
      ['IP', 1],
      ['Node', 1],
      ['Nominated Node', 1],
      ['Readiness Gates', 1],
    ]);
    expect(printerFor('', 'events')?.columns.map((c) => c.name)).toEqual([
      'Last Seen',
      'Type',
      'Reason',
      'Object',
      'Subobject',
      'Source',
      'Message',
      'First Seen',
      'Count',
      'Name',
    ]);
    expect(printerFor('', 'pods')?.columns[0]?.format).toBe('name');
    expect(printerFor('events.k8s.io', 'events')).toBeUndefined();
    expect(printerFor('', 'configmaps')).toBeUndefined();
  });
});
