/**
 * How a Kubernetes event becomes a record: its category (what the monitoring flags act on), and
 * the fallbacks for fields that events.k8s.io writers leave empty. One fixture event per case,
 * each found by its involved object's name.
 */
import type { EventInput } from '@skiff/kube-simulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster, EventRecord } from '../../../src-shared/contract/models';
import { eventually } from '../test-support/eventually.test-support';
import { type Stack, startStack } from '../test-support/harness.test-support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack?.close());

const events = (q: string) => `${stack.cluster}/kubernetes-events?${q}`;

async function added(input: EventInput): Promise<EventRecord> {
  stack.sim.store.addEvent(input);
  return eventually(async () => {
    const res = await stack.get<EventRecord[]>(events(`name=${input.involvedObject.name}`));
    expect(res.body).toHaveLength(1);
    return res.body[0]!;
  });
}

describe('monitoring flags act on the category of the involved object', () => {
  const NS = 'flags-lab';
  /** A namespaced object: a "resource" event. */
  let POD = '';
  /** Cluster-scoped objects: "system" events (a node, and a namespace object itself). */
  let NODE = '';
  let NAMESPACE = '';

  // Fresh fixtures for each test, added inside it: the cache maps them while the test runs, so a
  // mutation run counts each flag test as covering the mapping (setup in beforeAll counts for none).
  let round = 0;
  beforeEach(async () => {
    round++;
    [POD, NODE, NAMESPACE] = [`flags-pod-${round}`, `flags-node-${round}`, `flags-namespace-${round}`];
    await added({
      involvedObject: { kind: 'Pod', name: POD, namespace: NS },
      metadata: { namespace: NS },
      reason: 'BackOff',
      message: 'namespaced',
    });
    await added({
      involvedObject: { kind: 'Node', name: NODE },
      metadata: { namespace: 'default' },
      reason: 'NodeNotReady',
      message: 'cluster-scoped',
    });
    await added({
      involvedObject: { kind: 'Namespace', name: NAMESPACE },
      metadata: { namespace: 'default' },
      reason: 'Terminating',
      message: 'cluster-scoped',
    });
  });

  const setFlags = async (monitoring: { resourceEventsEnabled: boolean; systemEventsEnabled: boolean }) => {
    const res = await stack.send<Cluster>('PATCH', '/v1/workspaces/default/clusters/sim-test', {
      clusterAgent: { monitoring },
    });
    expect(res.status).toBe(200);
  };
  afterEach(() => setFlags({ resourceEventsEnabled: true, systemEventsEnabled: true }));

  /** Which fixture objects show, asked one by one (the name filter) and in the whole list. */
  async function shown(): Promise<{ byName: string[]; inList: string[]; total: number }> {
    const byName: string[] = [];
    for (const name of [POD, NODE, NAMESPACE]) {
      const res = await stack.get<EventRecord[]>(events(`name=${name}`));
      if (res.body.length > 0) byName.push(name);
    }
    const all = await stack.get<EventRecord[]>(events('limit=1000'));
    const inList = [POD, NODE, NAMESPACE].filter((n) => all.body.some((e) => e.involvedObject.name === n));
    return { byName, inList, total: Number(all.headers.get('x-total')) };
  }

  it('both on: events about namespaced and cluster-scoped objects both show', async () => {
    const { byName, inList } = await shown();
    expect(byName).toEqual([POD, NODE, NAMESPACE]);
    expect(inList).toEqual([POD, NODE, NAMESPACE]);
  });

  it('resourceEventsEnabled off hides the namespaced object’s event and keeps the cluster-scoped ones', async () => {
    const before = (await shown()).total;
    await setFlags({ resourceEventsEnabled: false, systemEventsEnabled: true });
    const { byName, inList, total } = await shown();
    expect(byName).toEqual([NODE, NAMESPACE]);
    expect(inList).toEqual([NODE, NAMESPACE]);
    expect(total).toBeLessThan(before);
  });

  it('systemEventsEnabled off hides the cluster-scoped objects’ events and keeps the namespaced one', async () => {
    const before = (await shown()).total;
    await setFlags({ resourceEventsEnabled: true, systemEventsEnabled: false });
    const { byName, inList, total } = await shown();
    expect(byName).toEqual([POD]);
    expect(inList).toEqual([POD]);
    expect(total).toBeLessThan(before);
  });

  it('both off: no event shows', async () => {
    await setFlags({ resourceEventsEnabled: false, systemEventsEnabled: false });
    const { byName, total } = await shown();
    expect(byName).toEqual([]);
    expect(total).toBe(0);
  });
});

describe('source falls back to the events.k8s.io reporting fields', () => {
  it('source.component to reportingComponent and source.host to reportingInstance', async () => {
    const e = await added({
      involvedObject: { kind: 'Pod', name: 'source-reporting', namespace: 'default' },
      reason: 'Scheduled',
      message: 'no source',
      source: {},
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-cp-1',
    });
    expect(e.source).toEqual({ component: 'default-scheduler', host: 'default-scheduler-cp-1' });
  });

  it('a source that is set wins over the reporting fields', async () => {
    const e = await added({
      involvedObject: { kind: 'Pod', name: 'source-own', namespace: 'default' },
      reason: 'Pulled',
      message: 'own source',
      source: { component: 'kubelet', host: 'worker-1' },
      reportingComponent: 'other-component',
      reportingInstance: 'other-instance',
    });
    expect(e.source).toEqual({ component: 'kubelet', host: 'worker-1' });
  });

  it('neither set: empty strings', async () => {
    const e = await added({
      involvedObject: { kind: 'Pod', name: 'source-none', namespace: 'default' },
      reason: 'Pulled',
      message: 'nothing',
      source: {},
      reportingComponent: '',
      reportingInstance: '',
    });
    expect(e.source).toEqual({ component: '', host: '' });
  });
});

describe('an empty firstTimestamp or lastTimestamp falls back on its own', () => {
  const FIRST = '2026-04-01T08:00:00Z';
  const LAST = '2026-04-01T09:00:00Z';
  const EVENT_TIME = '2026-04-02T10:00:00.123456Z';
  const OBSERVED = '2026-04-03T11:00:00.654321Z';
  const CREATED = '2026-04-04T12:00:00Z';
  /** What each fallback source contributes; the next ones in the order are present too, and lose. */
  const SOURCES = {
    eventTime: {
      fields: { eventTime: EVENT_TIME, series: { count: 2, lastObservedTime: OBSERVED } },
      expected: EVENT_TIME,
    },
    'series.lastObservedTime': {
      fields: { eventTime: null, series: { count: 2, lastObservedTime: OBSERVED } },
      expected: OBSERVED,
    },
    creationTimestamp: { fields: { eventTime: null }, expected: CREATED },
  } as const;

  it.each(Object.keys(SOURCES) as Array<keyof typeof SOURCES>)(
    'lastTimestamp empty: it takes %s, and firstTimestamp keeps its own value',
    async (source) => {
      const { fields, expected } = SOURCES[source];
      const e = await added({
        involvedObject: {
          kind: 'Pod',
          name: `last-from-${source.replace('.', '-').toLowerCase()}`,
          namespace: 'default',
        },
        metadata: { creationTimestamp: CREATED },
        reason: 'Started',
        message: source,
        firstTimestamp: FIRST,
        lastTimestamp: null,
        ...fields,
      });
      expect([e.firstTimestamp, e.lastTimestamp]).toEqual([FIRST, expected]);
    },
  );

  it.each(Object.keys(SOURCES) as Array<keyof typeof SOURCES>)(
    'firstTimestamp empty: it takes %s, and lastTimestamp keeps its own value',
    async (source) => {
      const { fields, expected } = SOURCES[source];
      const e = await added({
        involvedObject: {
          kind: 'Pod',
          name: `first-from-${source.replace('.', '-').toLowerCase()}`,
          namespace: 'default',
        },
        metadata: { creationTimestamp: CREATED },
        reason: 'Started',
        message: source,
        firstTimestamp: null,
        lastTimestamp: LAST,
        ...fields,
      });
      expect([e.firstTimestamp, e.lastTimestamp]).toEqual([expected, LAST]);
    },
  );

  it('a time with an offset is given in UTC, and one that is not a time falls back', async () => {
    const e = await added({
      involvedObject: { kind: 'Pod', name: 'time-offset', namespace: 'default' },
      metadata: { creationTimestamp: CREATED },
      reason: 'Started',
      message: 'offset',
      firstTimestamp: '2026-04-01T10:00:00+02:00',
      lastTimestamp: 'not a time',
      eventTime: null,
    });
    expect([e.firstTimestamp, e.lastTimestamp]).toEqual(['2026-04-01T08:00:00.000Z', CREATED]);
  });
});

describe('count is series.count, else count, else 1', () => {
  it.each([
    ['series', { count: 3, series: { count: 9, lastObservedTime: '2026-04-05T00:00:00Z' } }, 9],
    ['count', { count: 4 }, 4],
    // events.k8s.io without a series: no count at all.
    ['neither', { eventTime: '2026-04-05T00:00:00.000000Z' }, 1],
  ] as const)('%s', async (name, fields, expected) => {
    const e = await added({
      involvedObject: { kind: 'Pod', name: `count-${name}`, namespace: 'default' },
      reason: 'BackOff',
      message: name,
      ...fields,
    });
    expect(e.count).toBe(expected);
  });
});
