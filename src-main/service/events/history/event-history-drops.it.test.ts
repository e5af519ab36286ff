/**
 * An event the cluster drops moments after Skiff first sees it (an apiserver --event-ttl deleting
 * events listed just before they age out) must still reach the history. The recorder batches
 * changes per cluster; a long flush interval puts the sighting and the deletion in one batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRecord } from '../../../../src-shared/contract/models';
import { eventually } from '../../test-support/eventually.test-support';
import { type Stack, startStack } from '../../test-support/harness.test-support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    simulator: { tickMs: false },
    service: { eventHistory: { retentionMs: 30 * 86_400_000, flushMs: 1_000 } },
  });
  // The first read starts recording this cluster's events.
  expect((await stack.get(`${stack.cluster}/kubernetes-events?limit=1`)).status).toBe(200);
});
afterAll(async () => stack?.close());

const events = (query: string) => `${stack.cluster}/kubernetes-events?${query}`;

describe('event history: events dropped before their first write', () => {
  it('records an event the cluster deletes within one flush of adding it, as expired', async () => {
    const added = stack.sim.store.addEvent({
      involvedObject: { kind: 'Pod', name: 'short-lived', namespace: 'shop', uid: 'uid-short-lived' },
      reason: 'ShortLived',
      message: 'seen once, then dropped',
    });
    await eventually(async () =>
      expect((await stack.get<EventRecord[]>(events('reason=ShortLived'))).body).toHaveLength(1),
    );
    expect(stack.sim.store.remove('events', added.metadata.namespace!, added.metadata.name)).toBe(true);
    await eventually(async () =>
      expect((await stack.get<EventRecord[]>(events('reason=ShortLived'))).body).toHaveLength(0),
    );

    const res = await eventually(async () => {
      const r = await stack.get<EventRecord[]>(events('reason=ShortLived&includeExpired=true'));
      expect(r.body.map((e) => e.message)).toEqual(['seen once, then dropped']);
      return r;
    });
    expect(res.headers.get('x-expired-rows')).toBe('0');
  });
});
