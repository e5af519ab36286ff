import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRecord, ResourceWrapper } from '../../src-shared/contract/models';
import { eventually } from './test-support/eventually.test-support';
import { parseLinks, type Stack, startStack } from './test-support/harness.test-support';

/**
 * The `last` link when the total is an exact multiple of the limit: the last full page, never an
 * empty page one past it (the bug `floor(total / limit) * limit` has, and only at such totals).
 */

const PODS = 30;
const EVENTS = 20;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
  for (let i = 0; i < PODS; i++) {
    stack.sim.store.upsert({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `exact-${String(i).padStart(2, '0')}`,
        namespace: 'paging-lab',
        labels: { fixture: 'exact' },
      },
      spec: { containers: [{ name: 'main', image: 'busybox' }] },
    });
  }
  for (let i = 0; i < EVENTS; i++) {
    stack.sim.store.addEvent({
      involvedObject: { kind: 'Pod', name: `exact-${i}`, namespace: 'paging-lab' },
      metadata: { namespace: 'paging-lab' },
      reason: 'Started',
      message: `event ${i}`,
    });
  }
});
afterAll(async () => stack?.close());

const pods = (q: string) => `${stack.cluster}/kubernetes-proxy/pod?labelSelector=fixture%3Dexact&${q}`;
const events = (q: string) => `${stack.cluster}/kubernetes-events?namespace=paging-lab&${q}`;
const offsetOf = (link: string | undefined) => Number(new URL(link!, 'http://x').searchParams.get('offset'));

describe('last is the last full page when the total is an exact multiple of the limit', () => {
  it.each([
    [10, 20],
    [15, 15],
    [30, 0],
  ])('30 pods, limit %i: last at offset %i', async (limit, lastOffset) => {
    const first = await eventually(async () => {
      const res = await stack.get<ResourceWrapper[]>(pods(`limit=${limit}`));
      expect(res.headers.get('x-total')).toBe(String(PODS));
      return res;
    });
    const links = parseLinks(first.headers.get('link')!);
    expect(offsetOf(links.last)).toBe(lastOffset);

    // Following it gives a full page that is the end: no next, nothing after it.
    const last = await stack.get<ResourceWrapper[]>(links.last!);
    expect(last.body).toHaveLength(limit);
    expect(parseLinks(last.headers.get('link')!).next).toBeUndefined();
    expect(last.body.at(-1)?.resource.metadata.name).toBe('exact-29');
  });

  it('20 events, limit 5: last at offset 15, holding the 5 oldest', async () => {
    const first = await eventually(async () => {
      const res = await stack.get<EventRecord[]>(events('limit=5'));
      expect(res.headers.get('x-total')).toBe(String(EVENTS));
      return res;
    });
    const links = parseLinks(first.headers.get('link')!);
    expect(offsetOf(links.last)).toBe(15);
    const last = await stack.get<EventRecord[]>(links.last!);
    expect(last.body).toHaveLength(5);
    expect(parseLinks(last.headers.get('link')!).next).toBeUndefined();
  });
});
