import { afterEach, describe, expect, it } from 'vitest';
import { parseCapturedLog, parseLogTimestamp } from './captured';
import {
  type CapturedObject,
  capturedContent,
  type KubeObject,
  type Simulator,
  startSimulator,
} from './index';

describe('captured log text', () => {
  it('keeps the nanoseconds below the millisecond of a CRI timestamp', () => {
    expect(parseLogTimestamp('2026-03-01T12:00:00.123456789Z')).toEqual({
      ts: Date.parse('2026-03-01T12:00:00.123Z'),
      nanos: 456789,
    });
    expect(parseLogTimestamp('2026-03-01T13:00:00+01:00')).toEqual({
      ts: Date.parse('2026-03-01T12:00:00Z'),
      nanos: 0,
    });
    expect(parseLogTimestamp('not-a-time')).toBeUndefined();
  });

  it('splits lines at the first space; a line without a timestamp keeps the one before it', () => {
    const lines = parseCapturedLog(
      '2026-03-01T12:00:01.5Z first line\ncontinued  here\n2026-03-01T12:00:02Z \n',
    );
    expect(lines.map((l) => l.text)).toEqual(['first line', 'continued  here', '']);
    expect(lines[1]!.ts).toBe(lines[0]!.ts);
    expect(lines[2]!.ts).toBe(Date.parse('2026-03-01T12:00:02Z'));
    expect(parseCapturedLog('')).toEqual([]);
  });
});

/** An object as a snapshot file holds it: apiVersion and kind first, then the rest. */
function captured(obj: KubeObject, decoded: string[]): CapturedObject {
  const { apiVersion, kind, ...rest } = obj;
  const json = JSON.stringify({ apiVersion, kind, ...rest });
  return {
    json,
    valid: true,
    namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name,
    decode: () => {
      decoded.push(obj.metadata.name);
      return JSON.parse(json) as KubeObject;
    },
  };
}

const pod = (name: string, rv: number, app: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'shop',
    uid: `uid-${name}`,
    resourceVersion: String(rv),
    creationTimestamp: '2026-03-01T12:00:00Z',
    labels: { app },
  },
  spec: { containers: [{ name: 'main', image: 'shop:1' }] },
  status: { phase: 'Running' },
});

const event = (name: string, rv: number): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: {
    name,
    namespace: 'shop',
    uid: `uid-${name}`,
    resourceVersion: String(rv),
    creationTimestamp: '2026-03-01T12:00:00Z',
  },
  involvedObject: { kind: 'Pod', name: 'web-b', namespace: 'shop', resourceVersion: '5' },
  reason: 'Started',
  message: 'started',
  type: 'Normal',
});

describe('a frozen cluster from captured text', () => {
  let sim: Simulator | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  async function frozen(objects: CapturedObject[], events: CapturedObject[] = []) {
    sim = await startSimulator({
      tickMs: false,
      // What is served, not how: plain HTTP here (HTTPS when asked, tls.test.ts).
      token: 'frozen-token',
      content: capturedContent({
        objects: Object.fromEntries([['Pod', () => objects]]),
        events: () => events,
        log: () => undefined,
        podMetrics: () => [],
        nodeMetrics: () => [],
      }),
    });
    const url = sim.url;
    return async (path: string) => {
      const res = await fetch(url + path, { headers: { authorization: 'Bearer frozen-token' } });
      return { status: res.status, body: await res.text() };
    };
  }

  const listed = (body: string) =>
    (JSON.parse(body) as { items: Array<{ metadata: { name: string } }> }).items;

  it('lists objects as their captured text, parsing each only when it is read one by one or filtered', async () => {
    const decoded: string[] = [];
    const pods = [pod('web-c', 30, 'web'), pod('api-a', 10, 'api'), pod('web-b', 20, 'web')];
    const get = await frozen(pods.map((p) => captured(p, decoded)));

    const all = await get('/api/v1/pods');
    expect(all.status).toBe(200);
    const { apiVersion: _a, kind: _k, ...bare } = pods[1]!;
    expect(listed(all.body)).toEqual(
      ['api-a', 'web-b', 'web-c'].map((n) =>
        expect.objectContaining({ metadata: expect.objectContaining({ name: n }) }),
      ),
    );
    expect(listed(all.body)[0]).toEqual(bare);
    expect(JSON.parse(all.body).metadata.resourceVersion).toBe('30');
    expect(decoded).toEqual([]);

    const one = await get('/api/v1/namespaces/shop/pods/web-b');
    expect(JSON.parse(one.body)).toEqual(pods[2]);
    expect(decoded).toEqual(['web-b']);

    const web = await get('/api/v1/pods?labelSelector=app%3Dweb');
    expect(listed(web.body).map((p) => p.metadata.name)).toEqual(['web-b', 'web-c']);
    expect(decoded.sort()).toEqual(['api-a', 'web-b', 'web-c']);

    // Once parsed, the same list answers the same.
    expect((await get('/api/v1/pods')).body).toBe(all.body);
  });

  it('parses text in another shape at once, and leaves out an object whose text cannot be read', async () => {
    const decoded: string[] = [];
    const odd = pod('odd-kind-last', 12, 'api');
    const oddText = JSON.stringify({
      metadata: odd.metadata,
      spec: odd.spec,
      status: odd.status,
      kind: 'Pod',
      apiVersion: 'v1',
    });
    const objects: CapturedObject[] = [
      captured(pod('good', 11, 'api'), decoded),
      {
        json: oddText,
        valid: true,
        namespace: 'shop',
        name: odd.metadata.name,
        decode: () => {
          decoded.push('odd-kind-last');
          return JSON.parse(oddText) as KubeObject;
        },
      },
      {
        json: '{"apiVersion":"v1","kind":"Pod","metadata":{',
        valid: false,
        namespace: 'shop',
        name: 'broken',
        decode: () => JSON.parse('{"apiVersion":"v1","kind":"Pod","metadata":{') as KubeObject,
      },
    ];
    const get = await frozen(objects);
    const all = await get('/api/v1/pods');
    expect(all.status).toBe(200);
    expect(listed(all.body).map((p) => p.metadata.name)).toEqual(['good', 'odd-kind-last']);
    expect(decoded).toEqual(['odd-kind-last']);
  });

  it('keeps the continue tokens and watches of one kind valid when another kind loads on its first read', async () => {
    const decoded: string[] = [];
    const get = await frozen(
      [pod('b', 20, 'web'), pod('a', 10, 'web')].map((p) => captured(p, decoded)),
      // Newer than every pod: reading the events raises the cluster's revision.
      [event('e1', 500), event('e2', 400)].map((e) => captured(e, decoded)),
    );
    const first = JSON.parse((await get('/api/v1/pods?limit=1')).body) as {
      metadata: { resourceVersion: string; continue: string };
    };
    expect(first.metadata.resourceVersion).toBe('20');

    const events = await get('/api/v1/events');
    expect(listed(events.body).map((e) => e.metadata.name)).toEqual(['e1', 'e2']);
    expect(JSON.parse(events.body).metadata.resourceVersion).toBe('500');

    const rest = await get(`/api/v1/pods?limit=1&continue=${first.metadata.continue}`);
    expect(rest.status).toBe(200);
    expect(listed(rest.body).map((p) => p.metadata.name)).toEqual(['b']);
    const watch = await get(
      `/api/v1/pods?watch=1&resourceVersion=${first.metadata.resourceVersion}&timeoutSeconds=1`,
    );
    expect(watch.status).toBe(200);
    expect(watch.body).not.toContain('"ERROR"');
  });
});
