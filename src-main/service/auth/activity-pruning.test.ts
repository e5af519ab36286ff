import { afterEach, expect, it, vi } from 'vitest';
import { ActivityLog } from './activity';
import { type MemoryBackend, memoryBackend } from './backends.test-support';
import { FakeClock } from './stack.test-support';

/**
 * The activity log's bounds, by age and by count, enforced by pruning on later turns of the
 * event loop. Each test builds its own log over an in-memory database.
 */

const DAY = 24 * 3_600_000;
/** Generous: a loaded machine may be slow to run the prunes, each on its own turn of the event loop. */
const WAIT = { timeout: 5_000 };
const open: MemoryBackend[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

async function newLog(limits: { retentionDays?: number; maxEntries?: number }) {
  const clock = new FakeClock();
  const m = memoryBackend();
  open.push(m);
  return { db: m.db, clock, log: await ActivityLog.load(m.backend, clock.now, limits) };
}

/** `n` entries at the clock's time minus `age`, written with ids of their own. */
async function fill(log: ActivityLog, clock: FakeClock, n: number, age: number, prefix: string) {
  for (let i = 0; i < n; i++)
    await log.record({ type: 'login', accountId: `${prefix}-${i}`, at: clock.t - age });
}

/** Lets the event loop run the prunes scheduled so far (each on its own turn). */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

it('a log over its cap by no more than the slack is not pruned; one entry more prunes it to the cap', async () => {
  // 10 entries allowed, slack 1: the 11th entry is tolerated, the 12th starts a prune.
  const { log, clock } = await newLog({ maxEntries: 10 });
  await fill(log, clock, 11, 0, 'slack');
  await turns(3);
  expect(log.size).toBe(11);
  expect((await log.page({}, 100, 0)).total).toBe(11);
  await log.record({ type: 'logout', accountId: 'slack-last', at: clock.t + 1 });
  await vi.waitFor(() => expect(log.size).toBe(10), WAIT);
  const kept = await log.page({}, 100, 0);
  expect(kept.total).toBe(10);
  // The oldest went: the newest entry is still there.
  expect(kept.items[0]!.accountId).toBe('slack-last');
});

it('the slack before a prune grows with the cap, a hundredth of it', async () => {
  // 1000 allowed, slack 10: 1010 entries are tolerated.
  const { log, clock } = await newLog({ maxEntries: 1_000 });
  await fill(log, clock, 1_010, 0, 'hundredth');
  await turns(3);
  expect(log.size).toBe(1_010);
  await log.record({ type: 'login', accountId: 'hundredth-last' });
  await vi.waitFor(() => expect(log.size).toBe(1_000), WAIT);
});

it('a prune that brings the log down to its cap reports nothing left to do', async () => {
  const { log, clock } = await newLog({ maxEntries: 10 });
  await fill(log, clock, 12, 0, 'at-cap');
  // Synchronously, before the prune the 12th entry scheduled has run.
  expect(await log.pruneBatch()).toBe(false);
  expect(log.size).toBe(10);
  expect((await log.page({}, 100, 0)).total).toBe(10);
  expect(await log.pruneBatch()).toBe(false);
});

it('a sealed log prunes nothing and reports nothing left to do, even over its cap', async () => {
  const { db, log, clock } = await newLog({ maxEntries: 10 });
  await fill(log, clock, 15, 0, 'sealed');
  db.seal();
  expect(await log.pruneBatch()).toBe(false);
  expect(log.size).toBe(15);
});

it('entries past their age go batch after batch, more than one batch of them', async () => {
  const { log, clock } = await newLog({ retentionDays: 1 });
  await fill(log, clock, 1_500, 2 * DAY, 'old');
  await fill(log, clock, 3, 0, 'young');
  log.schedulePrune();
  await vi.waitFor(() => expect(log.size).toBe(3), WAIT);
  expect((await log.page({}, 100, 0)).items.map((e) => e.accountId).sort()).toEqual([
    'young-0',
    'young-1',
    'young-2',
  ]);
});

it('a log far over its cap is pruned batch after batch down to the cap, old entries first', async () => {
  const { log, clock } = await newLog({ retentionDays: 1, maxEntries: 10 });
  // A few entries past their age, then more than a batch of young ones over the cap.
  await fill(log, clock, 5, 2 * DAY, 'aged');
  for (let i = 0; i < 1_020; i++)
    await log.record({ type: 'login', accountId: `fresh-${i}`, at: clock.t - 1_020 + i });
  await vi.waitFor(() => expect(log.size).toBe(10), WAIT);
  const kept = await log.page({}, 100, 0);
  expect(kept.total).toBe(10);
  expect(kept.items.map((e) => e.accountId)).toEqual(
    Array.from({ length: 10 }, (_, i) => `fresh-${1_019 - i}`),
  );
});
