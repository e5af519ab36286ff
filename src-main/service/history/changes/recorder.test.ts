/**
 * The change recorder on PostgreSQL: the cases of recorder.test-support.ts (recorder-sqlite.test.ts
 * runs them on SQLite), and one writer per cluster across two recorders sharing a database.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS, postgresPerFile } from '../../events/history/history.test-support';
import { silentLogger } from '../../logger';
import { openPostgresBackend } from '../../storage/postgres-backend';
import { eventually } from '../../test-support/eventually.test-support';
import { resolveChangeOptions } from './options';
import { ChangeRecorder } from './recorder';
import { C, DEPLOYMENT, entry, firstList, type Row, recorderCases } from './recorder.test-support';

const pgServer = postgresPerFile();
const pgSkip = BACKENDS.find((b) => b.kind === 'postgres')!.skip;

describe.skipIf(pgSkip !== undefined)(`on postgres`, () => recorderCases('postgres'));

describe.skipIf(pgSkip !== undefined)('one writer per cluster on a shared PostgreSQL database', () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of opened.splice(0).reverse()) await o.close().catch(() => {});
  });

  it('the second recorder writes nothing while the first holds the lease, then takes over without losing or repeating a version', async () => {
    const url = await (await pgServer()).createDatabase();
    const replica = async () => {
      const backend = await openPostgresBackend(url, silentLogger(), { max: 3 });
      const recorder = new ChangeRecorder({
        backend,
        options: resolveChangeOptions({ flushMs: 10, leaseRetryMs: 50 }),
        logger: silentLogger(),
        now: Date.now,
      });
      const close = async () => {
        await recorder.close();
        await backend.close();
      };
      const r = { backend, recorder, close };
      opened.push(r);
      return r;
    };
    const one = await replica();
    const two = await replica();
    const rowsOf = () =>
      one.backend.all<Row>(
        'SELECT id, name, uid, change, summary, object, resource_version FROM change_history ORDER BY id',
      );
    const o1 = one.recorder.observer(C, DEPLOYMENT);
    const a = entry('a');
    firstList(o1, [a]);
    await one.recorder.flush();
    expect(one.recorder.records(C)).toBe(true);
    const o2 = two.recorder.observer(C, DEPLOYMENT);
    firstList(o2, [a]);
    await two.recorder.flush();
    expect(two.recorder.records(C)).toBe(false);
    const a2 = entry('a', { replicas: 2 });
    o1.upserted(a2, a);
    o2.upserted(a2, a);
    await one.recorder.flush();
    await two.recorder.flush();
    expect((await rowsOf()).map((x) => x.change)).toEqual(['seen', 'updated']);
    // The first replica goes; the cluster changes before the second takes the lease over.
    opened.splice(opened.indexOf(one), 1);
    await one.recorder.close();
    const a3 = entry('a', { replicas: 3 });
    o2.upserted(a3, a2);
    await eventually(async () => {
      await two.recorder.flush();
      expect(two.recorder.records(C)).toBe(true);
      const all = await two.backend.all<Row>(
        'SELECT change, summary, object FROM change_history ORDER BY id',
      );
      expect(all.map((x) => [x.change, x.summary])).toEqual([
        ['seen', 'first seen'],
        ['updated', 'replicas 1 → 2'],
        ['updated', 'replicas 2 → 3'],
      ]);
      expect(all[2]!.object).not.toBeNull();
    }, 10_000);
    await one.backend.close();
  });
});
