/**
 * When an object's events say its failure started (evidence.ts), without a service: a real
 * ClusterConnection watching the embedded simulator's events (the event cache), and a real event
 * history on a SQLite database whose rows are written through its store. Fast enough to be the
 * module's own tests under mutation testing (the diagnosis.it tests start the whole service).
 */
import type { KubeObjectInput } from '@skiff/kube-simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { freshNamespace, simPerFile } from '../../cache/cache.test-support';
import { ClusterConnection } from '../../clusters/cluster';
import { entry, openStore, storePerTest } from '../../events/history/history.test-support';
import { EventHistory } from '../../events/history/index';
import { contextsFromYaml } from '../../kube/kubeconfig';
import { silentLogger } from '../../logger';
import { type EventSubject, firstEvent } from './evidence';

const CLUSTER = 'ev';
const T = (hhmmss: string) => Date.parse(`2026-01-31T${hhmmss}Z`);
const iso = (ms: number) => new Date(ms).toISOString();

const env = simPerFile();
const s = storePerTest();
let cluster: ClusterConnection | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

function connect(): ClusterConnection {
  const source = contextsFromYaml(env.sim.kubeconfigYaml(CLUSTER))[0]!;
  cluster = new ClusterConnection(CLUSTER, source, {
    timeoutMs: 5_000,
    logger: silentLogger(),
    watch: { baseMs: 60_000, capMs: 60_000, stableAfterMs: 60_000 },
  });
  return cluster;
}

const flags = { resourceEventsEnabled: true, systemEventsEnabled: true };
function history(record: 'viewed' | 'off' = 'viewed', backend = s.backend): EventHistory {
  return new EventHistory({
    backend,
    options: { record, flushMs: 3_600_000, pruneEveryMs: 3_600_000 },
    flags: () => ({ ...flags }),
    logger: silentLogger(),
  });
}

let n = 0;
/** An event the cluster holds (the event cache reads it). */
function clusterEvent(
  ns: string,
  o: {
    kind?: string;
    name?: string;
    uid?: string;
    type?: string;
    reason?: string;
    first?: string;
    last: number;
  },
) {
  env.sim.store.upsert({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `ev-${++n}`, namespace: ns },
    involvedObject: {
      apiVersion: 'v1',
      kind: o.kind ?? 'Pod',
      name: o.name ?? 'web',
      namespace: ns,
      uid: o.uid ?? 'uid-web',
    },
    type: o.type ?? 'Warning',
    reason: o.reason ?? 'BackOff',
    message: 'm',
    firstTimestamp: o.first ?? iso(o.last),
    lastTimestamp: iso(o.last),
    count: 1,
    source: { component: 'kubelet' },
  } as unknown as KubeObjectInput);
}

/** A recorded event row of the Pod `web` (uid-web) in `ns`: BackOff, Warning, unless told otherwise. */
const row = (
  id: string,
  ns: string,
  firstMs: number,
  lastMs: number,
  over: Parameters<typeof entry>[2] = {},
) =>
  entry(id, lastMs, {
    clusterId: CLUSTER,
    namespace: ns,
    type: 'WARNING',
    reason: 'BackOff',
    firstTimestamp: iso(firstMs),
    ...over,
  });

const subject = (ns: string, over: Partial<EventSubject> = {}): EventSubject => ({
  kindKey: 'pod',
  namespace: ns,
  name: 'web',
  uid: 'uid-web',
  createdMs: undefined,
  ...over,
});
const signal = () => new AbortController().signal;

describe('firstEvent from the event history', () => {
  it('answers the oldest recorded BackOff of the object, at its first timestamp', async () => {
    const ns = freshNamespace(env.sim, 'hist');
    await s.put(CLUSTER, [
      row('new', ns, T('02:20:00'), T('02:30:00')),
      row('old', ns, T('02:10:00'), T('02:25:00')),
      row('mid', ns, T('02:15:00'), T('02:26:00')),
      row('older-pulled', ns, T('01:00:00'), T('01:00:00'), { reason: 'Pulled', type: 'NORMAL' }),
      row('other-pod', ns, T('01:00:00'), T('01:00:00'), { name: 'api' }),
      row('other-kind', ns, T('01:00:00'), T('01:00:00'), { kind: 'ReplicaSet' }),
      row('other-ns', `${ns}-x`, T('01:00:00'), T('01:00:00'), { namespace: `${ns}-x` }),
    ]);
    const c = connect();
    const found = await firstEvent(c, history(), subject(ns), 'backoff', signal());
    expect(found).toEqual({
      type: 'FirstBackOff',
      message: 'the first BackOff event about pod web',
      timeMs: T('02:10:00'),
    });
  });

  it('answers a single row, and the earlier of its first and last timestamps', async () => {
    const ns = freshNamespace(env.sim, 'one');
    await s.put(CLUSTER, [row('only', ns, T('02:10:00'), T('02:05:00'))]);
    const found = await firstEvent(connect(), history(), subject(ns), 'backoff', signal());
    expect(found?.timeMs).toBe(T('02:05:00'));
  });

  it('answers the first Warning of any reason for `warning`', async () => {
    const ns = freshNamespace(env.sim, 'warn');
    await s.put(CLUSTER, [
      row('sched', ns, T('02:10:00'), T('02:11:00'), { reason: 'FailedScheduling' }),
      row('normal', ns, T('02:00:00'), T('02:00:00'), { reason: 'Scheduled', type: 'NORMAL' }),
    ]);
    const found = await firstEvent(connect(), history(), subject(ns), 'warning', signal());
    expect(found).toEqual({
      type: 'FirstWarning',
      message: 'the first Warning event about pod web',
      timeMs: T('02:10:00'),
    });
  });

  it('ignores an oldest row of another object of that name, but not one without a uid', async () => {
    const ns = freshNamespace(env.sim, 'uid');
    await s.put(CLUSTER, [
      row('prev', ns, T('02:00:00'), T('02:01:00'), { resourceId: 'uid-previous' }),
      row('cur', ns, T('02:10:00'), T('02:11:00')),
    ]);
    const c = connect();
    expect(await firstEvent(c, history(), subject(ns), 'backoff', signal())).toBeUndefined();
    // Without a uid to compare, the oldest row is the object's.
    const anyUid = await firstEvent(c, history(), subject(ns, { uid: undefined }), 'backoff', signal());
    expect(anyUid?.timeMs).toBe(T('02:00:00'));

    const ns2 = freshNamespace(env.sim, 'nouid');
    await s.put(CLUSTER, [row('blank', ns2, T('02:00:00'), T('02:01:00'), { resourceId: '' })]);
    const blank = await firstEvent(c, history(), subject(ns2), 'backoff', signal());
    expect(blank?.timeMs).toBe(T('02:00:00'));
  });

  it('is not read when it does not answer for the cluster (--record-events off)', async () => {
    const ns = freshNamespace(env.sim, 'off');
    await s.put(CLUSTER, [row('r', ns, T('02:00:00'), T('02:01:00'))]);
    expect(await firstEvent(connect(), history('off'), subject(ns), 'backoff', signal())).toBeUndefined();
  });

  it('that cannot be read is no evidence: the cluster’s events still answer', async () => {
    const ns = freshNamespace(env.sim, 'broken');
    const closed = await openStore();
    await closed.close();
    clusterEvent(ns, { last: T('02:12:00') });
    const found = await firstEvent(
      connect(),
      history('viewed', closed.backend),
      subject(ns),
      'backoff',
      signal(),
    );
    expect(found?.timeMs).toBe(T('02:12:00'));
  });

  it('reads a cluster-scoped object’s events, which are system events', async () => {
    const node = `node-${++n}`;
    await s.put(CLUSTER, [
      row('n1', '', T('02:10:00'), T('02:11:00'), { kind: 'Node', name: node, resourceId: '' }),
      row('n0', '', T('02:05:00'), T('02:06:00'), {
        kind: 'Node',
        name: node,
        resourceId: '',
        type: 'NORMAL',
      }),
    ]);
    const found = await firstEvent(
      connect(),
      history(),
      { kindKey: 'node', namespace: '', name: node, uid: 'node-uid', createdMs: undefined },
      'warning',
      signal(),
    );
    expect(found).toEqual({
      type: 'FirstWarning',
      message: `the first Warning event about node ${node}`,
      timeMs: T('02:10:00'),
    });
  });
});

describe('firstEvent from the events the cluster holds', () => {
  it('answers the earliest matching event, at its first timestamp', async () => {
    const ns = freshNamespace(env.sim, 'cache');
    clusterEvent(ns, { first: iso(T('02:10:00')), last: T('02:30:00') });
    clusterEvent(ns, { first: iso(T('02:20:00')), last: T('02:21:00') });
    clusterEvent(ns, { last: T('02:15:00') });
    // Earlier, but not a match: another reason, type, object, kind or uid.
    clusterEvent(ns, { reason: 'Pulled', type: 'Normal', last: T('01:00:00') });
    clusterEvent(ns, { name: 'api', last: T('01:00:00') });
    clusterEvent(ns, { kind: 'ReplicaSet', last: T('01:00:00') });
    clusterEvent(ns, { uid: 'uid-previous', last: T('01:00:00') });
    clusterEvent(`${ns}-x`, { last: T('01:00:00') });
    const found = await firstEvent(connect(), history('off'), subject(ns), 'backoff', signal());
    expect(found).toEqual({
      type: 'FirstBackOff',
      message: 'the first BackOff event about pod web',
      timeMs: T('02:10:00'),
    });
  });

  it('takes the last timestamp when the first is unreadable or later', async () => {
    const ns = freshNamespace(env.sim, 'bad-first');
    clusterEvent(ns, { first: 'not a time', last: T('02:15:00') });
    clusterEvent(ns, { first: iso(T('03:00:00')), last: T('02:20:00') });
    const found = await firstEvent(connect(), history('off'), subject(ns), 'backoff', signal());
    expect(found?.timeMs).toBe(T('02:15:00'));
  });

  it('keeps an event without a uid, and filters Warning by type for `warning`', async () => {
    const ns = freshNamespace(env.sim, 'warn-cache');
    clusterEvent(ns, { uid: '', reason: 'FailedMount', last: T('02:10:00') });
    clusterEvent(ns, { reason: 'Started', type: 'Normal', last: T('02:00:00') });
    const c = connect();
    expect(await firstEvent(c, history('off'), subject(ns), 'warning', signal())).toEqual({
      type: 'FirstWarning',
      message: 'the first Warning event about pod web',
      timeMs: T('02:10:00'),
    });
    expect(await firstEvent(c, history('off'), subject(ns), 'backoff', signal())).toBeUndefined();
  });

  it('without a uid to compare, counts the events of any object of that name', async () => {
    const ns = freshNamespace(env.sim, 'any-uid');
    clusterEvent(ns, { uid: 'uid-previous', last: T('02:00:00') });
    clusterEvent(ns, { last: T('02:10:00') });
    const found = await firstEvent(
      connect(),
      history('off'),
      subject(ns, { uid: undefined }),
      'backoff',
      signal(),
    );
    expect(found?.timeMs).toBe(T('02:00:00'));
  });

  it('answers the earlier of the history’s and the cluster’s', async () => {
    const ns = freshNamespace(env.sim, 'both');
    clusterEvent(ns, { last: T('02:20:00') });
    await s.put(CLUSTER, [row('r', ns, T('02:10:00'), T('02:11:00'))]);
    const ns2 = freshNamespace(env.sim, 'both2');
    clusterEvent(ns2, { last: T('02:05:00') });
    await s.put(CLUSTER, [row('r2', ns2, T('02:10:00'), T('02:11:00'))]);
    // Both written before the cluster's events are first read, so its event cache holds them.
    const c = connect();
    expect((await firstEvent(c, history(), subject(ns), 'backoff', signal()))?.timeMs).toBe(T('02:10:00'));
    expect((await firstEvent(c, history(), subject(ns2), 'backoff', signal()))?.timeMs).toBe(T('02:05:00'));
  });

  it('ignores events from more than a second before the object was created', async () => {
    const ns = freshNamespace(env.sim, 'created');
    clusterEvent(ns, { last: T('02:00:00') });
    const c = connect();
    const created = (ms: number) => subject(ns, { createdMs: ms });
    expect(
      await firstEvent(c, history('off'), created(T('02:00:01') + 1), 'backoff', signal()),
    ).toBeUndefined();
    expect((await firstEvent(c, history('off'), created(T('02:00:01')), 'backoff', signal()))?.timeMs).toBe(
      T('02:00:00'),
    );
    await s.put(CLUSTER, [row('r', ns, T('01:59:00'), T('01:59:30'))]);
    // The recorded one is from the previous object; the cluster's still counts.
    expect((await firstEvent(c, history(), created(T('02:00:00')), 'backoff', signal()))?.timeMs).toBe(
      T('02:00:00'),
    );
  });

  it('answers nothing without a matching event, or when the cluster refuses; an aborted request stops', async () => {
    const ns = freshNamespace(env.sim, 'none');
    const c = connect();
    expect(await firstEvent(c, history(), subject(ns), 'backoff', signal())).toBeUndefined();
    await c.close();
    // The cluster refuses the event list: no evidence, unless the request was aborted meanwhile.
    env.sim.faults.unauthorized = true;
    try {
      await s.put(CLUSTER, [row('r', ns, T('02:10:00'), T('02:11:00'))]);
      expect((await firstEvent(connect(), history(), subject(ns), 'backoff', signal()))?.timeMs).toBe(
        T('02:10:00'),
      );
      await cluster?.close();
      const aborted = new AbortController();
      aborted.abort(new Error('gone'));
      await expect(
        firstEvent(connect(), history(), subject(ns), 'backoff', aborted.signal),
      ).rejects.toThrow();
    } finally {
      env.sim.faults.unauthorized = false;
    }
  });
});
