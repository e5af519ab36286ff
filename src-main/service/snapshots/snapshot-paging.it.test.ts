import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRecord, ResourceWrapper } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import { eventually } from '../test-support/eventually.test-support';
import { type HttpResult, parseLinks, type Stack, startStack } from '../test-support/harness.test-support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    simulator: { scale: { pods: 60, events: 90 } },
    service: { watch: { pinIdleMs: 1_500 } },
  });
});
afterAll(async () => stack?.close());

const pods = () => `${stack.cluster}/kubernetes-proxy/pod`;
const events = () => `${stack.cluster}/kubernetes-events`;
const podKey = (w: ResourceWrapper) => `${w.resource.metadata.namespace}/${w.resource.metadata.name}`;

function storePodKeys(): string[] {
  return stack.sim.store
    .list('pods')
    .map((p) => `${p.metadata.namespace}/${p.metadata.name}`)
    .sort();
}

/** Waits until the service's pod list equals the simulator's, so a walk starts from known data. */
async function settled(): Promise<string[]> {
  return eventually(async () => {
    const res = await stack.get<ResourceWrapper[]>(`${pods()}?limit=1000`);
    const keys = res.body.map(podKey);
    expect(keys).toEqual(storePodKeys());
    return keys;
  });
}

/** Walks rel="next" from `first`, running `between` after every page. */
async function walk<T>(first: string, between: (page: number) => void): Promise<Array<HttpResult<T[]>>> {
  const pages: Array<HttpResult<T[]>> = [];
  let next: string | undefined = first;
  while (next) {
    const res: HttpResult<T[]> = await stack.get<T[]>(next);
    expect(res.status).toBe(200);
    pages.push(res);
    between(pages.length);
    // Let the change reach the cache, so a walk without a snapshot would really see it.
    await new Promise((r) => setTimeout(r, 60));
    next = parseLinks(res.headers.get('link') ?? '').next;
  }
  return pages;
}

function changePods(page: number) {
  const store = stack.sim.store;
  const victim = store.list('pods')[(page * 3) % store.count('pods')]!;
  store.remove('pods', victim.metadata.namespace!, victim.metadata.name);
  const template = store.list('pods')[0]!;
  // A name that sorts first, so every later page would shift by one without a snapshot.
  store.upsert({
    ...template,
    metadata: {
      ...template.metadata,
      name: `aaa-new-${page}`,
      uid: `new-${page}`,
      resourceVersion: undefined,
    },
  });
}

describe('a walk along Link URLs sees one snapshot', () => {
  it("lists every pod of the first page's moment exactly once while pods are added and deleted", async () => {
    const before = await settled();
    const pages = await walk<ResourceWrapper>(`${pods()}?limit=7`, changePods);
    const seen = pages.flatMap((p) => p.body.map(podKey));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(before);
    for (const p of pages) expect(p.headers.get('x-total')).toBe(String(before.length));
    // Without the snapshot, the same offset now shows the changed cluster.
    const after = await settled();
    expect(after).not.toEqual(before);
  });

  it('keeps one snapshot for a filtered event walk while events arrive', async () => {
    const first = await stack.get<EventRecord[]>(`${events()}?type=WARNING&limit=1000`);
    const expected = first.body.map((e) => e.eventId);
    const pages = await walk<EventRecord>(`${events()}?type=WARNING&limit=4`, (page) => {
      stack.sim.store.addEvent({
        involvedObject: { kind: 'Pod', name: `late-${page}`, namespace: 'shop' },
        reason: 'BackOff',
        message: 'arrived during the walk',
        type: 'Warning',
      });
    });
    const seen = pages.flatMap((p) => p.body.map((e) => e.eventId));
    expect(seen).toEqual(expected);
    for (const p of pages) expect(p.body.every((e) => e.type === 'WARNING')).toBe(true);
    await eventually(async () => {
      const now = await stack.get<EventRecord[]>(`${events()}?type=WARNING&limit=1000`);
      expect(now.body.length).toBeGreaterThan(expected.length);
    });
  });

  it('answers a token it no longer keeps with 410 snapshot_expired, and a request without one as before', async () => {
    const res = await stack.get(`${pods()}?limit=5`);
    const next = parseLinks(res.headers.get('link')!).next!;
    changePods(99);
    await settled();
    await new Promise((r) => setTimeout(r, 1_700));
    const gone = await stack.get<Problem>(next);
    expect(gone.status).toBe(410);
    expect(gone.contentType).toContain('application/problem+json');
    expect(gone.body.code).toBe('snapshot_expired');
    const plain = await stack.get<ResourceWrapper[]>(`${pods()}?limit=5&offset=5`);
    expect(plain.status).toBe(200);
    expect(plain.body).toHaveLength(5);
  });

  it('answers a made-up token with 410 and a malformed one with 400', async () => {
    const madeUp = await stack.get<Problem>(`${pods()}?snapshot=abc.1`);
    expect([madeUp.status, madeUp.body.code]).toEqual([410, 'snapshot_expired']);
    const malformed = await stack.get<Problem>(`${pods()}?snapshot=${encodeURIComponent('a b')}`);
    expect([malformed.status, malformed.body.code]).toEqual([400, 'invalid_query']);
  });

  it('answers 304 to a poll of a page that did not change while the rest of the list did, with the new token', async () => {
    await settled();
    const path = `${pods()}?limit=5`;
    const first = await stack.get(path);
    const store = stack.sim.store;
    // The list's last pod changes; the first page and the total do not.
    const [namespace, name] = (await settled()).at(-1)!.split('/') as [string, string];
    const last = store.peek('pods', namespace, name)!;
    store.upsert({
      ...last,
      metadata: {
        ...last.metadata,
        labels: { ...last.metadata.labels, polled: 'yes' },
        resourceVersion: undefined,
      },
    });
    await eventually(async () => {
      const res = await stack.get<ResourceWrapper[]>(`${pods()}?limit=1000`);
      expect(res.body.at(-1)?.resource.metadata.labels?.polled).toBe('yes');
    });
    const again = await stack.get(path, { 'if-none-match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(again.headers.get('link')).not.toBe(first.headers.get('link'));
  });

  it('marks nothing stale while the watch is live, and keeps the same token for unchanged data', async () => {
    await settled();
    const a = await stack.get(`${pods()}?limit=5`);
    const b = await stack.get(`${pods()}?limit=5`);
    expect(a.headers.get('x-stale-since')).toBeNull();
    expect(a.headers.get('link')).toBe(b.headers.get('link'));
    expect(a.headers.get('etag')).toBe(b.headers.get('etag'));
  });
});
