/**
 * The event history and close: what the recorder still holds is written before the database
 * closes, and a closed service never writes into its data dir again, though its cluster goes on.
 */
import { rm } from 'node:fs/promises';
import { afterEach, expect, it } from 'vitest';
import type { EventRecord } from '../../../../src-shared/contract/models';
import { queryDataDir } from '../../auth/stack.test-support';
import { eventually, reappears } from '../../test-support/eventually.test-support';
import { CLUSTER_ID, collectAll, type Stack, startStack } from '../../test-support/harness.test-support';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** Recording from the start, and changes kept an hour before they are written on their own. */
async function recordingStack(flushMs: number): Promise<Stack> {
  stack = await startStack({
    simulator: { listOrder: 'scrambled' },
    service: { eventHistory: { record: 'all', flushMs, pruneEveryMs: flushMs } },
  });
  return stack;
}

const recordedIds = (s: Stack) =>
  queryDataDir<{ event_id: string }>(
    s.dataDir,
    `SELECT event_id FROM event_history WHERE cluster_id = '${CLUSTER_ID}'`,
  ).map((r) => r.event_id);

const liveEventIds = async (s: Stack) =>
  (await collectAll<EventRecord>(s, `${s.cluster}/kubernetes-events?limit=1000`)).map((e) => e.eventId);

it('close writes the events the recorder still holds before the database closes', async () => {
  const s = await recordingStack(3_600_000);
  s.sim.store.addEvent({
    involvedObject: { kind: 'Pod', name: 'late-pod', namespace: 'shop', uid: 'uid-late' },
    reason: 'LateOne',
    message: 'seen by the cache, not yet written',
  });
  await eventually(async () => expect(await liveEventIds(s)).toHaveLength(s.sim.store.count('events')));
  const live = await liveEventIds(s);
  // Nothing written yet: the changes wait for a flush an hour away.
  expect(recordedIds(s)).toEqual([]);

  await s.service.close();
  expect(recordedIds(s).sort()).toEqual([...live].sort());
});

it('a closed service writes nothing into its data dir while its cluster goes on changing', async () => {
  const s = await recordingStack(20);
  await eventually(async () => expect(recordedIds(s).length).toBeGreaterThan(0));
  await s.service.close();
  await rm(s.dataDir, { recursive: true, force: true });

  // Were the watch or the recorder's timers still running, these would be written within 20 ms.
  for (let i = 0; i < 5; i++)
    s.sim.store.addEvent({
      involvedObject: { kind: 'Pod', name: `after-close-${i}`, namespace: 'shop', uid: `uid-after-${i}` },
      reason: 'AfterClose',
      message: 'sent once the service had closed',
    });
  expect(await reappears(s.dataDir, 500)).toBe(false);
});
