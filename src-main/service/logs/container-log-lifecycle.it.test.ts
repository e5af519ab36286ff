import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../../src-shared/contract/problem';
import { eventually } from '../test-support/eventually.test-support';
import { type Stack, startStack } from '../test-support/harness.test-support';
import { addNamespace, addPod, write } from './fixtures.test-support';
import { logPath, markersOf, openStream, rawOf, readAll } from './stream-client.test-support';

/** When set, the simulated cluster's clock stands still at this instant. */
let frozenAt: number | undefined;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    simulator: { now: () => frozenAt ?? Date.now() },
    service: { timeoutMs: 1_500 },
  });
});
afterAll(async () => stack?.close());

interface SimContainerStatus {
  name: string;
  containerID: string;
  restartCount: number;
  state: { running?: { startedAt: string }; terminated?: { finishedAt: string } };
  lastState: { terminated?: { finishedAt: string } };
}

function statusOf(ns: string, pod: string, container = 'app'): SimContainerStatus {
  const p = stack.sim.store.peek('pods', ns, pod) as unknown as {
    status: { containerStatuses: SimContainerStatus[] };
  };
  return p.status.containerStatuses.find((c) => c.name === container)!;
}

function followers(ns: string, pod: string, container = 'app'): number {
  const id = statusOf(ns, pod, container).containerID;
  return stack.sim.store.logs.peek(ns, pod, container, id)?.followers.size ?? 0;
}

/** A pod of the test's own with one running container, `app`, followed from now on. */
async function followed(tag: string, restartPolicy = 'Always') {
  const ns = addNamespace(stack, tag);
  addPod(stack, ns, 'pod', { containers: ['app'], restartPolicy });
  const s = await openStream(stack, logPath(stack, ns, 'pod', 'follow=true'));
  expect(s.status).toBe(200);
  return { ns, s };
}

describe('what a request with tailLines=0 asks the cluster', () => {
  it('no lines, and no refusal even when there is no previous instance to read', async () => {
    const ns = addNamespace(stack);
    addPod(stack, ns, 'pod', { containers: ['app'] });
    write(stack, ns, 'pod', 'app', 'a line');
    for (const q of ['tailLines=0', 'tailLines=0&previous=true', 'tailLines=0&previous=true&follow=true']) {
      const s = await readAll(stack, logPath(stack, ns, 'pod', q));
      expect(s.status, q).toBe(200);
      expect(s.records, q).toEqual([]);
    }
    const refused = await stack.get<Problem>(logPath(stack, ns, 'pod', 'previous=true'));
    expect(refused.status).toBe(400);
  });

  it('a follow from now leaves out lines stamped before the request, even within the same second', async () => {
    const ns = addNamespace(stack);
    addPod(stack, ns, 'pod', { containers: ['app'] });
    frozenAt = Date.now() - 1;
    try {
      write(stack, ns, 'pod', 'app', 'just before');
    } finally {
      frozenAt = undefined;
    }
    const s = await openStream(stack, logPath(stack, ns, 'pod', 'follow=true&tailLines=0'));
    await new Promise((r) => setTimeout(r, 20));
    write(stack, ns, 'pod', 'app', 'after');
    await s.waitFor((x) => rawOf(x).includes('after'));
    s.close();
    expect(rawOf(s)).toEqual(['after']);
  });
});

describe('a follow the cluster refuses', () => {
  it('is refused before anything streams, with the kubelet reason', async () => {
    const ns = addNamespace(stack);
    addPod(stack, ns, 'pod', { containers: ['app'], waiting: { app: 'ErrImagePull' } });
    const res = await stack.get<Problem>(logPath(stack, ns, 'pod', 'follow=true'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'log_unavailable', clusterStatus: 400 });
    expect(res.body.detail).toMatch(/waiting to start: image can't be pulled/);
  });
});

describe('a followed container', () => {
  it('resumes a dropped connection as a follow again', async () => {
    const { ns, s } = await followed('dropped');
    write(stack, ns, 'pod', 'app', 'before the drop');
    await s.waitFor((x) => rawOf(x).includes('before the drop'));
    await eventually(async () => expect(followers(ns, 'pod')).toBe(1));
    stack.sim.store.logs.closeFollowers();
    // The cluster holds one open follow again, not a series of one-off reads.
    await eventually(async () => expect(followers(ns, 'pod')).toBe(1), 3_000);
    write(stack, ns, 'pod', 'app', 'after the drop');
    await s.waitFor((x) => rawOf(x).includes('after the drop'));
    s.close();
    expect(rawOf(s)).toEqual(['before the drop', 'after the drop']);
    expect(markersOf(s)).toEqual([]);
  });

  it('keeps following through a cluster that refuses for a moment while it reconnects', async () => {
    const { ns, s } = await followed('refusing');
    write(stack, ns, 'pod', 'app', 'before');
    await s.waitFor((x) => rawOf(x).includes('before'));
    stack.sim.faults.unauthorized = true;
    try {
      stack.sim.store.logs.closeFollowers();
      await new Promise((r) => setTimeout(r, 700));
    } finally {
      stack.sim.faults.unauthorized = false;
    }
    await eventually(async () => expect(followers(ns, 'pod')).toBe(1), 5_000);
    write(stack, ns, 'pod', 'app', 'after');
    await s.waitFor((x) => rawOf(x).includes('after'));
    s.close();
    expect(rawOf(s)).toEqual(['before', 'after']);
    expect(s.records.filter((r) => r.type !== 'line')).toEqual([]);
  });

  it('catches up on the last lines of an instance that ended while disconnected, then marks the restart', async () => {
    const { ns, s } = await followed('catch-up');
    write(stack, ns, 'pod', 'app', 'first');
    await s.waitFor((x) => rawOf(x).includes('first'));
    // All at once, before the service sees the connection end: a line it missed, then a restart.
    stack.sim.store.logs.closeFollowers();
    write(stack, ns, 'pod', 'app', 'missed while disconnected');
    stack.sim.store.restartContainer(ns, 'pod', 'app', { exitCode: 3, reason: 'Error' });
    const old = statusOf(ns, 'pod').lastState.terminated!;
    const started = statusOf(ns, 'pod').state.running!.startedAt;
    write(stack, ns, 'pod', 'app', 'new instance');
    await s.waitFor((x) => rawOf(x).includes('new instance'), 5_000);
    s.close();
    expect(rawOf(s)).toEqual(['first', 'missed while disconnected', 'new instance']);
    const kinds = s.records.map((r) => (r.type === 'marker' ? r.event : r.type === 'line' ? r.raw : r.type));
    expect(kinds).toEqual(['first', 'missed while disconnected', 'terminated', 'restarted', 'new instance']);
    const [terminated, restarted] = markersOf(s);
    expect(terminated).toMatchObject({ exitCode: 3, reason: 'Error', time: Date.parse(old.finishedAt) });
    expect(terminated!.message).toContain('3');
    expect(restarted).toMatchObject({ restartCount: 1, time: Date.parse(started) });
  });

  it('that stops for good is marked terminated with its exit and the stream ends', async () => {
    const { ns, s } = await followed('stopped', 'Never');
    write(stack, ns, 'pod', 'app', 'last line');
    await s.waitFor((x) => rawOf(x).includes('last line'));
    stack.sim.store.terminateContainer(ns, 'pod', 'app', { exitCode: 0, reason: 'Completed' });
    const finishedAt = statusOf(ns, 'pod').state.terminated!.finishedAt;
    await s.waitFor((x) => x.ended, 5_000);
    expect(rawOf(s)).toEqual(['last line']);
    expect(markersOf(s)).toEqual([
      expect.objectContaining({
        event: 'terminated',
        exitCode: 0,
        reason: 'Completed',
        time: Date.parse(finishedAt),
      }),
    ]);
  });

  it('ends with a pod-deleted marker when its pod is deleted', async () => {
    const { ns, s } = await followed('deleted');
    write(stack, ns, 'pod', 'app', 'still here');
    await s.waitFor((x) => rawOf(x).includes('still here'));
    stack.sim.store.remove('pods', ns, 'pod');
    await s.waitFor((x) => x.ended, 5_000);
    expect(markersOf(s)).toEqual([
      expect.objectContaining({ event: 'pod-deleted', pod: 'pod', container: 'app' }),
    ]);
    expect(markersOf(s)[0]!.message).toContain('pod');
  });

  it('ends quietly when its container is no longer in the pod', async () => {
    const { ns, s } = await followed('replaced');
    write(stack, ns, 'pod', 'app', 'old spec');
    await s.waitFor((x) => rawOf(x).includes('old spec'));
    // The pod is replaced by one of the same name without that container.
    stack.sim.store.remove('pods', ns, 'pod');
    addPod(stack, ns, 'pod', { containers: ['other'] });
    await s.waitFor((x) => x.ended, 5_000);
    expect(s.records.filter((r) => r.type === 'error')).toEqual([]);
  });
});

describe('the time range of a query', () => {
  it('durations count back from now: since keeps the recent lines, until the older ones', async () => {
    const ns = addNamespace(stack);
    addPod(stack, ns, 'pod', { containers: ['app'] });
    const now = Date.now();
    for (const [agoMs, text] of [
      [2 * 3_600_000, 'two hours ago'],
      [40 * 60_000, 'forty minutes ago'],
      [60_000, 'a minute ago'],
    ] as const) {
      frozenAt = now - agoMs;
      try {
        write(stack, ns, 'pod', 'app', text);
      } finally {
        frozenAt = undefined;
      }
    }
    const read = async (q: string) => rawOf(await readAll(stack, logPath(stack, ns, 'pod', q)));
    expect(await read('since=1h')).toEqual(['forty minutes ago', 'a minute ago']);
    expect(await read('until=30m')).toEqual(['two hours ago', 'forty minutes ago']);
    expect(await read('since=1h&until=30m')).toEqual(['forty minutes ago']);
  });
});
