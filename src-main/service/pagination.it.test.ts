import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceWrapper } from '../../src-shared/contract/models';
import type { Problem } from '../../src-shared/contract/problem';
import { eventually } from './test-support/eventually.test-support';
import { collectAll, parseLinks, type Stack, startStack } from './test-support/harness.test-support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ simulator: { scale: { pods: 95 } } });
});
afterAll(async () => stack?.close());

const pods = () => `${stack.cluster}/kubernetes-proxy/pod`;

/** The snapshot token every Link of a cluster list carries (pages of one walk share a snapshot). */
function snapshotOf(res: { headers: Headers }): string {
  const first = parseLinks(res.headers.get('link')!).first!;
  const token = new URL(first, 'http://x').searchParams.get('snapshot');
  expect(token).toMatch(/^[\w.-]+$/);
  return token!;
}

async function total(): Promise<number> {
  const res = await stack.get(`${pods()}?limit=1`);
  return Number(res.headers.get('x-total'));
}

describe('pagination headers on every list', () => {
  it('defaults to limit 20 and offset 0', async () => {
    const res = await stack.get<ResourceWrapper[]>(pods());
    expect(res.headers.get('x-limit')).toBe('20');
    expect(res.headers.get('x-offset')).toBe('0');
    expect(res.body).toHaveLength(20);
  });

  it('first page: first, next and last, no prev', async () => {
    const n = await total();
    const res = await stack.get(`${pods()}?limit=10`);
    const links = parseLinks(res.headers.get('link')!);
    const s = snapshotOf(res);
    expect(Object.keys(links)).toEqual(['first', 'next', 'last']);
    expect(links.first).toBe(`${pods()}?snapshot=${s}&limit=10&offset=0`);
    expect(links.next).toBe(`${pods()}?snapshot=${s}&limit=10&offset=10`);
    expect(links.last).toBe(`${pods()}?snapshot=${s}&limit=10&offset=${Math.floor((n - 1) / 10) * 10}`);
  });

  it('middle page: all four links', async () => {
    const res = await stack.get(`${pods()}?limit=10&offset=30`);
    const links = parseLinks(res.headers.get('link')!);
    const s = snapshotOf(res);
    expect(Object.keys(links)).toEqual(['first', 'prev', 'next', 'last']);
    expect(links.prev).toBe(`${pods()}?snapshot=${s}&limit=10&offset=20`);
    expect(links.next).toBe(`${pods()}?snapshot=${s}&limit=10&offset=40`);
  });

  it('last page: no next, and it may hold fewer than limit', async () => {
    const n = await total();
    const lastOffset = Math.floor((n - 1) / 10) * 10;
    const res = await stack.get<unknown[]>(`${pods()}?limit=10&offset=${lastOffset}`);
    const links = parseLinks(res.headers.get('link')!);
    expect(Object.keys(links)).toEqual(['first', 'prev', 'last']);
    expect(res.body).toHaveLength(n - lastOffset);
    expect(res.headers.get('x-total')).toBe(String(n));
  });

  it('empty collection: first and last only, with the filter kept', async () => {
    const res = await stack.get<unknown[]>(`${pods()}?labelSelector=app%3Dno-such-app&limit=5`);
    expect(res.body).toEqual([]);
    const links = parseLinks(res.headers.get('link')!);
    const s = snapshotOf(res);
    expect(links).toEqual({
      first: `${pods()}?labelSelector=app%3Dno-such-app&snapshot=${s}&limit=5&offset=0`,
      last: `${pods()}?labelSelector=app%3Dno-such-app&snapshot=${s}&limit=5&offset=0`,
    });
  });

  it('keeps filters in every link of the event list', async () => {
    const path = `${stack.cluster}/kubernetes-events?type=WARNING&limit=2&offset=2`;
    const res = await stack.get(path);
    const links = parseLinks(res.headers.get('link')!);
    for (const href of Object.values(links)) expect(href).toContain('type=WARNING');
  });

  it('pages of the workspace and cluster lists carry the same headers', async () => {
    for (const path of ['/v1/workspaces', '/v1/workspaces/default/clusters']) {
      const res = await stack.get(path);
      expect(res.headers.get('x-total')).toBe('1');
      expect([res.headers.get('x-limit'), res.headers.get('x-offset')]).toEqual(['20', '0']);
      expect(parseLinks(res.headers.get('link')!)).toHaveProperty('last');
    }
  });
});

describe('pagination input', () => {
  it.each([
    ['limit=0'],
    ['limit=1001'],
    ['limit=abc'],
    ['limit=1.5'],
    ['limit=-1'],
    ['limit='],
    ['offset=-1'],
    ['offset=x'],
  ])('refuses %s with 400 instead of clamping', async (q) => {
    const res = await stack.get<Problem>(`${pods()}?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_pagination');
  });

  it('accepts limit 1000, the maximum', async () => {
    const res = await stack.get(`${pods()}?limit=1000`);
    expect(res.status).toBe(200);
  });

  it('answers an offset past the end with an empty page whose prev is the last real page', async () => {
    const n = await total();
    const res = await stack.get<unknown[]>(`${pods()}?limit=10&offset=100000`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    const links = parseLinks(res.headers.get('link')!);
    const s = snapshotOf(res);
    expect(links.prev).toBe(`${pods()}?snapshot=${s}&limit=10&offset=${Math.floor((n - 1) / 10) * 10}`);
    expect(links.next).toBeUndefined();
  });

  it('refuses unknown and repeated query parameters', async () => {
    const unknown = await stack.get<Problem>(`${pods()}?labelselector=app%3Dx`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('unknown_query_parameter');
    expect(unknown.body.detail).toContain('labelselector');
    const twice = await stack.get<Problem>(`${pods()}?limit=1&limit=2`);
    expect([twice.status, twice.body.code]).toEqual([400, 'invalid_query']);
  });
});

describe('conditional GET', () => {
  it('answers 304 while a page is unchanged and 200 with a new ETag once it changes', async () => {
    const path = `${pods()}?limit=5&offset=0`;
    const first = await stack.get(path);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await stack.get(path, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.get('x-total')).toBe(first.headers.get('x-total'));
    // Another page has another tag, and so does the same page after the cluster changed.
    const other = await stack.get(`${pods()}?limit=5&offset=5`, { 'if-none-match': etag });
    expect(other.status).toBe(200);
    const [firstPod] = first.body as Array<{ resource: { metadata: { namespace: string; name: string } } }>;
    const { namespace, name } = firstPod!.resource.metadata;
    const stored = stack.sim.store.get('pods', namespace, name)!;
    stack.sim.store.upsert({ ...stored, metadata: { ...stored.metadata, labels: { touched: 'yes' } } });
    const changed = await eventually(async () => {
      const res = await stack.get(path, { 'if-none-match': etag });
      expect(res.status).toBe(200);
      return res;
    });
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it("an event page's ETag holds while its events do, and changes when one of them changes", async () => {
    const path = `${stack.cluster}/kubernetes-events?limit=5`;
    const first = await stack.get<Array<{ eventId: string; involvedObject: { namespace: string } }>>(path);
    const etag = first.headers.get('etag')!;
    expect((await stack.get(path, { 'if-none-match': etag })).status).toBe(304);
    const last = first.body.at(-1)!;
    const core = stack.sim.store
      .list('events')
      .find((e) => e.metadata.uid === last.eventId || e.metadata.name === last.eventId);
    expect(core).toBeDefined();
    stack.sim.store.bumpEvent(core!.metadata.namespace!, core!.metadata.name, {
      message: 'changed by the test',
    });
    await eventually(async () => {
      const res = await stack.get(path, { 'if-none-match': etag });
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).not.toBe(etag);
    });
  });

  it('answers 40 concurrent pages each with its own bytes: no body shares a buffer still being sent', async () => {
    const walk = await collectAll<ResourceWrapper>(stack, `${pods()}?limit=1000`);
    const offsets = Array.from({ length: 40 }, (_, i) => (i * 7) % Math.max(1, walk.length - 3));
    const pages = await Promise.all(
      offsets.map((offset) => stack.get<ResourceWrapper[]>(`${pods()}?limit=3&offset=${offset}`)),
    );
    pages.forEach((page, i) => {
      const names = page.body.map((w) => w.resource.metadata.name);
      expect(names).toEqual(walk.slice(offsets[i], offsets[i]! + 3).map((w) => w.resource.metadata.name));
    });
  });
});
