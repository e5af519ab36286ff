/**
 * The events list over real HTTP against the simulator: the records as the API serves them, the
 * timestamp fallbacks, every filter, and what the monitoring flags leave out.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster, EventRecord } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import { eventually } from '../test-support/eventually.test-support';
import { collectAll, type Stack, startStack } from '../test-support/harness.test-support';
import { login } from '../test-support/login.test-support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack?.close());

const events = (query = '') => `${stack.cluster}/kubernetes-events${query ? `?${query}` : ''}`;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Waits until the service's watch has seen the event about `name`, then returns it. */
async function eventAbout(name: string): Promise<EventRecord> {
  return eventually(async () => {
    const res = await stack.get<EventRecord[]>(events(`name=${name}`));
    expect(res.body).toHaveLength(1);
    return res.body[0]!;
  });
}

describe('event records', () => {
  it('carry exactly the spec fields, mapped from the Kubernetes event', async () => {
    const all = await collectAll<EventRecord>(stack, events('limit=1000'));
    expect(all.length).toBeGreaterThan(20);
    const raw = await stack.direct().listEventForAllNamespaces();
    const byUid = new Map(raw.items.map((e) => [e.metadata?.uid, e]));
    for (const e of all) {
      expect(Object.keys(e).sort()).toEqual(
        [
          'clusterId',
          'count',
          'eventId',
          'firstTimestamp',
          'involvedObject',
          'lastTimestamp',
          'message',
          'reason',
          'resourceId',
          'source',
          'type',
          'workspaceId',
        ].sort(),
      );
      expect(Object.keys(e.involvedObject).sort()).toEqual(['kind', 'name', 'namespace', 'uid']);
      expect(Object.keys(e.source).sort()).toEqual(['component', 'host']);
      expect(['NORMAL', 'WARNING']).toContain(e.type);
      expect(e.firstTimestamp).toMatch(ISO_UTC);
      expect(e.lastTimestamp).toMatch(ISO_UTC);
      expect(Number.isInteger(e.count)).toBe(true);
      const source = byUid.get(e.eventId);
      expect(source, `event ${e.eventId} should be the apiserver's uid`).toBeDefined();
      expect(e.resourceId).toBe(source!.involvedObject.uid ?? '');
      expect(e.reason).toBe(source!.reason);
      expect(e.type).toBe(source!.type!.toUpperCase());
    }
  });

  it('are ordered by lastTimestamp descending, then eventId', async () => {
    const all = await collectAll<EventRecord>(stack, events('limit=1000'));
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1]!, all[i]!];
      const [ta, tb] = [Date.parse(a.lastTimestamp), Date.parse(b.lastTimestamp)];
      expect(ta > tb || (ta === tb && a.eventId < b.eventId), `${a.eventId} before ${b.eventId}`).toBe(true);
    }
  });

  it('cover every reason the spec names and both types', async () => {
    const all = await collectAll<EventRecord>(stack, events('limit=1000'));
    const reasons = new Set(all.map((e) => e.reason));
    for (const r of [
      'FailedScheduling',
      'Failed',
      'ErrImagePull',
      'ImagePullBackOff',
      'FailedMount',
      'Unhealthy',
      'Started',
      'Killing',
      'VolumeResizeFailed',
    ]) {
      expect(reasons, r).toContain(r);
    }
    expect(new Set(all.map((e) => e.type))).toEqual(new Set(['NORMAL', 'WARNING']));
  });
});

describe('timestamp fallbacks for events.k8s.io-style events', () => {
  it('use eventTime when first and last are empty', async () => {
    stack.sim.store.addEvent({
      involvedObject: { kind: 'Pod', name: 'fallback-eventtime', namespace: 'default' },
      reason: 'Started',
      message: 'new style',
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: '2026-03-01T10:00:00.123456Z',
    });
    const e = await eventAbout('fallback-eventtime');
    expect(e.firstTimestamp).toBe('2026-03-01T10:00:00.123456Z');
    expect(e.lastTimestamp).toBe('2026-03-01T10:00:00.123456Z');
  });

  it('then series.lastObservedTime', async () => {
    stack.sim.store.addEvent({
      involvedObject: { kind: 'Pod', name: 'fallback-series', namespace: 'default' },
      reason: 'BackOff',
      message: 'series only',
      type: 'Warning',
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: null,
      series: { count: 7, lastObservedTime: '2026-03-02T11:00:00.000001Z' },
    });
    const e = await eventAbout('fallback-series');
    expect(e.lastTimestamp).toBe('2026-03-02T11:00:00.000001Z');
    expect(e.firstTimestamp).toBe('2026-03-02T11:00:00.000001Z');
    expect(e.count).toBe(7);
    expect(e.type).toBe('WARNING');
  });

  it('then creationTimestamp', async () => {
    stack.sim.store.addEvent({
      involvedObject: { kind: 'Pod', name: 'fallback-created', namespace: 'default' },
      reason: 'Killing',
      message: 'nothing but creation',
      metadata: { creationTimestamp: '2026-03-03T12:00:00Z' },
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: null,
    });
    const e = await eventAbout('fallback-created');
    expect(e.firstTimestamp).toBe('2026-03-03T12:00:00Z');
    expect(e.lastTimestamp).toBe('2026-03-03T12:00:00Z');
  });
});

describe('filters', () => {
  it('type (any case), reason, namespace, kind and name combine with AND and stay in the links', async () => {
    const warnings = await collectAll<EventRecord>(stack, events('type=warning&limit=1000'));
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.every((e) => e.type === 'WARNING')).toBe(true);
    const sample = warnings.find((e) => e.involvedObject.namespace !== '')!;
    const q = `reason=${sample.reason}&namespace=${sample.involvedObject.namespace}&kind=${sample.involvedObject.kind.toLowerCase()}&name=${sample.involvedObject.name}`;
    const narrowed = await collectAll<EventRecord>(stack, events(`${q}&limit=1000`));
    expect(narrowed.length).toBeGreaterThan(0);
    for (const e of narrowed) {
      expect(e.reason).toBe(sample.reason);
      expect(e.involvedObject).toMatchObject({
        namespace: sample.involvedObject.namespace,
        name: sample.involvedObject.name,
        kind: sample.involvedObject.kind,
      });
    }
  });

  it('since takes an instant or a duration', async () => {
    const all = await collectAll<EventRecord>(stack, events('limit=1000'));
    const pivot = all[Math.floor(all.length / 2)]!.lastTimestamp;
    const recent = await collectAll<EventRecord>(
      stack,
      events(`since=${encodeURIComponent(pivot)}&limit=1000`),
    );
    expect(recent.length).toBe(all.filter((e) => Date.parse(e.lastTimestamp) >= Date.parse(pivot)).length);
    expect(recent.length).toBeLessThan(all.length);
    const none = await stack.get<EventRecord[]>(events('since=2999-01-01T00:00:00Z'));
    expect(none.body).toEqual([]);
    const dayAgo = await stack.get<EventRecord[]>(events('since=1d'));
    expect(dayAgo.status).toBe(200);
  });

  it('since as a duration counts back from now', async () => {
    stack.sim.store.addEvent({
      involvedObject: { kind: 'Pod', name: 'ancient-event', namespace: 'default' },
      reason: 'Started',
      message: 'long ago',
      firstTimestamp: '2020-01-01T00:00:00Z',
      lastTimestamp: '2020-01-01T00:00:00Z',
    });
    stack.sim.store.addEvent({
      involvedObject: { kind: 'Pod', name: 'fresh-event', namespace: 'default' },
      reason: 'Started',
      message: 'just now',
    });
    await eventAbout('ancient-event');
    await eventAbout('fresh-event');
    expect((await stack.get<EventRecord[]>(events('name=ancient-event&since=1d'))).body).toEqual([]);
    expect((await stack.get<EventRecord[]>(events('name=ancient-event&since=3000d'))).body).toHaveLength(1);
    expect((await stack.get<EventRecord[]>(events('name=fresh-event&since=1d'))).body).toHaveLength(1);
  });

  it.each([
    ['type=error', 'invalid_query'],
    ['since=yesterday', 'invalid_query'],
    ['since=10x', 'invalid_query'],
    ['namespace=Not_Valid', 'invalid_name'],
    ['kind=p-o-d', 'invalid_query'],
    ['reason=', 'invalid_query'],
  ])('refuses %s with 400 %s', async (q, code) => {
    const res = await stack.get<Problem>(events(q));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    expect(res.body.detail.length).toBeGreaterThan(5);
  });
});

describe('monitoring flags', () => {
  const patch = (body: unknown, headers: Record<string, string> = {}) =>
    stack.send<Cluster | Problem>('PATCH', '/v1/workspaces/default/clusters/sim-test', body, headers);
  afterEach(async () => {
    await patch({ clusterAgent: { monitoring: { resourceEventsEnabled: true, systemEventsEnabled: true } } });
  });

  it('default to true and leave out a disabled category', async () => {
    const all = await collectAll<EventRecord>(stack, events('limit=1000'));
    const system = all.filter((e) => e.involvedObject.namespace === '');
    const resource = all.filter((e) => e.involvedObject.namespace !== '');
    expect(system.length).toBeGreaterThan(0);
    expect(resource.length).toBeGreaterThan(0);

    const off = await patch({ clusterAgent: { monitoring: { resourceEventsEnabled: false } } });
    expect(off.status).toBe(200);
    expect((off.body as Cluster).monitoring.clusterAgent.monitoring).toEqual({
      resourceEventsEnabled: false,
      systemEventsEnabled: true,
    });
    const onlySystem = await collectAll<EventRecord>(stack, events('limit=1000'));
    expect(onlySystem.map((e) => e.eventId)).toEqual(system.map((e) => e.eventId));

    await patch({
      clusterAgent: { monitoring: { resourceEventsEnabled: true, systemEventsEnabled: false } },
    });
    const onlyResource = await collectAll<EventRecord>(stack, events('limit=1000'));
    expect(onlyResource.map((e) => e.eventId)).toEqual(resource.map((e) => e.eventId));

    const clusters = await stack.get<Cluster[]>('/v1/workspaces/default/clusters');
    expect(clusters.body[0]!.monitoring.clusterAgent.monitoring.systemEventsEnabled).toBe(false);
  });

  it('can be changed by administrators only', async () => {
    const created = await stack.send('POST', '/v1/auth/accounts', {
      username: 'viewer',
      password: 'viewer-password-1',
      role: 'member',
      workspaces: ['default'],
    });
    expect(created.status).toBe(201);
    const viewer = await login(stack.url, 'viewer', 'viewer-password-1');
    const res = await patch({ clusterAgent: { monitoring: { systemEventsEnabled: false } } }, viewer.headers);
    expect([res.status, (res.body as Problem).code]).toEqual([403, 'admin_required']);
    // A member still reads the events.
    expect((await stack.get(events(), viewer.headers)).status).toBe(200);
  });

  it('refuses a bad body, unknown keys and a non-JSON content type', async () => {
    expect((await patch({ clusterAgent: { monitoring: { resourceEventsEnabled: 'no' } } })).status).toBe(400);
    const typo = await patch({ clusterAgent: { monitoring: { resourceEventEnabled: false } } });
    expect(typo.status).toBe(400);
    expect((typo.body as Problem).detail).toContain('resourceEventEnabled');
    expect((await patch('{not json')).status).toBe(400);
    expect((await patch('x=1', { 'content-type': 'text/plain' })).status).toBe(415);
  });
});
