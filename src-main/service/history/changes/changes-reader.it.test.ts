/**
 * The changes feed on a replica that does not record the cluster (`--record-changes off` here;
 * another replica's recorder writes the rows, as on a shared PostgreSQL database): its totals are
 * remembered per version of the rows, and that version moves with every way the rows change
 * without this replica writing them: an insert (the table's newest id), retention removing the
 * oldest rows, and any other change a recorder announces on skiff_changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterChange } from '../../../../src-shared/contract/change-operations';
import { CLUSTER_ID, type Stack, startStack } from '../../test-support/harness.test-support';
import { CHANGES_CHANNEL } from './options';
import { insertRows, MIN, T0 } from './reads.test-support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ service: { changeHistory: { record: 'off' } } });
}, 60_000);
afterAll(async () => stack?.close());

const total = async () => {
  const res = await stack.get<ClusterChange[]>(`${stack.cluster}/changes?limit=1`);
  expect(res.status).toBe(200);
  return Number(res.headers.get('x-total'));
};

describe('the feed read by a replica that does not record the cluster', () => {
  it('counts rows another replica inserted, pruned or changed', async () => {
    const backend = stack.service.recorded.deps.backend;
    const ids = await insertRows(
      backend,
      [0, 1, 2, 3].map((i) => ({
        cluster: CLUSTER_ID,
        timeMs: T0 + i * MIN,
        change: 'updated' as const,
        resourceVersion: `${i}`,
      })),
    );
    expect(await total()).toBe(4);
    expect(await total()).toBe(4);
    await insertRows(backend, [
      { cluster: CLUSTER_ID, timeMs: T0 + 9 * MIN, change: 'updated', resourceVersion: '9' },
    ]);
    expect(await total()).toBe(5);
    await backend.run('DELETE FROM change_history WHERE id = $id', { id: ids[0]! });
    expect(await total()).toBe(4);
    // A row removed from the middle moves neither end: the recorder's announcement does.
    await backend.run('DELETE FROM change_history WHERE id = $id', { id: ids[2]! });
    await backend.notify(CHANGES_CHANNEL, CLUSTER_ID);
    await expect.poll(total, { timeout: 10_000 }).toBe(3);
  });
});
