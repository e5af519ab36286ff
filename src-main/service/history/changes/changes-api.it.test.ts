/**
 * The change history's API over real HTTP and IPC against the simulator, with changes the service
 * really recorded (issue 27 §1): an object's history (both paths, paging headers, since/until),
 * `?at=` (the object as it was, 404 before it was recorded), the cluster-wide feed (namespace and
 * kind filters), the changes watch (SYNCED, a new change as it is committed, Last-Event-ID resume,
 * RESET), and the refusals of bad input (400 with the parameter named, 404 for an unknown kind,
 * 409 for a name recorded in two namespaces).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterChange, ObjectChange } from '../../../../src-shared/contract/change-operations';
import type { KubeObject } from '../../../../src-shared/contract/models';
import type { Principal } from '../../context';
import { eventually } from '../../test-support/eventually.test-support';
import { CLUSTER_ID, parseLinks, type Stack, startStack } from '../../test-support/harness.test-support';
import { deployment, namespaceObject } from './changes-test.test-support';
import { editDeployment, openChangeWatch, setImage } from './reads-watch.test-support';

let stack: Stack;
let principal: Principal;
const NS = 'hist-api';
const OTHER = 'hist-api-2';
const NAME = 'hist-checkout';
/** resourceVersions of checkout's versions: created before recording, then two image edits and a scale. */
const rv: string[] = [];
const times: number[] = [];

beforeAll(async () => {
  stack = await startStack({
    service: { changeHistory: { flushMs: 20 }, eventWatch: { heartbeatMs: 300, credentialCheckMs: 100 } },
  });
  const found = await stack.service.auth.principalForAccessToken(stack.session.accessToken);
  if (!found) throw new Error('the admin session has no principal');
  principal = found;
  for (const ns of [NS, OTHER]) stack.sim.store.upsert(namespaceObject(ns));
  rv.push(
    stack.sim.store.upsert(deployment(NS, NAME, 'shop/checkout:1.4.0')).metadata.resourceVersion as string,
  );
  stack.sim.store.upsert(deployment(NS, 'twin', 'shop/twin:1'));
  stack.sim.store.upsert(deployment(OTHER, 'twin', 'shop/twin:1'));
  // The first read of the kind starts recording it (--record-changes viewed).
  expect((await stack.get(`${stack.cluster}/kubernetes-proxy/namespaces/${NS}/deployment`)).status).toBe(200);
  await eventually(async () => {
    const n = await stack.service.recorded.deps.backend.get<{ n: number }>(
      'SELECT count(*) AS n FROM change_history WHERE namespace = $ns AND name = $name',
      { ns: NS, name: NAME },
    );
    expect(n?.n).toBe(1);
  }, 15_000);
  for (const edit of [
    setImage('shop/checkout:1.4.1'),
    setImage('shop/checkout:1.4.2'),
    (d: { spec: { replicas: number } }) => {
      d.spec.replicas = 5;
    },
  ]) {
    // Distinct instants, so `at` can fall between versions.
    await new Promise((r) => setTimeout(r, 30));
    times.push(Date.now());
    await new Promise((r) => setTimeout(r, 30));
    rv.push(editDeployment(stack, NS, NAME, edit));
    await eventually(async () => {
      const res = await stack.get<ObjectChange[]>(`${history(NS)}`);
      expect(res.body[0]?.resourceVersion).toBe(rv.at(-1));
    }, 15_000);
  }
}, 60_000);
afterAll(async () => stack?.close());

const history = (ns?: string, name = NAME) =>
  ns === undefined
    ? `${stack.cluster}/history/deployment/${name}`
    : `${stack.cluster}/history/namespaces/${ns}/deployment/${name}`;

function overIpc(
  name:
    | 'objectHistory'
    | 'namespacedObjectHistory'
    | 'objectAt'
    | 'namespacedObjectAt'
    | 'listChanges'
    | 'watchChanges',
  params: Record<string, string>,
  query: Record<string, string>,
) {
  return stack.service.invoke(
    name,
    { params: { workspaceId: 'default', clusterId: CLUSTER_ID, ...params }, query, body: undefined } as never,
    { principal, client: { via: 'ipc' }, signal: new AbortController().signal },
  );
}

describe('an object’s history', () => {
  it('lists the recorded changes newest first with their patches and summaries', async () => {
    const res = await stack.get<ObjectChange[]>(history(NS));
    expect(res.status).toBe(200);
    expect(res.body.map((c) => c.resourceVersion)).toEqual([rv[3], rv[2], rv[1]]);
    expect(res.body.map((c) => c.change)).toEqual(['updated', 'updated', 'updated']);
    expect(res.body[2]?.summary).toBe('image app: 1.4.0 → 1.4.1');
    expect(res.body[0]?.summary).toBe('replicas 1 → 5');
    expect(res.body[2]?.patch).toEqual([
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'shop/checkout:1.4.1' },
    ]);
    expect(res.headers.get('x-total')).toBe('3');
  });

  it('is found without the namespace when only one namespace recorded the name', async () => {
    const res = await stack.get<ObjectChange[]>(history(undefined));
    expect(res.status).toBe(200);
    expect(res.body.map((c) => c.resourceVersion)).toEqual([rv[3], rv[2], rv[1]]);
  });

  it('is a 409 naming the namespaces when several recorded the name', async () => {
    await eventually(async () => {
      const res = await stack.get<{ code: string; namespaces: string[] }>(history(undefined, 'twin'));
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('conflict');
      expect(res.body.namespaces).toEqual([NS, OTHER]);
    }, 15_000);
  });

  it('pages with limit and offset, with x-Total and Link as events do', async () => {
    const first = await stack.get<ObjectChange[]>(`${history(NS)}?limit=1`);
    expect(first.body.map((c) => c.resourceVersion)).toEqual([rv[3]]);
    expect(first.headers.get('x-total')).toBe('3');
    expect(first.headers.get('x-limit')).toBe('1');
    expect(first.headers.get('x-offset')).toBe('0');
    const links = parseLinks(first.headers.get('link') ?? '');
    expect(links.next).toContain('offset=1');
    const second = await stack.get<ObjectChange[]>(links.next!);
    expect(second.body.map((c) => c.resourceVersion)).toEqual([rv[2]]);
  });

  it('keeps to since and until', async () => {
    const since = new Date(times[1]!).toISOString();
    const until = new Date(times[2]!).toISOString();
    const res = await stack.get<ObjectChange[]>(`${history(NS)}?since=${since}&until=${until}`);
    expect(res.body.map((c) => c.resourceVersion)).toEqual([rv[2]]);
    const recent = await stack.get<ObjectChange[]>(`${history(NS)}?since=1h`);
    expect(recent.body).toHaveLength(3);
  });

  it('is an empty list for an object nothing was recorded of', async () => {
    const res = await stack.get<ObjectChange[]>(history(NS, 'never-there'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-total')).toBe('0');
  });

  it('answers over IPC as over HTTP', async () => {
    const reply = (await overIpc(
      'objectHistory',
      { resourceType: 'deployment', resourceName: NAME },
      { limit: '2' },
    )) as {
      data: ObjectChange[];
      page: { total: number };
    };
    expect(reply.data.map((c) => c.resourceVersion)).toEqual([rv[3], rv[2]]);
    expect(reply.page.total).toBe(3);
  });
});

describe('the object as it was (?at=)', () => {
  it('answers each version between the changes', async () => {
    for (const [i, t] of times.entries()) {
      const res = await stack.get<KubeObject>(`${history(NS)}?at=${new Date(t).toISOString()}`);
      expect(res.status).toBe(200);
      expect(res.body.metadata.resourceVersion).toBe(rv[i]);
    }
    const now = await stack.get<KubeObject>(`${history(NS)}?at=0s`);
    expect(now.body.metadata.resourceVersion).toBe(rv[3]);
    expect((now.body.spec as { replicas: number }).replicas).toBe(5);
  });

  it('is a 404 problem before the object was first recorded', async () => {
    const res = await stack.get<{ code: string; detail: string }>(`${history(NS)}?at=2020-01-01T00:00:00Z`);
    expect(res.status).toBe(404);
    expect(res.contentType).toContain('application/problem+json');
    expect(res.body.code).toBe('resource_not_found');
    expect(res.body.detail).toContain('2020-01-01T00:00:00.000Z');
  });

  it('answers over IPC as over HTTP', async () => {
    const reply = (await overIpc(
      'namespacedObjectAt',
      { namespace: NS, resourceType: 'deployment', resourceName: NAME },
      { at: new Date(times[1]!).toISOString() },
    )) as { data: KubeObject };
    expect(reply.data.metadata.resourceVersion).toBe(rv[1]);
  });
});

describe('the other reads over IPC', () => {
  it('answers the namespaced history and ?at= across namespaces as HTTP does', async () => {
    const history = (await overIpc(
      'namespacedObjectHistory',
      { namespace: NS, resourceType: 'deployment', resourceName: NAME },
      { offset: '2' },
    )) as { data: ObjectChange[]; page: { total: number; offset: number } };
    expect(history.data.map((c) => c.resourceVersion)).toEqual([rv[1]]);
    expect(history.page).toMatchObject({ total: 3, offset: 2 });
    const at = (await overIpc(
      'objectAt',
      { resourceType: 'deployment', resourceName: NAME },
      { at: new Date(times[2]!).toISOString() },
    )) as { data: KubeObject };
    expect(at.data.metadata.resourceVersion).toBe(rv[2]);
  });

  it('streams the changes watch from invoke, as a desktop stream channel reads it', async () => {
    const reply = (await overIpc('watchChanges', {}, { watch: 'true', namespace: NS })) as {
      data: { contentType: string; chunks: AsyncIterable<string> };
    };
    expect(reply.data.contentType).toBe('text/event-stream; charset=utf-8');
    const it = reply.data.chunks[Symbol.asyncIterator]();
    let text = '';
    while (!text.includes('event: synced')) text += (await it.next()).value ?? '';
    await it.return?.(undefined);
    expect(text).toContain(`"resourceVersion":"${rv[1]}"`);
  });
});

describe('the changes feed', () => {
  it('lists the cluster’s changes with their objects, filtered by namespace and kind', async () => {
    const res = await stack.get<ClusterChange[]>(`${stack.cluster}/changes?namespace=${NS}&kind=Deployment`);
    expect(res.status).toBe(200);
    const checkout = res.body.filter((c) => c.ref.name === NAME);
    expect(checkout.map((c) => c.resourceVersion)).toEqual([rv[3], rv[2], rv[1]]);
    expect(checkout[0]?.ref).toMatchObject({
      kind: 'Deployment',
      resourceType: 'deployment',
      namespace: NS,
      name: NAME,
    });
    expect(res.body.every((c) => c.ref.namespace === NS && c.ref.kind === 'Deployment')).toBe(true);
    const byType = await stack.get<ClusterChange[]>(
      `${stack.cluster}/changes?namespace=${NS}&kind=deployment`,
    );
    expect(byType.body).toEqual(res.body);
    const none = await stack.get<ClusterChange[]>(`${stack.cluster}/changes?namespace=${NS}&kind=configmap`);
    expect(none.body).toEqual([]);
  });

  it('pages with limit and offset', async () => {
    const res = await stack.get<ClusterChange[]>(`${stack.cluster}/changes?namespace=${NS}&limit=2&offset=1`);
    expect(res.headers.get('x-total')).toBe('3');
    expect(res.body.map((c) => c.resourceVersion)).toEqual([rv[2], rv[1]]);
  });

  it('answers over IPC as over HTTP', async () => {
    const reply = (await overIpc('listChanges', {}, { namespace: NS })) as { data: ClusterChange[] };
    expect(reply.data.map((c) => c.resourceVersion)).toEqual([rv[3], rv[2], rv[1]]);
  });
});

describe('refusals', () => {
  it.each([
    ['a bad since', `/history/namespaces/${NS}/deployment/${NAME}?since=yesterday`, 'since'],
    ['a bad at', `/history/namespaces/${NS}/deployment/${NAME}?at=soon`, 'at'],
    ['a limit of 0', `/history/deployment/${NAME}?limit=0`, 'limit'],
    ['an unknown parameter', `/history/deployment/${NAME}?colour=red`, 'colour'],
    ['a paging parameter with at', `/history/deployment/${NAME}?at=1h&limit=5`, 'limit'],
    ['a bad namespace', `/changes?namespace=Not_A_Namespace`, 'namespace'],
    ['a bad kind', `/changes?kind=no/such`, 'kind'],
  ])('%s is a 400 naming the parameter', async (_what, path, field) => {
    const res = await stack.get<{ status: number; errors?: { field?: string; message: string }[] }>(
      `${stack.cluster}${path}`,
    );
    expect(res.status).toBe(400);
    expect(res.contentType).toContain('application/problem+json');
    expect(JSON.stringify(res.body)).toContain(field);
  });

  it('a plural resourceType is a 400 with the canonical name as the hint', async () => {
    const res = await stack.get<{ code: string; hint?: string }>(
      `${stack.cluster}/history/namespaces/${NS}/deployments/${NAME}`,
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_resource_type');
    expect(res.body.hint).toContain('deployment');
  });

  it.each([
    ['history', `/history/namespaces/${NS}/nosuchkind/${NAME}`],
    ['at', `/history/nosuchkind/${NAME}?at=1h`],
    ['the feed', `/changes?kind=nosuchkind`],
  ])('an unknown kind in %s is refused as the resource reads refuse it', async (_what, path) => {
    const read = await stack.get<{ code: string }>(`${stack.cluster}/kubernetes-proxy/nosuchkind`);
    expect(read.status).toBeGreaterThanOrEqual(400);
    const res = await stack.get<{ code: string }>(`${stack.cluster}${path}`);
    expect(res.status).toBe(read.status);
    expect(res.body.code).toBe(read.body.code);
  });

  it('an unknown cluster is a 404', async () => {
    const res = await stack.get<{ code: string }>('/v1/workspaces/default/observability/nope/changes');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('cluster_not_found');
  });
});

describe('the changes watch', () => {
  it('replays the newest changes, says SYNCED, then sends a new change as it is recorded', async () => {
    const w = await openChangeWatch(stack, { query: `namespace=${NS}` });
    try {
      expect(w.status).toBe(200);
      expect(w.headers.get('content-type')).toContain('text/event-stream');
      const synced = await w.until((r) => r.type === 'SYNCED');
      const replayed = w.records.filter((r) => r.record.type === 'ADDED').map((r) => r.record);
      expect(replayed.map((r) => (r.type === 'ADDED' ? r.change.resourceVersion : ''))).toEqual([
        rv[1],
        rv[2],
        rv[3],
      ]);
      const next = editDeployment(stack, NS, NAME, setImage('shop/checkout:1.4.3'));
      rv.push(next);
      const got = await w.until((r) => r.type === 'ADDED' && r.change.resourceVersion === next);
      expect(got.record.type === 'ADDED' && got.record.change.summary).toBe('image app: 1.4.2 → 1.4.3');
      // The SSE id is the change's id in the feed, after the SYNCED one.
      expect(Number(got.lastEventId)).toBeGreaterThan(Number(synced.lastEventId));
      expect(got.record.type === 'ADDED' && got.record.id).toBe(got.lastEventId);
    } finally {
      w.close();
    }
  });

  it('resumes after Last-Event-ID with the changes missed, and only those', async () => {
    const first = await openChangeWatch(stack, { query: `namespace=${NS}&sendInitialEvents=false` });
    const synced = await first.until((r) => r.type === 'SYNCED');
    first.close();
    expect(first.records.filter((r) => r.record.type === 'ADDED')).toEqual([]);
    const missed = editDeployment(stack, NS, NAME, setImage('shop/checkout:1.4.4'));
    rv.push(missed);
    await eventually(async () => {
      expect((await stack.get<ObjectChange[]>(history(NS))).body[0]?.resourceVersion).toBe(missed);
    }, 15_000);
    const again = await openChangeWatch(stack, {
      query: `namespace=${NS}`,
      headers: { 'last-event-id': synced.lastEventId! },
      ndjson: true,
    });
    try {
      await again.until((r) => r.type === 'SYNCED');
      const added = again.records.filter((r) => r.record.type === 'ADDED');
      expect(added.map((r) => (r.record.type === 'ADDED' ? r.record.change.resourceVersion : ''))).toEqual([
        missed,
      ]);
      expect(again.records.some((r) => r.record.type === 'RESET')).toBe(false);
    } finally {
      again.close();
    }
  });

  it('answers an id it cannot resume from with RESET, then the newest changes', async () => {
    for (const id of ['not-an-id', '99999999999']) {
      const w = await openChangeWatch(stack, { query: `namespace=${NS}`, headers: { 'last-event-id': id } });
      try {
        const reset = await w.until((r) => r.type === 'RESET');
        expect(reset.event).toBe('reset');
        await w.until((r) => r.type === 'SYNCED');
        expect(w.records.filter((r) => r.record.type === 'ADDED').length).toBeGreaterThanOrEqual(3);
      } finally {
        w.close();
      }
    }
  });

  it('moves a client past changes its filter leaves out with a BOOKMARK', async () => {
    const w = await openChangeWatch(stack, {
      query: `namespace=${OTHER}&sendInitialEvents=false`,
      ndjson: true,
    });
    try {
      const synced = await w.until((r) => r.type === 'SYNCED');
      editDeployment(stack, NS, NAME, (d) => {
        d.spec.replicas = 6;
      });
      const mark = await w.until((r) => r.type === 'BOOKMARK');
      expect(
        synced.record.type === 'SYNCED' &&
          mark.record.type === 'BOOKMARK' &&
          Number(mark.record.id) > Number(synced.record.id),
      ).toBe(true);
      expect(w.records.some((r) => r.record.type === 'ADDED')).toBe(false);
    } finally {
      w.close();
    }
  });

  it('refuses an unknown kind before streaming', async () => {
    const w = await openChangeWatch(stack, { query: 'kind=nosuchkind' });
    expect(w.status).toBe(400);
    expect(w.body).toContain('invalid_resource_type');
  });
});
