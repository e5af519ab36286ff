/**
 * One object's recorded changes on a real database (both backends): its history page (newest
 * first, baselines left out, the range, paging, another object's and another cluster's rows never
 * in it, a snapshot's takenAt as the end), the namespaces that hold a name, and the object rebuilt
 * as it was at an instant. Rows are inserted out of the answer's order.
 */
import { describe, expect, it } from 'vitest';
import { eachBackend } from '../../events/history/history.test-support';
import { namespacesHolding, objectAt, objectHistory } from './reads';
import { deployment, insertRows, MIN, readsPerTest, T0 } from './reads.test-support';

const REF = { resourceType: 'deployment', namespace: 'shop', name: 'checkout' };
const replace = (path: string, value: unknown) => ({ op: 'replace', path, value });
const IMAGE = '/spec/template/spec/containers/0/image';

eachBackend((kind) => {
  const rig = readsPerTest(kind);

  /** checkout's chain: seen, two updates, a whole object again, an update; plus other rows around it. */
  async function seedChain() {
    // Other objects' and clusters' rows first and between, so the chain is neither first nor alone.
    await insertRows(rig.backend, [
      { timeMs: T0 + 9 * MIN, change: 'updated', resourceVersion: 'x1', name: 'cart' },
      { timeMs: T0 + 2 * MIN, change: 'updated', resourceVersion: 'o1', cluster: 'c2' },
      { timeMs: T0 + 3 * MIN, change: 'updated', resourceVersion: 'n1', namespace: 'other' },
      { timeMs: T0 + 3 * MIN, change: 'updated', resourceVersion: 'cm1', resourceType: 'configmap' },
    ]);
    return insertRows(rig.backend, [
      { timeMs: T0, change: 'seen', resourceVersion: '10', object: deployment('app:1.4.0') },
      {
        timeMs: T0 + MIN,
        change: 'updated',
        resourceVersion: '11',
        patch: [replace(IMAGE, 'app:1.4.1')],
        summary: 'image app: 1.4.0 → 1.4.1',
      },
      {
        timeMs: T0 + 5 * MIN,
        change: 'updated',
        resourceVersion: '12',
        patch: [replace('/spec/replicas', 5)],
        summary: 'replicas 3 → 5',
      },
      {
        timeMs: T0 + 7 * MIN,
        change: 'updated',
        resourceVersion: '13',
        patch: [replace(IMAGE, 'app:1.4.2')],
        summary: 'image app: 1.4.1 → 1.4.2',
        object: deployment('app:1.4.2', 5),
      },
      {
        timeMs: T0 + 8 * MIN,
        change: 'updated',
        resourceVersion: '14',
        patch: [replace('/spec/replicas', 2)],
        summary: 'replicas 5 → 2',
      },
    ]);
  }

  describe('objectHistory', () => {
    it('answers the object’s changes newest first, without its baseline or anyone else’s rows', async () => {
      await seedChain();
      const { items, total } = await objectHistory(rig.source(), REF, {}, 20, 0);
      expect(total).toBe(4);
      expect(items.map((i) => i.resourceVersion)).toEqual(['14', '13', '12', '11']);
      expect(items[3]).toEqual({
        time: '2026-01-31T02:01:00.000Z',
        change: 'updated',
        resourceVersion: '11',
        patch: [replace(IMAGE, 'app:1.4.1')],
        summary: 'image app: 1.4.0 → 1.4.1',
      });
    });

    it('keeps to since and until, both inclusive, and pages with limit and offset', async () => {
      await seedChain();
      const range = { sinceMs: T0 + MIN, untilMs: T0 + 7 * MIN };
      const page = async (limit: number, offset: number) =>
        (await objectHistory(rig.source(), REF, range, limit, offset)).items.map((i) => i.resourceVersion);
      expect(await page(20, 0)).toEqual(['13', '12', '11']);
      expect(await page(2, 0)).toEqual(['13', '12']);
      expect(await page(2, 2)).toEqual(['11']);
      expect(await page(2, 3)).toEqual([]);
      expect((await objectHistory(rig.source(), REF, range, 2, 3)).total).toBe(3);
    });

    it('orders changes of the same instant by when they were recorded', async () => {
      await insertRows(rig.backend, [
        { timeMs: T0, change: 'created', resourceVersion: '1', object: deployment('a') },
        { timeMs: T0, change: 'updated', resourceVersion: '2' },
      ]);
      const { items } = await objectHistory(rig.source(), REF, {}, 20, 0);
      expect(items.map((i) => i.resourceVersion)).toEqual(['2', '1']);
    });

    it('answers a created change’s patch as the whole object added at the root', async () => {
      await insertRows(rig.backend, [
        { timeMs: T0, change: 'created', resourceVersion: '1', object: deployment('a') },
      ]);
      const [created] = (await objectHistory(rig.source(), REF, {}, 20, 0)).items;
      expect(created?.patch).toEqual([{ op: 'add', path: '', value: deployment('a') }]);
    });

    it('answers a stored patch as it is, and an empty one for text that is no JSON patch', async () => {
      await insertRows(rig.backend, [
        {
          timeMs: T0,
          change: 'created',
          resourceVersion: '1',
          patch: [replace('/a', 1)],
          object: deployment('a'),
        },
        { timeMs: T0 + 1, change: 'created', resourceVersion: '2' },
        { timeMs: T0 + 2, change: 'updated', resourceVersion: '3', object: deployment('b') },
        { timeMs: T0 + 3, change: 'updated', resourceVersion: '4' },
        { timeMs: T0 + 4, change: 'updated', resourceVersion: '5' },
      ]);
      await rig.backend.run("UPDATE change_history SET patch = 'not json' WHERE resource_version = '4'");
      await rig.backend.run(
        'UPDATE change_history SET patch = \'{"op":"add"}\' WHERE resource_version = \'5\'',
      );
      const { items } = await objectHistory(rig.source(), REF, {}, 20, 0);
      expect(items.map((i) => [i.resourceVersion, i.patch])).toEqual([
        ['5', []],
        ['4', []],
        ['3', []],
        ['2', []],
        ['1', [replace('/a', 1)]],
      ]);
    });

    it('keeps to since alone', async () => {
      await seedChain();
      const { items } = await objectHistory(rig.source(), REF, { sinceMs: T0 + 5 * MIN }, 20, 0);
      expect(items.map((i) => i.resourceVersion)).toEqual(['14', '13', '12']);
    });

    it('answers nothing after a snapshot’s takenAt', async () => {
      await seedChain();
      const { items, total } = await objectHistory(rig.source('c1', T0 + 5 * MIN), REF, {}, 20, 0);
      expect(items.map((i) => i.resourceVersion)).toEqual(['12', '11']);
      expect(total).toBe(2);
      const later = await objectHistory(
        rig.source('c1', T0 + 5 * MIN),
        REF,
        { untilMs: T0 + 9 * MIN },
        20,
        0,
      );
      expect(later.total).toBe(2);
      const earlier = await objectHistory(
        rig.source('c1', T0 + 5 * MIN),
        REF,
        { untilMs: T0 + 2 * MIN },
        20,
        0,
      );
      expect(earlier.total).toBe(1);
    });

    it('answers an empty page for an object nothing was recorded of', async () => {
      await seedChain();
      expect(await objectHistory(rig.source(), { ...REF, name: 'nope' }, {}, 20, 0)).toEqual({
        items: [],
        total: 0,
      });
    });
  });

  describe('namespacesHolding', () => {
    it('names every namespace with rows of the kind and name, in name order, and no other', async () => {
      await insertRows(rig.backend, [
        { timeMs: T0, change: 'updated', resourceVersion: '1', namespace: 'zeta' },
        { timeMs: T0, change: 'updated', resourceVersion: '2', namespace: 'alpha', name: 'other' },
        { timeMs: T0, change: 'updated', resourceVersion: '3', namespace: 'beta' },
        {
          timeMs: T0,
          change: 'updated',
          resourceVersion: '4',
          namespace: 'gamma',
          resourceType: 'configmap',
        },
        { timeMs: T0, change: 'updated', resourceVersion: '5', namespace: 'delta', cluster: 'c2' },
        { timeMs: T0 + MIN, change: 'updated', resourceVersion: '6', namespace: 'beta' },
      ]);
      expect(await namespacesHolding(rig.source(), 'deployment', 'checkout')).toEqual(['beta', 'zeta']);
      expect(await namespacesHolding(rig.source(), 'deployment', 'nope')).toEqual([]);
      expect(await namespacesHolding(rig.source('c2'), 'deployment', 'checkout')).toEqual(['delta']);
    });

    it('leaves out what a snapshot had not recorded by its takenAt', async () => {
      await insertRows(rig.backend, [
        { timeMs: T0, change: 'updated', resourceVersion: '1', namespace: 'early' },
        { timeMs: T0 + MIN, change: 'updated', resourceVersion: '2', namespace: 'late' },
      ]);
      expect(await namespacesHolding(rig.source('c1', T0), 'deployment', 'checkout')).toEqual(['early']);
    });
  });

  describe('objectAt', () => {
    it('rebuilds each version from the nearest whole object before it', async () => {
      await seedChain();
      const at = async (ms: number) => objectAt(rig.source(), REF, ms);
      expect(await at(T0)).toEqual({
        ...deployment('app:1.4.0'),
        metadata: { ...(deployment('x').metadata as object), resourceVersion: '10' },
      });
      const v11 = await at(T0 + 4 * MIN);
      expect(v11?.spec).toEqual(deployment('app:1.4.1').spec);
      expect((v11?.metadata as { resourceVersion?: string } | undefined)?.resourceVersion).toBe('11');
      expect((await at(T0 + 5 * MIN))?.spec).toEqual(deployment('app:1.4.1', 5).spec);
      expect((await at(T0 + 7 * MIN))?.spec).toEqual(deployment('app:1.4.2', 5).spec);
      const v14 = await at(T0 + 60 * MIN);
      expect(v14?.spec).toEqual(deployment('app:1.4.2', 2).spec);
      expect((v14?.metadata as { resourceVersion?: string } | undefined)?.resourceVersion).toBe('14');
    });

    it('answers nothing before the first recorded version or once the object was deleted', async () => {
      await seedChain();
      await insertRows(rig.backend, [
        {
          timeMs: T0 + 20 * MIN,
          change: 'deleted',
          resourceVersion: '15',
          object: deployment('app:1.4.2', 2),
        },
      ]);
      expect(await objectAt(rig.source(), REF, T0 - 1)).toBe(undefined);
      expect(await objectAt(rig.source(), REF, T0 + 20 * MIN)).toBe(undefined);
      expect((await objectAt(rig.source(), REF, T0 + 20 * MIN - 1))?.spec).toEqual(
        deployment('app:1.4.2', 2).spec,
      );
    });

    it('answers a snapshot’s object as of its takenAt, however late the instant asked', async () => {
      await seedChain();
      const got = await objectAt(rig.source('c1', T0 + 5 * MIN), REF, T0 + 60 * MIN);
      expect((got?.metadata as { resourceVersion?: string } | undefined)?.resourceVersion).toBe('12');
    });

    it('answers nothing for a whole object that does not parse', async () => {
      await insertRows(rig.backend, [
        { timeMs: T0, change: 'seen', resourceVersion: '1', object: deployment('a') },
      ]);
      await rig.backend.run("UPDATE change_history SET object = '{broken'");
      expect(await objectAt(rig.source(), REF, T0)).toBe(undefined);
    });

    it('answers nothing for a chain without a whole object or with a patch that does not apply', async () => {
      await insertRows(rig.backend, [
        { timeMs: T0, change: 'updated', resourceVersion: '1', patch: [replace('/spec/replicas', 1)] },
        { timeMs: T0, change: 'seen', resourceVersion: '1', name: 'broken', object: deployment('a') },
        {
          timeMs: T0 + MIN,
          change: 'updated',
          resourceVersion: '2',
          name: 'broken',
          patch: [replace('/no/such', 1)],
        },
      ]);
      expect(await objectAt(rig.source(), REF, T0 + MIN)).toBe(undefined);
      expect(await objectAt(rig.source(), { ...REF, name: 'broken' }, T0 + MIN)).toBe(undefined);
      expect(await objectAt(rig.source(), { ...REF, name: 'broken' }, T0)).not.toBe(undefined);
      // A replace of a field the version does not have: the chain was not recorded from it.
      await insertRows(rig.backend, [
        { timeMs: T0, change: 'seen', resourceVersion: '1', name: 'gap', object: deployment('a') },
        {
          timeMs: T0 + MIN,
          change: 'updated',
          resourceVersion: '2',
          name: 'gap',
          patch: [replace('/spec/paused', true)],
        },
      ]);
      expect(await objectAt(rig.source(), { ...REF, name: 'gap' }, T0 + MIN)).toBe(undefined);
    });
  });
});
