import { get as httpGet, type IncomingMessage } from 'node:http';
import { DEMO_PODS } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../test-support/eventually.test-support';
import { type Stack, startStack } from '../test-support/harness.test-support';
import { linesOf, logPath, markersOf, openStream, rawOf } from './stream-client.test-support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack?.close());

const { payments, checkout, crashLoop } = DEMO_PODS;
let counter = 0;
const unique = (tag: string) => `${tag}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;

function followersOf(ns: string, pod: string, container: string): number {
  const p = stack.sim.store.peek('pods', ns, pod) as unknown as {
    status: { containerStatuses: { name: string; containerID: string }[] };
  };
  const id = p.status.containerStatuses.find((c) => c.name === container)!.containerID;
  return stack.sim.store.logs.peek(ns, pod, container, id)?.followers.size ?? 0;
}

describe('follow', () => {
  it('delivers each new line as the container writes it, with no timer in between', async () => {
    const s = await openStream(
      stack,
      logPath(stack, payments.namespace, payments.name, 'follow=true&tailLines=0'),
    );
    expect(s.status).toBe(200);
    expect(s.contentType).toMatch(/^application\/x-ndjson/);
    // With every timer of this process stopped (the service's, the simulator's, undici's), a line
    // can only arrive if it is passed on as it is written: none is batched for a flush later or
    // held until the next line. Each arrives before the next is written.
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'] });
    try {
      for (let i = 0; i < 5; i++) {
        const text = unique('timely');
        stack.sim.store.appendLog(payments.namespace, payments.name, payments.container, text);
        await s.waitFor((x) => rawOf(x).includes(text));
        expect(rawOf(s)).toHaveLength(i + 1);
      }
    } finally {
      vi.useRealTimers();
      s.close();
    }
    expect(rawOf(s)).toHaveLength(5);
  });

  it('stops the cluster request when the client goes away', async () => {
    const { namespace, name, container } = payments;
    // The previous test's follow may still be closing.
    await eventually(async () => expect(followersOf(namespace, name, container)).toBe(0));
    const before = 0;
    const s = await openStream(stack, logPath(stack, namespace, name, 'follow=true&tailLines=1'));
    await s.waitFor((x) => x.lines.length >= 1);
    expect(followersOf(namespace, name, container)).toBe(before + 1);
    s.close();
    await eventually(async () => expect(followersOf(namespace, name, container)).toBe(before), 3_000);
  });

  it('resumes a dropped connection without duplicating or losing a line', async () => {
    const { namespace, name, container } = checkout;
    const s = await openStream(
      stack,
      logPath(stack, namespace, name, `follow=true&tailLines=0&container=${container}`),
    );
    const before = Array.from({ length: 40 }, () => unique('before'));
    for (const t of before) stack.sim.store.appendLog(namespace, name, container, t);
    await s.waitFor((x) => rawOf(x).includes(before.at(-1)!));
    // Ends every open follow at the simulated apiserver, as a proxy timeout or a network cut would.
    stack.sim.store.logs.closeFollowers();
    const during = Array.from({ length: 10 }, () => unique('during'));
    for (const t of during) stack.sim.store.appendLog(namespace, name, container, t);
    const after = unique('after');
    await new Promise((r) => setTimeout(r, 300));
    stack.sim.store.appendLog(namespace, name, container, after);
    await s.waitFor((x) => rawOf(x).includes(after), 5_000);
    s.close();
    expect(rawOf(s)).toEqual([...before, ...during, after]);
    expect(markersOf(s)).toEqual([]);
  });

  it('marks a restart and shows each line of both instances exactly once', async () => {
    const { namespace, name, container } = payments;
    const s = await openStream(stack, logPath(stack, namespace, name, 'follow=true&tailLines=0'));
    const first = Array.from({ length: 5 }, () => unique('first'));
    for (const t of first) stack.sim.store.appendLog(namespace, name, container, t);
    await s.waitFor((x) => rawOf(x).includes(first.at(-1)!));
    stack.sim.store.restartContainer(namespace, name, container, { exitCode: 2, reason: 'Error' });
    const second = Array.from({ length: 5 }, () => unique('second'));
    for (const t of second) stack.sim.store.appendLog(namespace, name, container, t);
    await s.waitFor((x) => rawOf(x).includes(second.at(-1)!), 5_000);
    s.close();

    const kinds = s.records.map((r) => (r.type === 'marker' ? r.event : r.type === 'line' ? r.raw : r.type));
    const terminated = kinds.indexOf('terminated');
    const restarted = kinds.indexOf('restarted');
    expect(terminated).toBeGreaterThan(kinds.indexOf(first.at(-1)!));
    expect(restarted).toBe(terminated + 1);
    expect(kinds.indexOf(second[0]!)).toBeGreaterThan(restarted);
    const raws = rawOf(s);
    expect(new Set(raws).size).toBe(raws.length);
    for (const t of [...first, ...second]) expect(raws.filter((r) => r === t)).toHaveLength(1);
    const [term, restart] = markersOf(s);
    expect(term).toMatchObject({ event: 'terminated', exitCode: 2, reason: 'Error', container });
    expect(restart).toMatchObject({ event: 'restarted', container });
    expect(restart!.restartCount).toBeGreaterThan(0);
    // The exit lines of the old instance come before the marker, the new instance's startup after it.
    expect(linesOf(s).every((l) => l.pod === name)).toBe(true);
  });

  it('waits through a crash loop back-off and follows the next instance', async () => {
    const { namespace, name, container } = crashLoop;
    const s = await openStream(stack, logPath(stack, namespace, name, 'follow=true'));
    expect(s.status).toBe(200);
    // Waiting in back-off, the kubelet serves the last terminated instance, which ends in a panic.
    await s.waitFor((x) => markersOf(x).some((m) => m.event === 'terminated'), 5_000);
    expect(rawOf(s).some((r) => r.startsWith('panic:'))).toBe(true);
    stack.sim.store.startContainer(namespace, name, container);
    const text = unique('next-run');
    stack.sim.store.appendLog(namespace, name, container, text);
    await s.waitFor((x) => rawOf(x).includes(text), 5_000);
    s.close();
    const events = markersOf(s).map((m) => m.event);
    expect(events).toEqual(['terminated', 'restarted']);
  });

  it('a reader that stops reading holds the stream back, then gets every line in order', async () => {
    const { namespace, name, container } = payments;
    const url = new URL(stack.url + logPath(stack, namespace, name, 'follow=true&tailLines=0'));
    const lines: string[] = [];
    let res!: IncomingMessage;
    await new Promise<void>((resolve) => {
      const req = httpGet(url, { headers: stack.session.headers }, (r) => {
        res = r;
        resolve();
      });
      req.end();
    });
    let partial = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      lines.push(...parts);
    });
    res.pause();
    // 8 MB while nobody reads: far beyond what the service may buffer (256 KiB per kubelet stream).
    const pad = 'x'.repeat(2_000);
    const total = 4_000;
    for (let i = 0; i < total; i++) stack.sim.store.appendLog(namespace, name, container, `slow-${i} ${pad}`);
    await new Promise((r) => setTimeout(r, 300));
    res.resume();
    await eventually(async () => expect(lines.length).toBe(total), 15_000);
    res.destroy();
    expect(lines.map((l) => l.split(' ')[0])).toEqual(Array.from({ length: total }, (_, i) => `slow-${i}`));
  });

  it('follows every pod of a deployment, each line tagged with its pod', async () => {
    const pods = stack.sim.store
      .list('pods', 'shop')
      .filter((p) => p.metadata.name.startsWith('checkout-'))
      .map((p) => p.metadata.name);
    expect(pods.length).toBeGreaterThan(1);
    const s = await openStream(
      stack,
      logPath(stack, 'shop', 'checkout', 'follow=true&tailLines=0', 'deployment'),
    );
    const sent = pods.map((pod) => {
      const text = unique(`pod-${pod}`);
      stack.sim.store.appendLog('shop', pod, 'checkout', text);
      return { pod, text };
    });
    await s.waitFor((x) => sent.every((p) => rawOf(x).includes(p.text)), 5_000);
    s.close();
    for (const { pod, text } of sent) expect(linesOf(s).find((l) => l.raw === text)?.pod).toBe(pod);
  });
});
