/**
 * The knowledge base the event views link to (/v1/guidance), over real HTTP: the list and its
 * subject filter, and one entry by reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../../src-shared/contract/problem';
import type { GuidanceEntry } from '../../../src-shared/guidance/index';
import { listGuidance } from '../../../src-shared/guidance/index';
import { type Stack, startStack } from '../test-support/harness.test-support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack?.close());

const ids = (entries: readonly { id: string }[]) => entries.map((e) => e.id).sort();

describe('the guidance list', () => {
  it('without a subject lists every entry of the knowledge base, paged', async () => {
    const all = await stack.get<GuidanceEntry[]>('/v1/guidance?limit=1000');
    expect(all.status).toBe(200);
    expect(ids(all.body)).toEqual(ids(listGuidance()));
    const first = await stack.get<GuidanceEntry[]>('/v1/guidance?limit=2&offset=1');
    expect(first.body.map((e) => e.id)).toEqual(all.body.slice(1, 3).map((e) => e.id));
    expect(Number(first.headers.get('x-total'))).toBe(listGuidance().length);
  });

  it('with a subject lists exactly the entries of that subject', async () => {
    for (const subject of ['event-reason', 'exit-code'] as const) {
      const res = await stack.get<GuidanceEntry[]>(`/v1/guidance?subject=${subject}&limit=1000`);
      const expected = listGuidance().filter((e) => e.subject === subject);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(listGuidance().length);
      expect(ids(res.body)).toEqual(ids(expected));
    }
  });
});

describe('one guidance entry', () => {
  it('a reason the knowledge base does not know is a 404 naming the reason', async () => {
    const res = await stack.get<Problem>('/v1/guidance/NoSuchReasonHere');
    expect([res.status, res.body.code]).toEqual([404, 'resource_not_found']);
    expect(res.body.detail).toContain('NoSuchReasonHere');
  });

  it('a known reason answers its entry, whatever its case', async () => {
    const res = await stack.get<GuidanceEntry>('/v1/guidance/backoff?subject=event-reason');
    expect(res.status).toBe(200);
    expect([res.body.subject, res.body.match]).toEqual(['event-reason', 'BackOff']);
  });
});
