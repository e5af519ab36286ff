import { afterEach, expect, it } from 'vitest';
import { ActivityLog } from './activity';
import { type MemoryBackend, memoryBackend } from './backends.test-support';
import { FakeClock } from './stack.test-support';

/**
 * The activity log read back: filters, export batches, forgetting an account. Each test builds
 * its own log over an in-memory database, so that Stryker counts the log's work as covered by it.
 */

const open: MemoryBackend[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

async function newLog() {
  const clock = new FakeClock();
  const m = memoryBackend();
  open.push(m);
  return { db: m.db, backend: m.backend, clock, log: await ActivityLog.load(m.backend, clock.now) };
}

it('an empty list of types filters nothing', async () => {
  const { log } = await newLog();
  await log.record({ type: 'login', accountId: 'acc-types-a' });
  await log.record({ type: 'logout', accountId: 'acc-types-b' });
  const page = await log.page({ types: [] }, 10, 0);
  expect(page.total).toBe(2);
  expect(page.items.map((e) => e.accountId).sort()).toEqual(['acc-types-a', 'acc-types-b']);
  expect((await log.page({ types: ['logout'] }, 10, 0)).items.map((e) => e.accountId)).toEqual([
    'acc-types-b',
  ]);
});

it('a log opened over existing entries counts them', async () => {
  const { backend, clock, log } = await newLog();
  for (const accountId of ['acc-count-c', 'acc-count-a', 'acc-count-b'])
    await log.record({ type: 'login', accountId });
  const reopened = await ActivityLog.load(backend, clock.now);
  expect(reopened.size).toBe(3);
});

it('an entry the sealed database dropped is not counted', async () => {
  const { db, log } = await newLog();
  await log.record({ type: 'login', accountId: 'acc-sealed-before' });
  db.seal();
  await log.record({ type: 'login', accountId: 'acc-sealed-after' });
  expect(log.size).toBe(1);
});

/** Entries of the given accounts at the given offsets from now, written in the order given (not the order they read back in). */
async function recordAt(log: ActivityLog, clock: FakeClock, entries: Array<[string, number]>) {
  for (const [accountId, at] of entries) await log.record({ type: 'login', accountId, at: clock.t + at });
}

async function exported(log: ActivityLog, filter: Parameters<ActivityLog['batches']>[0], size: number) {
  const out: string[][] = [];
  for await (const batch of log.batches(filter, size)) out.push(batch.map((e) => e.accountId));
  return out;
}

it('an export without a filter goes on batch after batch, newest first, ties newest-written first', async () => {
  const { log, clock } = await newLog();
  // Several entries share a timestamp: the batches must not lose or repeat one at a batch border.
  await recordAt(log, clock, [
    ['e3', 3],
    ['e1', 1],
    ['e5', 5],
    ['e4a', 4],
    ['e4b', 4],
    ['e4c', 4],
    ['e2', 2],
  ]);
  expect(await exported(log, {}, 3)).toEqual([['e5', 'e4c', 'e4b'], ['e4a', 'e3', 'e2'], ['e1']]);
});

it('an export whose entries fill the last batch exactly ends without an empty batch', async () => {
  const { log, clock } = await newLog();
  await recordAt(log, clock, [
    ['f2', 2],
    ['f4', 4],
    ['f1', 1],
    ['f3', 3],
  ]);
  expect(await exported(log, {}, 2)).toEqual([
    ['f4', 'f3'],
    ['f2', 'f1'],
  ]);
  expect(await exported(log, {}, 4)).toEqual([['f4', 'f3', 'f2', 'f1']]);
});

it('a filtered export goes on batch after batch with the filter kept', async () => {
  const { log, clock } = await newLog();
  for (const [accountId, at, sessionId] of [
    ['g2', 2, 'sess-g'],
    ['other-1', 6, 'sess-other'],
    ['g5', 5, 'sess-g'],
    ['g1', 1, 'sess-g'],
    ['other-2', 3, 'sess-other'],
    ['g4', 4, 'sess-g'],
  ] as const)
    await log.record({ type: 'refresh', accountId, sessionId, at: clock.t + at });
  expect(await exported(log, { sessionId: 'sess-g' }, 2)).toEqual([
    ['g5', 'g4'],
    ['g2', 'g1'],
  ]);
  expect(await exported(log, { sessionId: 'sess-none' }, 2)).toEqual([]);
});

it('forgetting an account removes its entries only, and they no longer count', async () => {
  const { log, clock } = await newLog();
  await recordAt(log, clock, [
    ['acc-keep', 1],
    ['acc-forget', 2],
    ['acc-keep', 3],
    ['acc-forget', 4],
  ]);
  await log.forget('acc-forget');
  expect(log.size).toBe(2);
  expect((await log.page({}, 10, 0)).items.map((e) => e.accountId)).toEqual(['acc-keep', 'acc-keep']);
  await log.forget('acc-nobody');
  expect(log.size).toBe(2);
});
