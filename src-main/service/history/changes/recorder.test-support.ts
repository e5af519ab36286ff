/**
 * The change recorder's cases, fed as a resource cache feeds it (entries in, upserted/removed/
 * listed) and written into a real database of the backend named: which rows each sequence makes.
 * recorder-sqlite.test.ts runs them on SQLite (fast enough for mutation runs, which name it with
 * --testFiles), recorder.test.ts on PostgreSQL; keep every case backend-neutral.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ResourceEntry } from '../../cache/entries';
import type { CacheObserver } from '../../cache/resource-cache';
import { type KindInfo, TAILORED_KINDS } from '../../clusters/kind-info';
import { type BackendKind, openBackend } from '../../events/history/history.test-support';
import { silentLogger } from '../../logger';
import type { StorageBackend } from '../../storage/backend';
import { eventually } from '../../test-support/eventually.test-support';
import { resolveChangeOptions } from './options';
import { ChangeRecorder } from './recorder';

export const DEPLOYMENT = TAILORED_KINDS.find((k) => k.plural === 'deployments') as KindInfo;
export const C = 'c1';

let rv = 100;
export function entry(
  name: string,
  o: { uid?: string; replicas?: number; image?: string; created?: string } = {},
): ResourceEntry {
  const obj = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: 'ns',
      uid: o.uid ?? `uid-${name}`,
      resourceVersion: String(++rv),
      creationTimestamp: o.created ?? '2020-01-01T00:00:00Z',
    },
    spec: {
      replicas: o.replicas ?? 1,
      template: { spec: { containers: [{ name: 'app', image: o.image ?? 'app:1' }] } },
    },
  };
  return { key: `ns/${name}`, namespace: 'ns', name, labels: undefined, json: JSON.stringify(obj) };
}

export interface Row {
  id: number;
  name: string;
  uid: string;
  change: string;
  summary: string;
  object: string | null;
  resource_version: string;
}

/** The first list as a cache makes it: each entry upserted, then listed. */
export function firstList(o: CacheObserver<ResourceEntry>, entries: ResourceEntry[]) {
  for (const e of entries) o.upserted(e, undefined);
  o.listed(entries);
}

/** The cases on one backend; PostgreSQL's need postgresPerFile() in the calling file. */
export function recorderCases(kind: BackendKind): void {
  let backend: StorageBackend;
  let close: () => Promise<void>;
  const recorders: ChangeRecorder[] = [];
  beforeEach(async () => {
    ({ backend, close } = await openBackend(kind));
  });
  afterEach(async () => {
    for (const r of recorders.splice(0)) await r.close();
    await close();
  });
  const recorder = (
    over: { wholeEvery?: number; now?: () => number; on?: StorageBackend; flushMs?: number } = {},
  ) => {
    const r = new ChangeRecorder({
      backend: over.on ?? backend,
      options: resolveChangeOptions({
        flushMs: over.flushMs ?? 10,
        leaseRetryMs: 50,
        wholeEvery: over.wholeEvery ?? 20,
      }),
      logger: silentLogger(),
      now: over.now ?? Date.now,
    });
    recorders.push(r);
    return r;
  };
  const rows = async (on = backend) =>
    on.all<Row>(
      'SELECT id, name, uid, change, summary, object, resource_version FROM change_history ORDER BY id',
    );

  it('makes no row before the first list; the list is the baseline, then changes follow in order', async () => {
    const r = recorder();
    const o = r.observer(C, DEPLOYMENT);
    const a = entry('a');
    o.upserted(a, undefined);
    o.removed('ns/zz', entry('zz'));
    await r.flush();
    expect(await rows()).toEqual([]);
    o.listed([a]);
    await r.flush();
    expect((await rows()).map((x) => [x.name, x.change])).toEqual([['a', 'seen']]);
    const a2 = entry('a', { replicas: 2 });
    o.upserted(a2, a);
    // The same object again (a relist that changed nothing but its version): no row.
    const a3 = { ...entry('a', { replicas: 2 }), key: 'ns/a' };
    o.upserted(a3, a2);
    o.removed('ns/a', a3);
    o.removed('ns/ghost', undefined);
    await r.flush();
    expect((await rows()).map((x) => [x.name, x.change, x.summary])).toEqual([
      ['a', 'seen', 'first seen'],
      ['a', 'updated', 'replicas 1 → 2'],
      ['a', 'deleted', 'deleted'],
    ]);
    expect(r.version(C)).toBeGreaterThanOrEqual(2);
    expect(r.records(C)).toBe(true);
  });

  it('an object made again under the same name between two looks is a deletion then a creation', async () => {
    const r = recorder();
    const o = r.observer(C, DEPLOYMENT);
    const old = entry('a');
    firstList(o, [old]);
    await r.flush();
    o.upserted(entry('a', { uid: 'other' }), old);
    await r.flush();
    const all = await rows();
    expect(all.map((x) => [x.change, x.uid])).toEqual([
      ['seen', 'uid-a'],
      ['deleted', 'uid-a'],
      ['created', 'other'],
    ]);
    expect(all.every((x) => x.object !== null)).toBe(true);
  });

  it('an object made after recording of its kind began is created at the first list', async () => {
    const r = recorder();
    const o = r.observer(C, DEPLOYMENT);
    firstList(o, [entry('old'), entry('new', { created: new Date(Date.now() + 60_000).toISOString() })]);
    await r.flush();
    expect((await rows()).map((x) => [x.name, x.change])).toEqual([
      ['old', 'seen'],
      ['new', 'created'],
    ]);
  });

  it('writes a thousand changes at once without waiting for the flush timer', async () => {
    // The timer would wait an hour: only the count starts this write.
    const r = recorder({ flushMs: 3_600_000 });
    const o = r.observer(C, DEPLOYMENT);
    firstList(o, []);
    await r.flush();
    for (let i = 0; i < 999; i++) o.upserted(entry(`p${i}`), undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await rows()).toEqual([]);
    o.upserted(entry('p999'), undefined);
    await eventually(async () => expect(await rows()).toHaveLength(1_000), 30_000);
  });

  /** A first recorder lists `before` and closes; a second lists `after`: the rows the second adds. */
  async function restarted(before: ResourceEntry[], after: ResourceEntry[], now?: () => number) {
    const first = recorder();
    firstList(first.observer(C, DEPLOYMENT), before);
    await first.flush();
    await first.close();
    recorders.splice(recorders.indexOf(first), 1);
    const known = (await rows()).length;
    const second = recorder(now ? { now } : {});
    const o = second.observer(C, DEPLOYMENT);
    firstList(o, after);
    await second.flush();
    return { added: (await rows()).slice(known), o, second };
  }

  it('after a restart: a moved object is updated whole with its patch, a gone one deleted, a new one created, the same one untouched', async () => {
    const moved = entry('moved');
    const same = entry('same');
    const gone = entry('gone');
    const movedNow = entry('moved', { image: 'app:2' });
    const made = entry('made', { created: new Date(Date.now() + 60_000).toISOString() });
    const { added } = await restarted([moved, same, gone], [movedNow, same, made]);
    expect(added.map((x) => [x.name, x.change, x.summary, x.object !== null])).toEqual([
      ['moved', 'updated', 'image app: 1 → 2', true],
      ['made', 'created', 'created', true],
      ['gone', 'deleted', 'deleted', true],
    ]);
    const movedRow = added[0]!;
    expect(movedRow.resource_version).toBe(JSON.parse(movedNow.json).metadata.resourceVersion);
    const patch = await backend.get<{ patch: string }>('SELECT patch FROM change_history WHERE id = $id', {
      id: movedRow.id,
    });
    expect(JSON.parse(patch!.patch)).toEqual([
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'app:2' },
    ]);
    // The deletion carries the last version recorded, with its resourceVersion.
    const goneRow = added[2]!;
    expect(JSON.parse(goneRow.object!).metadata.name).toBe('gone');
    expect(goneRow.resource_version).toBe(JSON.parse(gone.json).metadata.resourceVersion);
  });

  it('after a restart: a name now held by another object is its deletion and the new one; an object already deleted stays so', async () => {
    const a = entry('a');
    const first = recorder();
    const o1 = first.observer(C, DEPLOYMENT);
    const b = entry('b');
    firstList(o1, [a, b]);
    await first.flush();
    o1.removed(b.key, b);
    await first.flush();
    await first.close();
    recorders.splice(recorders.indexOf(first), 1);
    const known = (await rows()).length;
    const second = recorder();
    firstList(second.observer(C, DEPLOYMENT), [entry('a', { uid: 'new-uid' })]);
    await second.flush();
    const added = (await rows()).slice(known);
    expect(added.map((x) => [x.name, x.change, x.uid])).toEqual([
      ['a', 'deleted', 'uid-a'],
      ['a', 'seen', 'new-uid'],
    ]);
  });

  it('after a restart: a version that moved only by heartbeats, or by nothing recorded, is no row; its next change is whole', async () => {
    const a = entry('a');
    const again = { ...a, json: a.json.replace(/"resourceVersion":"\d+"/, '"resourceVersion":"99999"') };
    const { added, o, second } = await restarted([a], [again]);
    expect(added).toEqual([]);
    o.upserted(entry('a', { replicas: 5 }), again);
    await second.flush();
    const last = (await rows()).at(-1)!;
    expect([last.change, last.summary, last.object !== null]).toEqual(['updated', 'replicas 1 → 5', true]);
  });

  it('after a restart: an object made before recording of the kind began but never seen is a baseline', async () => {
    const { added } = await restarted(
      [entry('a')],
      [entry('a'), entry('late', { created: '2019-01-01T00:00:00Z' })],
    );
    expect(added.map((x) => [x.name, x.change])).toEqual([['late', 'seen']]);
  });

  it("after a restart: a chain that cannot be rebuilt records the object whole with an empty patch, and a lost one's deletion is not invented", async () => {
    const a = entry('a');
    const b = entry('b');
    const first = recorder();
    firstList(first.observer(C, DEPLOYMENT), [a, b]);
    await first.flush();
    await first.close();
    recorders.splice(recorders.indexOf(first), 1);
    // Both chains lose their whole object (as a corrupted table would).
    await backend.run('UPDATE change_history SET object = NULL');
    const known = (await rows()).length;
    const second = recorder();
    firstList(second.observer(C, DEPLOYMENT), [entry('a', { replicas: 2 })]);
    await second.flush();
    const added = (await rows()).slice(known);
    expect(added.map((x) => [x.name, x.change, x.object !== null])).toEqual([['a', 'updated', true]]);
    const patch = await backend.get<{ patch: string }>('SELECT patch FROM change_history WHERE id = $id', {
      id: added[0]!.id,
    });
    expect(patch!.patch).toBe('[]');
  });

  it('an update carries the whole object after wholeEvery patch-only rows; created and deleted always, with an empty patch', async () => {
    const r = recorder({ wholeEvery: 2 });
    const o = r.observer(C, DEPLOYMENT);
    firstList(o, []);
    await r.flush();
    let prev = entry('a');
    o.upserted(prev, undefined);
    for (const replicas of [2, 3, 4, 5]) {
      const next = entry('a', { replicas });
      o.upserted(next, prev);
      prev = next;
    }
    o.removed(prev.key, prev);
    o.upserted(entry('a', { uid: 'u2' }), undefined);
    const again = entry('a', { uid: 'u3' });
    o.upserted(again, entry('a', { uid: 'u2' }));
    await r.flush();
    const all = await backend.all<{ change: string; patch: string; object: string | null }>(
      'SELECT change, patch, object FROM change_history ORDER BY id',
    );
    expect(all.map((x) => [x.change, x.object !== null])).toEqual([
      ['created', true],
      ['updated', false],
      ['updated', false],
      ['updated', true],
      ['updated', false],
      ['deleted', true],
      ['created', true],
      ['deleted', true],
      ['created', true],
    ]);
    expect(all.filter((x) => x.change !== 'updated').every((x) => x.patch === '[]')).toBe(true);
  });

  it("a Secret whose version moved with nothing visible is an update saying `data changed`; another kind's is no row", async () => {
    const SECRET: KindInfo = {
      ...DEPLOYMENT,
      resourceType: 'secret',
      singular: 'secret',
      plural: 'secrets',
      kind: 'Secret',
      group: '',
      version: 'v1',
      apiPath: '/api/v1',
    };
    const secret = (v: string) => ({
      key: 'ns/s',
      namespace: 'ns',
      name: 's',
      labels: undefined,
      json: JSON.stringify({
        kind: 'Secret',
        metadata: { name: 's', namespace: 'ns', uid: 'us', resourceVersion: v },
        keys: [],
      }),
    });
    const r = recorder();
    const o = r.observer(C, SECRET);
    firstList(o, [secret('1')]);
    await r.flush();
    o.upserted(secret('2'), secret('1'));
    o.upserted(secret('2'), secret('2'));
    await r.flush();
    expect((await rows()).map((x) => [x.change, x.summary])).toEqual([
      ['seen', 'first seen'],
      ['updated', 'data changed'],
    ]);
  });

  it('after a restart: an object made again after its recorded deletion is only its new first sight', async () => {
    const first = recorder();
    const o1 = first.observer(C, DEPLOYMENT);
    const a = entry('a');
    firstList(o1, [a]);
    await first.flush();
    o1.removed(a.key, a);
    await first.flush();
    await first.close();
    recorders.splice(recorders.indexOf(first), 1);
    const known = (await rows()).length;
    const second = recorder();
    firstList(second.observer(C, DEPLOYMENT), [entry('a', { uid: 'again' })]);
    await second.flush();
    expect((await rows()).slice(known).map((x) => [x.change, x.uid])).toEqual([['seen', 'again']]);
  });

  it('after a restart: a Secret at its recorded version is no row; one whose version moved with nothing visible is `data changed`', async () => {
    const SECRET: KindInfo = {
      ...DEPLOYMENT,
      resourceType: 'secret',
      singular: 'secret',
      plural: 'secrets',
      kind: 'Secret',
      group: '',
      version: 'v1',
      apiPath: '/api/v1',
    };
    const secret = (name: string, v: string) => ({
      key: `ns/${name}`,
      namespace: 'ns',
      name,
      labels: undefined,
      json: JSON.stringify({
        kind: 'Secret',
        metadata: { name, namespace: 'ns', uid: `u-${name}`, resourceVersion: v },
        keys: [],
      }),
    });
    const first = recorder();
    firstList(first.observer(C, SECRET), [secret('same', '1'), secret('moved', '1')]);
    await first.flush();
    await first.close();
    recorders.splice(recorders.indexOf(first), 1);
    const known = (await rows()).length;
    const second = recorder();
    firstList(second.observer(C, SECRET), [secret('same', '1'), secret('moved', '2')]);
    await second.flush();
    expect((await rows()).slice(known).map((x) => [x.name, x.change, x.summary])).toEqual([
      ['moved', 'updated', 'data changed'],
    ]);
  });

  it('after a restart: the same object seen again after its recorded deletion is whole again, not an update', async () => {
    const first = recorder();
    const o1 = first.observer(C, DEPLOYMENT);
    const a = entry('a');
    firstList(o1, [a]);
    await first.flush();
    o1.removed(a.key, a);
    await first.flush();
    await first.close();
    recorders.splice(recorders.indexOf(first), 1);
    const known = (await rows()).length;
    const second = recorder();
    firstList(second.observer(C, DEPLOYMENT), [entry('a', { replicas: 2 })]);
    await second.flush();
    const added = (await rows()).slice(known);
    expect(added.map((x) => [x.change, x.uid, x.object !== null])).toEqual([['seen', 'uid-a', true]]);
  });

  it("after a restart: an object made at the very millisecond recording began is created; the reconcile's created and deleted rows carry an empty patch", async () => {
    const T = Date.parse('2020-01-01T00:00:00Z');
    const first = recorder({ now: () => T });
    firstList(first.observer(C, DEPLOYMENT), [entry('a'), entry('b')]);
    await first.flush();
    await first.close();
    recorders.splice(recorders.indexOf(first), 1);
    const known = (await rows()).length;
    const second = recorder({ now: () => T + 1 });
    firstList(second.observer(C, DEPLOYMENT), [entry('b', { uid: 'b2' }), entry('c')]);
    await second.flush();
    const added = await backend.all<{ name: string; change: string; patch: string }>(
      'SELECT name, change, patch FROM change_history WHERE id > $k ORDER BY id',
      { k: known },
    );
    expect(added.map((x) => [x.name, x.change, x.patch])).toEqual([
      ['b', 'deleted', '[]'],
      ['b', 'created', '[]'],
      ['c', 'created', '[]'],
      ['a', 'deleted', '[]'],
    ]);
  });

  it('after a restart: the change after a reconcile row that carried the whole object is patch-only', async () => {
    const first = recorder();
    const a = entry('a');
    firstList(first.observer(C, DEPLOYMENT), [a]);
    await first.flush();
    await first.close();
    recorders.splice(recorders.indexOf(first), 1);
    const known = (await rows()).length;
    const second = recorder();
    const o = second.observer(C, DEPLOYMENT);
    const a2 = entry('a', { replicas: 2 });
    const b = entry('b');
    firstList(o, [a2, b]);
    await second.flush();
    o.upserted(entry('a', { replicas: 3 }), a2);
    o.upserted(entry('b', { replicas: 4 }), b);
    await second.flush();
    const added = (await rows()).slice(known);
    expect(added.map((x) => [x.name, x.change, x.summary, x.object !== null])).toEqual([
      ['a', 'updated', 'replicas 1 → 2', true],
      ['b', 'seen', 'first seen', true],
      ['a', 'updated', 'replicas 2 → 3', false],
      ['b', 'updated', 'replicas 1 → 4', false],
    ]);
  });

  it('changes seen while a kind reconciles follow the reconcile rows; a stopped cache writes what it saw', async () => {
    const first = recorder();
    const o1 = first.observer(C, DEPLOYMENT);
    const a = entry('a');
    firstList(o1, [a]);
    await first.flush();
    await first.close();
    recorders.splice(recorders.indexOf(first), 1);
    // The backend as it is, telling when the reconcile reads the latest rows.
    let whileReading: (() => void) | undefined;
    const watched = new Proxy(backend, {
      get(target, prop) {
        if (prop === 'all')
          return (sql: string, params?: Record<string, string | number | null>) => {
            if (sql.includes('GROUP BY namespace, name')) {
              whileReading?.();
              whileReading = undefined;
            }
            return target.all(sql, params);
          };
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const second = recorder({ on: watched });
    const o2 = second.observer(C, DEPLOYMENT);
    const a2 = entry('a', { replicas: 2 });
    const a3 = entry('a', { replicas: 3 });
    whileReading = () => o2.upserted(a3, a2);
    firstList(o2, [a2]);
    await second.flush();
    expect(whileReading).toBeUndefined();
    o2.stopped();
    await eventually(async () =>
      expect((await rows()).map((x) => [x.change, x.summary])).toEqual([
        ['seen', 'first seen'],
        ['updated', 'replicas 1 → 2'],
        ['updated', 'replicas 2 → 3'],
      ]),
    );
  });
}
