import { afterEach, expect, it } from 'vitest';
import { silentLogger } from '../logger';
import { AppDatabase } from '../storage/database';
import { ActivityLog } from './activity';
import { FakeClock } from './stack.test-support';

/**
 * The activity log read back: filters, export batches, forgetting an account. Each test builds
 * its own log over an in-memory database, so that Stryker counts the log's work as covered by it.
 */

const open: AppDatabase[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function newLog() {
  const clock = new FakeClock();
  const db = AppDatabase.open(':memory:', silentLogger());
  open.push(db);
  return { db, clock, log: new ActivityLog(db, clock.now) };
}

it('an empty list of types filters nothing', () => {
  const { log } = newLog();
  log.record({ type: 'login', accountId: 'acc-types-a' });
  log.record({ type: 'logout', accountId: 'acc-types-b' });
  const page = log.page({ types: [] }, 10, 0);
  expect(page.total).toBe(2);
  expect(page.items.map((e) => e.accountId).sort()).toEqual(['acc-types-a', 'acc-types-b']);
  expect(log.page({ types: ['logout'] }, 10, 0).items.map((e) => e.accountId)).toEqual(['acc-types-b']);
});

it('a log opened over existing entries counts them', () => {
  const { db, clock, log } = newLog();
  for (const accountId of ['acc-count-c', 'acc-count-a', 'acc-count-b'])
    log.record({ type: 'login', accountId });
  const reopened = new ActivityLog(db, clock.now);
  expect(reopened.size).toBe(3);
});

it('an entry the sealed database dropped is not counted', () => {
  const { db, log } = newLog();
  log.record({ type: 'login', accountId: 'acc-sealed-before' });
  db.seal();
  log.record({ type: 'login', accountId: 'acc-sealed-after' });
  expect(log.size).toBe(1);
});

/** Entries of the given accounts at the given offsets from now, written in the order given (not the order they read back in). */
function recordAt(log: ActivityLog, clock: FakeClock, entries: Array<[string, number]>) {
  for (const [accountId, at] of entries) log.record({ type: 'login', accountId, at: clock.t + at });
}

function exported(log: ActivityLog, filter: Parameters<ActivityLog['batches']>[0], size: number) {
  return [...log.batches(filter, size)].map((batch) => batch.map((e) => e.accountId));
}

it('an export without a filter goes on batch after batch, newest first, ties newest-written first', () => {
  const { log, clock } = newLog();
  // Several entries share a timestamp: the batches must not lose or repeat one at a batch border.
  recordAt(log, clock, [
    ['e3', 3],
    ['e1', 1],
    ['e5', 5],
    ['e4a', 4],
    ['e4b', 4],
    ['e4c', 4],
    ['e2', 2],
  ]);
  expect(exported(log, {}, 3)).toEqual([['e5', 'e4c', 'e4b'], ['e4a', 'e3', 'e2'], ['e1']]);
});

it('an export whose entries fill the last batch exactly ends without an empty batch', () => {
  const { log, clock } = newLog();
  recordAt(log, clock, [
    ['f2', 2],
    ['f4', 4],
    ['f1', 1],
    ['f3', 3],
  ]);
  expect(exported(log, {}, 2)).toEqual([
    ['f4', 'f3'],
    ['f2', 'f1'],
  ]);
  expect(exported(log, {}, 4)).toEqual([['f4', 'f3', 'f2', 'f1']]);
});

it('a filtered export goes on batch after batch with the filter kept', () => {
  const { log, clock } = newLog();
  for (const [accountId, at, sessionId] of [
    ['g2', 2, 'sess-g'],
    ['other-1', 6, 'sess-other'],
    ['g5', 5, 'sess-g'],
    ['g1', 1, 'sess-g'],
    ['other-2', 3, 'sess-other'],
    ['g4', 4, 'sess-g'],
  ] as const)
    log.record({ type: 'refresh', accountId, sessionId, at: clock.t + at });
  expect(exported(log, { sessionId: 'sess-g' }, 2)).toEqual([
    ['g5', 'g4'],
    ['g2', 'g1'],
  ]);
  expect(exported(log, { sessionId: 'sess-none' }, 2)).toEqual([]);
});

it('forgetting an account removes its entries only, and they no longer count', () => {
  const { log, clock } = newLog();
  recordAt(log, clock, [
    ['acc-keep', 1],
    ['acc-forget', 2],
    ['acc-keep', 3],
    ['acc-forget', 4],
  ]);
  log.forget('acc-forget');
  expect(log.size).toBe(2);
  expect(log.page({}, 10, 0).items.map((e) => e.accountId)).toEqual(['acc-keep', 'acc-keep']);
  log.forget('acc-nobody');
  expect(log.size).toBe(2);
});
