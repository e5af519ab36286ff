/**
 * Which objects are failing and since when, read from the object alone (signals.ts): every kind
 * and state the diagnosis names, the onset candidates each gives, and the onset chosen.
 */
import { describe, expect, it } from 'vitest';
import { onsetOf, readStatus, timeOf } from './signals';

const T = (s: string) => `2026-01-31T02:${s}Z`;
const ms = (s: string) => Date.parse(T(s));

const pod = (status: Record<string, unknown>, created = T('00:00')) => ({
  kind: 'Pod',
  metadata: { name: 'p', creationTimestamp: created },
  spec: {},
  status,
});

describe('readStatus: pods', () => {
  it('a container waiting in CrashLoopBackOff fails, dated by its last (first) restart', () => {
    const r = readStatus(
      'Pod',
      pod({
        phase: 'Running',
        containerStatuses: [
          {
            name: 'app',
            restartCount: 1,
            ready: false,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: T('10:05') } },
          },
        ],
      }),
    );
    expect(r).toEqual({
      failures: [
        {
          type: 'CrashLoopBackOff',
          message: 'container app is crash-looping: restarted 1 times, last exit code 1 (Error)',
        },
      ],
      candidates: [
        { type: 'FirstRestart', message: 'container app exited with code 1', timeMs: ms('10:05') },
      ],
      events: 'backoff',
      diagnosed: true,
    });
  });

  it('a later restart is a LastRestart candidate that says earlier ones were not kept', () => {
    const r = readStatus(
      'Pod',
      pod({
        phase: 'Running',
        containerStatuses: [
          {
            name: 'app',
            restartCount: 7,
            ready: false,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 2, finishedAt: T('20:00') } },
          },
        ],
      }),
    );
    expect(r.failures[0]!.message).toBe(
      'container app is crash-looping: restarted 7 times, last exit code 2',
    );
    expect(r.candidates).toEqual([
      {
        type: 'LastRestart',
        message: 'container app exited with code 2 (restart 7; earlier ones were not kept by the kubelet)',
        timeMs: ms('20:00'),
      },
    ]);
  });

  it('a container running again after a failed exit, not ready, is still crash-looping', () => {
    const r = readStatus(
      'Pod',
      pod({
        phase: 'Running',
        initContainerStatuses: [
          {
            name: 'init',
            restartCount: 0,
            ready: true,
            state: { terminated: { exitCode: 0 } },
            lastState: {},
          },
        ],
        containerStatuses: [
          {
            name: 'app',
            restartCount: 2,
            ready: false,
            state: { running: {} },
            lastState: { terminated: { exitCode: 1, finishedAt: T('10:00') } },
          },
        ],
      }),
    );
    expect(r.failures.map((f) => f.type)).toEqual(['CrashLoopBackOff']);
    expect(r.events).toBe('backoff');
  });

  it('a ready container that once failed, or restarted cleanly, is not failing', () => {
    for (const c of [
      { restartCount: 4, ready: true, lastState: { terminated: { exitCode: 137, finishedAt: T('10:00') } } },
      { restartCount: 1, ready: false, lastState: { terminated: { exitCode: 0, finishedAt: T('10:00') } } },
      { restartCount: 0, ready: false, lastState: { terminated: { exitCode: 1, finishedAt: T('10:00') } } },
    ]) {
      const r = readStatus(
        'Pod',
        pod({ phase: 'Running', containerStatuses: [{ name: 'a', state: { running: {} }, ...c }] }),
      );
      expect(r).toEqual({ failures: [], candidates: [], events: 'none', diagnosed: true });
    }
  });

  it('image pull back-off fails and is dated by BackOff events', () => {
    for (const reason of ['ImagePullBackOff', 'ErrImagePull']) {
      const r = readStatus(
        'Pod',
        pod({
          phase: 'Running',
          containerStatuses: [
            { name: 'web', restartCount: 0, state: { waiting: { reason } }, lastState: {} },
          ],
        }),
      );
      expect(r.failures).toEqual([
        { type: 'ImagePullBackOff', message: `container web cannot pull its image (${reason})` },
      ]);
      expect(r.events).toBe('backoff');
      expect(r.candidates).toEqual([]);
    }
  });

  it('a Pending pod fails since its creation, dated by Warning events; a waiting reason names it', () => {
    const r = readStatus(
      'Pod',
      pod({
        phase: 'Pending',
        containerStatuses: [
          { name: 'app', restartCount: 0, state: { waiting: { reason: 'CreateContainerConfigError' } } },
          { name: 'side', restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } },
          { name: 'init', restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } },
        ],
      }),
    );
    expect(r).toEqual({
      failures: [
        {
          type: 'CreateContainerConfigError',
          message: 'container app is waiting: CreateContainerConfigError',
        },
      ],
      candidates: [{ type: 'Created', message: 'the pod was created', timeMs: ms('00:00') }],
      events: 'warning',
      diagnosed: true,
    });
    const plain = readStatus('Pod', pod({ phase: 'Pending' }));
    expect(plain.failures).toEqual([{ type: 'Pending', message: 'the pod is Pending' }]);
    expect(plain.events).toBe('warning');
  });

  it('an unschedulable pod fails since PodScheduled became False', () => {
    const r = readStatus(
      'Pod',
      pod({
        phase: 'Pending',
        conditions: [
          { type: 'Ready', status: 'False', lastTransitionTime: T('00:00') },
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message: '0/3 nodes are available',
            lastTransitionTime: T('00:01'),
          },
        ],
      }),
    );
    expect(r.failures).toEqual([
      { type: 'Unschedulable', message: 'the pod cannot be scheduled: 0/3 nodes are available' },
    ]);
    expect(r.candidates).toEqual([
      { type: 'ConditionTransition', message: 'PodScheduled became False', timeMs: ms('00:01') },
      { type: 'Created', message: 'the pod was created', timeMs: ms('00:00') },
    ]);
    const bare = readStatus(
      'Pod',
      pod(
        {
          phase: 'Pending',
          conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
        },
        'bad',
      ),
    );
    expect(bare.failures[0]!.message).toBe('the pod cannot be scheduled: Unschedulable');
    expect(bare.candidates).toEqual([]);
    const none = readStatus(
      'Pod',
      pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False' }] }),
    );
    expect(none.failures[0]!.message).toBe('the pod cannot be scheduled: no reason given');
  });

  it('a Failed pod fails, with its reason when it has one', () => {
    expect(readStatus('Pod', pod({ phase: 'Failed', reason: 'Evicted' })).failures).toEqual([
      { type: 'PodFailed', message: 'the pod failed: Evicted' },
    ]);
    expect(readStatus('Pod', pod({ phase: 'Failed' })).failures).toEqual([
      { type: 'PodFailed', message: 'the pod failed' },
    ]);
  });

  it('a healthy pod, and malformed status, are not failing and never throw', () => {
    for (const status of [
      { phase: 'Running' },
      {},
      { containerStatuses: 'x' },
      { containerStatuses: [null, 3] },
    ])
      expect(readStatus('Pod', pod(status)).failures).toEqual([]);
    expect(readStatus('Pod', { kind: 'Pod' }).failures).toEqual([]);
  });
});

describe('readStatus: what a pod’s fields must be', () => {
  const running = (c: Record<string, unknown>) =>
    readStatus('Pod', pod({ phase: 'Running', containerStatuses: [{ state: { running: {} }, ...c }] }));

  it('a back-off without a recorded exit, or a container without a name, still reads', () => {
    const r = readStatus(
      'Pod',
      pod({
        phase: 'Running',
        containerStatuses: [{ restartCount: 1, state: { waiting: { reason: 'CrashLoopBackOff' } } }],
      }),
    );
    expect(r.failures).toEqual([
      {
        type: 'CrashLoopBackOff',
        message: 'container ? is crash-looping: restarted 1 times, last exit code unknown',
      },
    ]);
    expect(r.candidates).toEqual([]);
    const named = running({
      name: 5,
      restartCount: 1,
      ready: false,
      lastState: { terminated: { exitCode: 1 } },
    });
    expect(named.failures[0]!.message).toBe(
      'container ? is crash-looping: restarted 1 times, last exit code 1',
    );
  });

  it('a back-off after a clean exit is still one (the kubelet says so)', () => {
    const r = readStatus(
      'Pod',
      pod({
        phase: 'Running',
        containerStatuses: [
          {
            name: 'app',
            restartCount: 1,
            ready: false,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 0, finishedAt: T('10:00') } },
          },
        ],
      }),
    );
    expect(r.failures.map((f) => f.type)).toEqual(['CrashLoopBackOff']);
    // A clean exit dates nothing.
    expect(r.candidates).toEqual([]);
  });

  it('fields of the wrong type are no evidence', () => {
    expect(
      running({ name: 'a', restartCount: '3', ready: false, lastState: { terminated: { exitCode: 1 } } })
        .failures,
    ).toEqual([]);
    expect(
      running({ name: 'a', restartCount: 3, ready: false, lastState: { terminated: { exitCode: '1' } } })
        .failures,
    ).toEqual([]);
    expect(running({ name: 'a', restartCount: 3, ready: false, lastState: {} }).failures).toEqual([]);
    expect(
      readStatus(
        'Pod',
        pod({ phase: 'Running', containerStatuses: [{ name: 'a', state: { waiting: { reason: 7 } } }] }),
      ).failures,
    ).toEqual([]);
    expect(readStatus('Pod', { kind: 'Pod', status: { phase: 'Pending' } }).candidates).toEqual([]);
  });

  it('only failed exits with a time are candidates', () => {
    const r = readStatus(
      'Pod',
      pod({
        phase: 'Running',
        containerStatuses: [
          {
            name: 'app',
            restartCount: 2,
            ready: false,
            state: { running: {} },
            lastState: { terminated: { exitCode: 1 } },
          },
          {
            name: 'side',
            restartCount: 1,
            ready: true,
            state: { running: {} },
            lastState: { terminated: { exitCode: 0, finishedAt: T('09:00') } },
          },
        ],
      }),
    );
    expect(r.failures.map((f) => f.type)).toEqual(['CrashLoopBackOff']);
    expect(r.candidates).toEqual([]);
  });
});

describe('readStatus: conditions', () => {
  const withCondition = (kind: string, c: Record<string, unknown>) => ({ kind, status: { conditions: [c] } });

  it('a failed Job fails since its Failed condition turned True', () => {
    const r = readStatus(
      'Job',
      withCondition('Job', {
        type: 'Failed',
        status: 'True',
        reason: 'BackoffLimitExceeded',
        message: 'Job has reached the specified backoff limit',
        lastTransitionTime: T('05:00'),
      }),
    );
    expect(r).toEqual({
      failures: [
        { type: 'JobFailed', message: 'the Job failed: Job has reached the specified backoff limit' },
      ],
      candidates: [{ type: 'ConditionTransition', message: 'Failed became True', timeMs: ms('05:00') }],
      events: 'none',
      diagnosed: true,
    });
    expect(readStatus('Job', withCondition('Job', { type: 'Failed', status: 'False' }))).toEqual({
      failures: [],
      candidates: [],
      events: 'none',
      diagnosed: true,
    });
    expect(readStatus('Job', withCondition('Job', { type: 'Failed', status: 'True' })).failures).toEqual([
      { type: 'JobFailed', message: 'the Job failed: no reason given' },
    ]);
    expect(readStatus('Job', withCondition('Job', { type: 'Complete', status: 'True' })).failures).toEqual(
      [],
    );
  });

  it('a NotReady node fails since Ready left True; Unknown counts', () => {
    const r = readStatus(
      'Node',
      withCondition('Node', {
        type: 'Ready',
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        lastTransitionTime: T('07:00'),
      }),
    );
    expect(r.failures).toEqual([
      { type: 'NodeNotReady', message: 'the node is not Ready: NodeStatusUnknown' },
    ]);
    expect(r.candidates).toEqual([
      { type: 'ConditionTransition', message: 'Ready became Unknown', timeMs: ms('07:00') },
    ]);
    expect(readStatus('Node', withCondition('Node', { type: 'Ready', status: 'True' })).failures).toEqual([]);
  });

  it('a Deployment that stopped progressing fails, named by the condition’s reason', () => {
    const r = readStatus(
      'Deployment',
      withCondition('Deployment', {
        type: 'Progressing',
        status: 'False',
        reason: 'ProgressDeadlineExceeded',
        lastTransitionTime: 'not a time',
      }),
    );
    expect(r.failures).toEqual([
      {
        type: 'ProgressDeadlineExceeded',
        message: 'the Deployment is not progressing: ProgressDeadlineExceeded',
      },
    ]);
    expect(r.candidates).toEqual([]);
    const noReason = readStatus(
      'Deployment',
      withCondition('Deployment', { type: 'Progressing', status: 'False' }),
    );
    expect(noReason.failures[0]!.type).toBe('NotProgressing');
    expect(
      readStatus('Deployment', withCondition('Deployment', { type: 'Progressing', status: 'True' })).failures,
    ).toEqual([]);
    expect(readStatus('Deployment', { kind: 'Deployment' }).failures).toEqual([]);
  });

  it('other kinds are not diagnosed', () => {
    expect(readStatus('ConfigMap', { kind: 'ConfigMap' })).toEqual({
      failures: [],
      candidates: [],
      events: 'none',
      diagnosed: false,
    });
  });
});

describe('onsetOf', () => {
  const failing = [{ type: 'CrashLoopBackOff', message: 'container app is crash-looping' }];

  it('the earliest candidate is the onset, listed first after the failures', () => {
    const r = onsetOf(
      'Pod',
      failing,
      [
        { type: 'FirstRestart', message: 'restart', timeMs: ms('10:05') },
        { type: 'FirstBackOff', message: 'backoff', timeMs: ms('10:02') },
      ],
      true,
      0,
    );
    expect(r).toEqual({
      onsetMs: ms('10:02'),
      signals: [
        { type: 'CrashLoopBackOff', message: 'container app is crash-looping' },
        { type: 'FirstBackOff', message: 'backoff', time: T('10:02.000'), onset: true },
        { type: 'FirstRestart', message: 'restart', time: T('10:05.000') },
      ],
    });
  });

  it('failing with no candidate: the onset is now, and a signal says so', () => {
    const now = ms('30:00');
    expect(onsetOf('Pod', failing, [], true, now)).toEqual({
      onsetMs: now,
      signals: [
        failing[0],
        {
          type: 'OnsetUnknown',
          message: 'nothing recorded says when the failure started: the window counts back from now',
          time: T('30:00.000'),
          onset: true,
        },
      ],
    });
  });

  it('not failing, or not diagnosed, has no onset and says why', () => {
    expect(onsetOf('Pod', [], [{ type: 'Created', message: 'x', timeMs: 1 }], true, 5)).toEqual({
      onsetMs: undefined,
      signals: [{ type: 'NotFailing', message: 'the Pod is not failing: nothing in its status says so' }],
    });
    expect(onsetOf('ConfigMap', [], [], false, 5)).toEqual({
      onsetMs: undefined,
      signals: [
        {
          type: 'NotDiagnosed',
          message: 'Skiff diagnoses Pods, Jobs, Nodes and Deployments; a ConfigMap is not diagnosed',
        },
      ],
    });
  });
});

describe('timeOf', () => {
  it('reads RFC 3339 text only', () => {
    expect(timeOf(T('00:00'))).toBe(ms('00:00'));
    expect(timeOf('yesterday')).toBeUndefined();
    expect(timeOf(12)).toBeUndefined();
    expect(timeOf(undefined)).toBeUndefined();
  });
});
