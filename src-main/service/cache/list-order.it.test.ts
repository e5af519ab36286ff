/**
 * List order over HTTP: events by lastTimestamp descending then eventId, pods by namespace then
 * name.
 */
import type { EventInput, Simulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRecord, ResourceWrapper } from '../../../src-shared/contract/models';
import { eventually } from '../test-support/eventually.test-support';
import { collectAll, type Stack, startStack } from '../test-support/harness.test-support';

/**
 * The service imposes its documented order; it never inherits the cluster's. The simulator lists
 * each chunk in a scrambled order here (as kine and the old watch cache do), and the fixtures are
 * built so that no natural order (names, uids, insertion, reversed insertion, first timestamps)
 * is the answer: a comparator that does nothing, or compares the wrong thing, fails.
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ simulator: { listOrder: 'scrambled' } });
  // Before the first cluster request: these reach the service through its initial list.
  addEvents(stack.sim, LISTED);
  addPods(stack.sim, 'listed');
});
afterAll(async () => stack?.close());

const T = Date.parse('2031-05-04T10:00:00Z');
const at = (s: number) => new Date(T + s * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The answer, in order: lastTimestamp descending, then eventId ascending. Two groups tie on
 * lastTimestamp; within each, names and insertion order disagree with the uids.
 */
const EVENTS = [
  { name: 'ev-g', uid: 'f0000000-0000-4000-8000-000000000000', last: 30, first: -90 },
  { name: 'ev-c', uid: '20000000-0000-4000-8000-000000000000', last: 20, first: -10 },
  { name: 'ev-a', uid: '60000000-0000-4000-8000-000000000000', last: 20, first: -30 },
  { name: 'ev-e', uid: 'a0000000-0000-4000-8000-000000000000', last: 20, first: -20 },
  { name: 'ev-f', uid: '10000000-0000-4000-8000-000000000000', last: 10, first: 0 },
  // Written through events.k8s.io: no lastTimestamp, so its eventTime is the one it ties on.
  { name: 'ev-b', uid: '50000000-0000-4000-8000-000000000000', last: 10, first: -5, newStyle: true },
  { name: 'ev-d', uid: '90000000-0000-4000-8000-000000000000', last: 10, first: -1 },
] as const;
/** Insertion order (resourceVersion order): not the answer, and not its reverse in either tie. */
const INSERTION = [2, 5, 0, 3, 6, 1, 4];

/** One copy of the fixture per namespace; the last uid digit tells the copies apart. */
const LISTED = { ns: 'order-listed', digit: '1' };
const WATCHED = { ns: 'order-watched', digit: '2' };
type Copy = typeof LISTED;
const uidIn = (copy: Copy, uid: string) => `${uid.slice(0, -1)}${copy.digit}`;
const expectedUids = (copy: Copy) => EVENTS.map((e) => uidIn(copy, e.uid));

function addEvents(sim: Simulator, copy: Copy) {
  const { ns } = copy;
  for (const i of INSERTION) {
    const e = EVENTS[i]!;
    const input: EventInput = {
      metadata: { name: e.name, namespace: ns, uid: uidIn(copy, e.uid) },
      involvedObject: { kind: 'Pod', name: `pod-${e.name}`, namespace: ns },
      reason: 'Started',
      message: e.name,
    };
    if ('newStyle' in e) {
      input.eventTime = `${at(e.last).replace('Z', '')}.000000Z`;
    } else {
      input.firstTimestamp = at(e.first);
      input.lastTimestamp = at(e.last);
    }
    sim.store.addEvent(input);
  }
}

/** `ord-a/…` sorts before `ord/…` as etcd keys ('-' < '/'), after it by namespace then name. */
const PODS = [
  ['ord', 'p-a'],
  ['ord', 'p-b'],
  ['ord', 'p-c'],
  ['ord-a', 'p-a'],
  ['ord-a', 'p-b'],
] as const;
const POD_INSERTION = [4, 1, 3, 0, 2];

function addPods(sim: Simulator, fixture: string) {
  for (const i of POD_INSERTION) {
    const [ns, name] = PODS[i]!;
    sim.store.upsert({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${name}-${fixture}`, namespace: ns, labels: { fixture } },
      spec: { containers: [{ name: 'main', image: 'busybox' }] },
    });
  }
}
const expectedPods = (fixture: string) => PODS.map(([ns, name]) => `${ns}/${name}-${fixture}`);

const eventsPath = (q: string) => `${stack.cluster}/kubernetes-events?${q}`;
const podsPath = (q: string) => `${stack.cluster}/kubernetes-proxy/pod?${q}`;
const podIds = (items: ResourceWrapper[]) =>
  items.map((i) => `${i.resource.metadata.namespace}/${i.resource.metadata.name}`);

describe('the event list is ordered by lastTimestamp descending, then eventId ascending', () => {
  it('whatever order the cluster lists the events in', async () => {
    const listed = await stack.direct().listNamespacedEvent({ namespace: LISTED.ns });
    const natural = listed.items.map((e) => e.metadata?.uid);
    // The precondition that makes this test able to fail: the cluster's own order is not the answer.
    expect(natural).toHaveLength(EVENTS.length);
    expect(natural).not.toEqual(expectedUids(LISTED));

    const page = await stack.get<EventRecord[]>(eventsPath(`namespace=${LISTED.ns}`));
    expect(page.body.map((e) => e.eventId)).toEqual(expectedUids(LISTED));
  });

  it('for events that arrive through the watch, in any order', async () => {
    addEvents(stack.sim, WATCHED);
    const ids = await eventually(async () => {
      const page = await stack.get<EventRecord[]>(eventsPath(`namespace=${WATCHED.ns}`));
      expect(page.body).toHaveLength(EVENTS.length);
      return page.body.map((e) => e.eventId);
    });
    expect(ids).toEqual(expectedUids(WATCHED));
  });

  it('in the unfiltered list too, across every page', async () => {
    const all = await collectAll<EventRecord>(stack, eventsPath('limit=7'));
    expect(all.length).toBeGreaterThan(80);
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1]!, all[i]!];
      const [ta, tb] = [Date.parse(a.lastTimestamp), Date.parse(b.lastTimestamp)];
      expect(ta > tb || (ta === tb && a.eventId < b.eventId), `${a.eventId} before ${b.eventId}`).toBe(true);
    }
    const fixture = all.filter((e) => e.involvedObject.namespace === LISTED.ns).map((e) => e.eventId);
    expect(fixture).toEqual(expectedUids(LISTED));
  });
});

describe('the pod list is ordered by namespace, then name', () => {
  it('whatever order the cluster lists the pods in', async () => {
    const listed = await stack.direct().listPodForAllNamespaces({ labelSelector: 'fixture=listed' });
    const natural = listed.items.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`);
    expect(natural).toHaveLength(PODS.length);
    expect(natural).not.toEqual(expectedPods('listed'));

    const page = await stack.get<ResourceWrapper[]>(podsPath('labelSelector=fixture%3Dlisted'));
    expect(podIds(page.body)).toEqual(expectedPods('listed'));
  });

  it('for pods that arrive through the watch, in any order', async () => {
    addPods(stack.sim, 'watched');
    const ids = await eventually(async () => {
      const page = await stack.get<ResourceWrapper[]>(podsPath('labelSelector=fixture%3Dwatched'));
      expect(page.body).toHaveLength(PODS.length);
      return podIds(page.body);
    });
    expect(ids).toEqual(expectedPods('watched'));
  });

  it('in the unfiltered list too, across every page', async () => {
    const all = podIds(await collectAll<ResourceWrapper>(stack, podsPath('limit=9')));
    expect(all.length).toBeGreaterThan(30);
    const key = (id: string) => id.split('/') as [string, string];
    for (let i = 1; i < all.length; i++) {
      const [[na, a], [nb, b]] = [key(all[i - 1]!), key(all[i]!)];
      expect(na < nb || (na === nb && a < b), `${all[i - 1]} before ${all[i]}`).toBe(true);
    }
    expect(all.filter((id) => id.endsWith('-listed'))).toEqual(expectedPods('listed'));
  });
});
