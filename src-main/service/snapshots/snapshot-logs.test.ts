/**
 * A snapshot's logs read from its file (snapshot-logs.ts) as a log request to the cluster reads
 * them: which run a request gets, the kubelet's refusals as problems, tailLines and sinceTime, and
 * lines without a timestamp of their own.
 */
import { describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import type { KubeLogRequest } from '../logs/kube-log';
import type { PodLike } from '../logs/pod';
import { openSnapshotLog, type SnapshotLogDeps, selectLines } from './snapshot-logs';

const T = (s: number) => `2026-03-01T12:00:0${s}.000000001Z`;
const CURRENT = `${T(1)} one\n${T(2)} two\n${T(3)} three\n`;
const PREVIOUS = `${T(0)} before\n`;

type Status = NonNullable<NonNullable<PodLike['status']>['containerStatuses']>[number];

function podWith(status: Partial<Status> | undefined, extra: { nodeName?: string | null } = {}): PodLike {
  return {
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      containers: [{ name: 'app' }],
      initContainers: [{ name: 'init' }],
      ...(extra.nodeName === null ? {} : { nodeName: extra.nodeName ?? 'node-1' }),
    } as PodLike['spec'],
    status: status ? { containerStatuses: [{ name: 'app', ...status }] } : {},
  };
}

const running: Partial<Status> = { containerID: 'c-2', state: { running: {} }, lastState: {} };
const restarted: Partial<Status> = {
  containerID: 'c-2',
  state: { running: {} },
  lastState: { terminated: { containerID: 'c-1', exitCode: 1 } },
};

function deps(
  pod: PodLike | undefined,
  logs: { current?: string; previous?: string } = {},
): SnapshotLogDeps & {
  asked: string[];
} {
  const asked: string[] = [];
  return {
    pod,
    asked,
    log: (namespace, name, container, previous) => {
      asked.push(`${namespace}/${name}/${container}/${previous}`);
      return previous ? logs.previous : logs.current;
    },
  };
}

const req = (over: Partial<KubeLogRequest> = {}): KubeLogRequest => ({
  namespace: 'shop',
  pod: 'web',
  container: 'app',
  follow: false,
  previous: false,
  ...over,
});

async function read(d: SnapshotLogDeps, r: KubeLogRequest): Promise<string[][]> {
  const conn = openSnapshotLog(d, r);
  const out: string[][] = [];
  for (let lines = await conn.next(); lines !== null; lines = await conn.next()) out.push(lines);
  expect(conn.dropped).toBe(false);
  return out;
}

function refusal(d: SnapshotLogDeps, r: KubeLogRequest): ProblemError {
  try {
    openSnapshotLog(d, r);
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('which run a request reads', () => {
  it('the current run of a running container, in one batch, then the end', async () => {
    const d = deps(podWith(running), { current: CURRENT, previous: PREVIOUS });
    expect(await read(d, req())).toEqual([[`${T(1)} one`, `${T(2)} two`, `${T(3)} three`]]);
    expect(d.asked).toEqual(['shop/web/app/false']);
  });

  it('the run before the restart with previous, or the only text there is', async () => {
    const d = deps(podWith(restarted), { current: CURRENT, previous: PREVIOUS });
    expect(await read(d, req({ previous: true }))).toEqual([[`${T(0)} before`]]);
    const only = deps(podWith(restarted), { current: CURRENT });
    expect(await read(only, req({ previous: true }))).toEqual([
      [`${T(1)} one`, `${T(2)} two`, `${T(3)} three`],
    ]);
    expect(only.asked).toEqual(['shop/web/app/true', 'shop/web/app/false']);
  });

  it('a terminated container’s own run, and a container waiting to restart its last run', async () => {
    const terminated = deps(podWith({ state: { terminated: { containerID: 'c-3' } } }), {
      current: CURRENT,
      previous: PREVIOUS,
    });
    expect((await read(terminated, req())).flat()).toHaveLength(3);
    const waiting = deps(
      podWith({
        state: { waiting: { reason: 'CrashLoopBackOff' } },
        lastState: { terminated: { containerID: 'c-1' } },
      }),
      { current: CURRENT, previous: PREVIOUS },
    );
    expect(await read(waiting, req())).toEqual([[`${T(0)} before`]]);
    const fallback = deps(waiting.pod, { current: CURRENT });
    expect((await read(fallback, req())).flat()).toHaveLength(3);
  });

  it('an init container is read like any other', async () => {
    const pod = podWith(undefined);
    pod.status = { initContainerStatuses: [{ name: 'init', containerID: 'i-1', state: { running: {} } }] };
    expect((await read(deps(pod, { current: CURRENT }), req({ container: 'init' }))).flat()).toHaveLength(3);
  });

  it('a pod with no spec has no container to read', () => {
    const pod = podWith(running);
    delete pod.spec;
    expect(refusal(deps(pod, { current: CURRENT }), req()).message).toBe(
      'container app is not valid for pod web',
    );
  });

  it('nothing for a run with no captured text, a pod with no node, or tailLines that leave no line', async () => {
    expect(await read(deps(podWith(running)), req())).toEqual([]);
    const unscheduled = deps(podWith(running, { nodeName: null }), { current: CURRENT });
    expect(await read(unscheduled, req())).toEqual([]);
    expect(unscheduled.asked).toEqual([]);
    expect(await read(deps(podWith(running), { current: '' }), req())).toEqual([]);
    expect(
      await read(deps(podWith(running), { current: CURRENT }), req({ sinceTime: '2027-01-01T00:00:00Z' })),
    ).toEqual([]);
  });

  it('a connection closed before it is read gives nothing', async () => {
    const conn = openSnapshotLog(deps(podWith(running), { current: CURRENT }), req());
    conn.close();
    expect(await conn.next()).toBeNull();
  });
});

describe('refusals, as the kubelet and the apiserver give them', () => {
  it('404 for a pod the snapshot does not have', () => {
    const p = refusal(deps(undefined), req());
    expect([p.status, p.code, p.message]).toEqual([
      404,
      'resource_not_found',
      'pod "web" not found in namespace shop',
    ]);
  });

  it('400 log_unavailable for a container the pod does not have, or one with no status', () => {
    const other = refusal(deps(podWith(running)), req({ container: 'sidecar' }));
    expect([other.status, other.code, other.message]).toEqual([
      400,
      'log_unavailable',
      'container sidecar is not valid for pod web',
    ]);
    expect(refusal(deps(podWith(undefined)), req()).message).toBe(
      'container "app" in pod "web" is not available',
    );
  });

  it('400 for previous when the container never terminated before', () => {
    expect(refusal(deps(podWith(running)), req({ previous: true })).message).toBe(
      'previous terminated container "app" in pod "web" not found',
    );
  });

  it('400 for a container that never ran, with the kubelet’s words for its reason', () => {
    const waiting = (reason?: string) =>
      refusal(deps(podWith({ state: { waiting: reason ? { reason } : {} }, lastState: {} })), req()).message;
    const prefix = 'container "app" in pod "web" is waiting to start: ';
    expect(waiting('ErrImagePull')).toBe(`${prefix}image can't be pulled`);
    expect(waiting('ImagePullBackOff')).toBe(`${prefix}trying and failing to pull image`);
    expect(waiting('CreateContainerConfigError')).toBe(`${prefix}CreateContainerConfigError`);
    expect(waiting()).toBe(`${prefix}ContainerCreating`);
    // A running state without a container id has not started a run the kubelet can read.
    expect(refusal(deps(podWith({ state: { running: {} }, lastState: {} })), req()).message).toBe(
      `${prefix}ContainerCreating`,
    );
  });
});

describe('selectLines', () => {
  it('keeps the last tailLines, then the lines at or after sinceTime', () => {
    expect(selectLines(CURRENT, { tailLines: 2 })).toEqual([`${T(2)} two`, `${T(3)} three`]);
    expect(selectLines(CURRENT, { tailLines: 5 })).toHaveLength(3);
    expect(selectLines(CURRENT, { sinceTime: '2026-03-01T12:00:02Z' })).toEqual([
      `${T(2)} two`,
      `${T(3)} three`,
    ]);
    expect(selectLines(CURRENT, { tailLines: 1, sinceTime: '2026-03-01T12:00:01Z' })).toEqual([
      `${T(3)} three`,
    ]);
    // tailLines=0 is never sent (it means no lines, which the caller answers itself): all lines.
    expect(selectLines(CURRENT, { tailLines: 0 })).toHaveLength(3);
    expect(selectLines(CURRENT, {})).toHaveLength(3);
  });

  it('gives a line without a timestamp the one before it, and text without a final newline its last line', () => {
    const text = `${T(1)} one\n  at frame\n${T(2)} two`;
    expect(selectLines(text, {})).toEqual([`${T(1)} one`, `${T(1)}   at frame`, `${T(2)} two`]);
    expect(selectLines(text, { sinceTime: '2026-03-01T12:00:01Z' })).toHaveLength(3);
    expect(selectLines('no stamp at all\n', {})).toEqual(['no stamp at all']);
    expect(selectLines('no stamp at all\n', { sinceTime: '2026-03-01T12:00:01Z' })).toEqual([]);
    expect(selectLines('2026-13-45T00:00:00Z odd\n', {})).toEqual(['2026-13-45T00:00:00Z odd']);
    // Only an RFC 3339 date-time is a timestamp: not a date Date.parse reads otherwise, nor one that does not exist.
    expect(selectLines(`${T(1)} one\n12 continued\n2026-13-45T00:00:00Z odd\n`, {})).toEqual([
      `${T(1)} one`,
      `${T(1)} 12 continued`,
      `${T(1)} 2026-13-45T00:00:00Z odd`,
    ]);
    // A line that is a timestamp alone (an empty line) is stamped by all of it, its offset included.
    expect(selectLines('2026-03-01T14:00:01+02:00\n', { sinceTime: '2026-03-01T12:00:01Z' })).toEqual([
      '2026-03-01T14:00:01+02:00',
    ]);
    expect(selectLines('', {})).toEqual([]);
    expect(selectLines('\n', {})).toEqual([]);
  });
});
