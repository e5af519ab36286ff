/**
 * What the recorder writes of what an event cache sees, on a real database: when changes are
 * written, what is marked expired, and what the monitoring flags keep out. Retention is in
 * recorder-retention.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ALL, becomes, entry, ids, MIN, recorderPerTest, T0 } from './history.test-support';

const { s, start } = recorderPerTest();
const rows = (clusterId = 'c1') => s.store.page(clusterId, ALL, 100, 0);
const expiry = async (clusterId = 'c1') =>
  Object.fromEntries((await rows(clusterId)).map((r) => [r.eventId, r.expiredAt]));

describe('recording', () => {
  it("a cluster's changes wait until its first list completed", async () => {
    const { recorder, clock } = start();
    const o = recorder.observer('c1', () => []);
    o.upserted(entry('early', T0));
    await recorder.flush();
    expect(await s.store.total('c1')).toBe(0);
    clock.now = T0 + MIN;
    o.upserted(entry('listed', T0 + 1));
    o.listed([entry('early', T0), entry('listed', T0 + 1)]);
    o.upserted(entry('later', T0 + 2));
    await recorder.flush();
    expect(ids(await rows())).toEqual(['later', 'listed', 'early']);
    expect(await s.store.lastRecorded('c1')).toBe(T0 + MIN);
  });

  it('an event the cluster deletes is marked expired at the time of the write', async () => {
    const { recorder, clock } = start();
    const o = recorder.observer('c1', () => []);
    o.listed([]);
    o.upserted(entry('b', T0));
    o.upserted(entry('a', T0 + 1));
    await recorder.flush();
    clock.now = T0 + 5 * MIN;
    o.removed('b');
    await recorder.flush();
    expect(await expiry()).toStrictEqual({ a: undefined, b: T0 + 5 * MIN });
  });

  it('an event deleted before its first write is still recorded, as expired', async () => {
    const { recorder } = start();
    const o = recorder.observer('c1', () => []);
    o.listed([]);
    o.upserted(entry('short', T0, { message: 'seen once' }));
    o.upserted(entry('stays', T0 + 1));
    o.removed('short');
    await recorder.flush();
    expect((await rows()).map((r) => [r.eventId, r.message, r.expiredAt])).toEqual([
      ['stays', 'message of stays', undefined],
      ['short', 'seen once', T0],
    ]);
  });

  it('an event seen again after its deletion is live again', async () => {
    const { recorder } = start();
    const o = recorder.observer('c1', () => []);
    o.listed([]);
    o.upserted(entry('back', T0));
    await recorder.flush();
    o.removed('back');
    o.upserted(entry('back', T0, { count: 2 }));
    await recorder.flush();
    expect((await rows()).map((r) => [r.eventId, r.count, r.expiredAt])).toEqual([['back', 2, undefined]]);
  });

  it('a list marks expired every recorded event it no longer has, except one waiting to be written', async () => {
    // Recorded by an earlier run: a, b and c, all present then.
    await s.put('c1', [entry('c', T0 + 2), entry('a', T0), entry('b', T0 + 1)]);
    await s.put('c2', [entry('b', T0)]);
    const { recorder, clock } = start();
    clock.now = T0 + MIN;
    const o = recorder.observer('c1', () => []);
    o.upserted(entry('a', T0));
    o.listed([entry('a', T0)]);
    o.upserted(entry('c', T0 + 3));
    await recorder.flush();
    expect(await expiry()).toStrictEqual({ a: undefined, b: T0 + MIN, c: undefined });
    expect(await expiry('c2')).toStrictEqual({ b: undefined });
  });

  it('a category whose monitoring flag is off is not recorded', async () => {
    const { recorder, flags } = start();
    const pod = entry('pod', T0);
    const node = entry('node', T0 + 1, { namespace: '', kind: 'Node' });
    const o = recorder.observer('c1', () => []);
    o.listed([]);
    flags.resourceEventsEnabled = false;
    o.upserted(pod);
    o.upserted(node);
    await recorder.flush();
    expect(ids(await rows())).toEqual(['node']);
    flags.resourceEventsEnabled = true;
    flags.systemEventsEnabled = false;
    o.upserted(entry('pod-2', T0 + 2));
    o.upserted(entry('node-2', T0 + 3, { namespace: '', kind: 'Node' }));
    await recorder.flush();
    expect(ids(await rows())).toEqual(['pod-2', 'node']);
  });

  it('a category turned back on is written again from the cache, and what its cluster dropped is expired', async () => {
    const { recorder, flags, clock } = start();
    const cache = [entry('pod', T0), entry('node', T0 + 2, { namespace: '', kind: 'Node' })];
    const o = recorder.observer('c1', () => cache);
    flags.resourceEventsEnabled = false;
    for (const e of cache) o.upserted(e);
    o.listed(cache);
    await recorder.flush();
    expect(await expiry()).toStrictEqual({ node: undefined });
    // Recorded as present, but the cache no longer has it.
    await s.put('c1', [entry('dropped', T0 - MIN)]);
    flags.resourceEventsEnabled = true;
    clock.now = T0 + MIN;
    recorder.resync('c1');
    await recorder.flush();
    expect(await expiry()).toStrictEqual({ node: undefined, pod: undefined, dropped: T0 + MIN });
  });

  it('turning a category on writes nothing for a cluster whose cache is not running', async () => {
    const { recorder, flags } = start();
    const cache = [entry('pod', T0)];
    flags.resourceEventsEnabled = false;
    const o = recorder.observer('c1', () => cache);
    recorder.observer('never-listed', () => [entry('x', T0)]);
    o.listed(cache);
    o.stopped();
    await recorder.flush();
    flags.resourceEventsEnabled = true;
    recorder.resync('c1');
    recorder.resync('never-listed');
    recorder.resync('unknown');
    await recorder.flush();
    expect(await s.store.clusters()).toEqual([]);
  });

  it('turning a category on while a restarted cache is still listing marks nothing expired', async () => {
    const { recorder } = start();
    const first = recorder.observer('c1', () => []);
    for (const e of [entry('a', T0), entry('b', T0 + 1)]) first.upserted(e);
    first.listed([entry('a', T0), entry('b', T0 + 1)]);
    await recorder.flush();
    first.stopped();
    // The cache starts again and has listed only `a` so far.
    const again = recorder.observer('c1', () => [entry('a', T0)]);
    again.upserted(entry('a', T0));
    recorder.resync('c1');
    await recorder.flush();
    expect(await expiry()).toStrictEqual({ a: undefined, b: undefined });
  });

  it('the version of a cluster counts the writes of its changes', async () => {
    const { recorder } = start();
    const o = recorder.observer('c1', () => []);
    expect(recorder.version('c1')).toBe(0);
    o.upserted(entry('a', T0));
    o.listed([entry('a', T0)]);
    await recorder.flush();
    expect(recorder.version('c1')).toBe(1);
    await recorder.flush();
    expect(recorder.version('c1')).toBe(1);
    o.upserted(entry('b', T0));
    await recorder.flush();
    expect([recorder.version('c1'), recorder.version('c2')]).toEqual([2, 0]);
  });
});

describe('when changes are written', () => {
  it('changes are written on their own after flushMs', async () => {
    const { recorder } = start({ flushMs: 10 });
    const o = recorder.observer('c1', () => []);
    o.listed([]);
    o.upserted(entry('a', T0));
    expect(await becomes(async () => (await s.store.total('c1')) === 1)).toBe(true);
  });

  it('1,000 changes are written at once, without waiting for flushMs', async () => {
    const { recorder } = start();
    const o = recorder.observer('c1', () => []);
    o.listed([]);
    for (let i = 0; i < 999; i++) o.upserted(entry(`e${i}`, T0 + i));
    await new Promise((r) => setTimeout(r, 50));
    expect(await s.store.total('c1')).toBe(0);
    o.upserted(entry('e999', T0 + 999));
    expect(await becomes(async () => (await s.store.total('c1')) === 1_000)).toBe(true);
  });

  it('close writes what is pending', async () => {
    const { recorder } = start();
    const o = recorder.observer('c1', () => []);
    o.listed([]);
    o.upserted(entry('pending', T0));
    await recorder.close();
    expect(ids(await rows())).toEqual(['pending']);
  });

  it('nothing seen after close is written', async () => {
    const { recorder } = start({ flushMs: 10 });
    const o = recorder.observer('c1', () => []);
    o.listed([]);
    o.upserted(entry('before', T0));
    expect(await becomes(async () => (await rows()).length === 1)).toBe(true);
    await recorder.close();
    o.upserted(entry('after', T0 + 1));
    await new Promise((r) => setTimeout(r, 100));
    expect(ids(await rows())).toEqual(['before']);
  });

  it('once the database is sealed nothing more is written', async () => {
    const { recorder } = start();
    const o = recorder.observer('c1', () => []);
    o.upserted(entry('a', T0));
    o.listed([entry('a', T0)]);
    await recorder.flush();
    s.backend.seal();
    o.upserted(entry('b', T0));
    o.removed('a');
    await recorder.flush();
    expect(await expiry()).toStrictEqual({ a: undefined });
  });
});
