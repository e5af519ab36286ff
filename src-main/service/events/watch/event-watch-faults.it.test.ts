/**
 * The event watch under faults, over real HTTP: a client that stops reading (ended, or cut off
 * after its grace) and a cluster that goes away and comes back (STATUS stale, then only differences).
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventWatchRecord, NDJSON_WATCH } from '../../../../src-shared/contract/event-watch-operations';
import type { Problem } from '../../../../src-shared/contract/problem';
import { checkRecordText } from '../../test-support/contract-check.test-support';
import { eventually } from '../../test-support/eventually.test-support';
import { startProxiedStack } from '../../test-support/faults.test-support';
import { type Stack, startStack } from '../../test-support/harness.test-support';
import { addEvent, changeOf, openWatch } from './event-watch.test-support';

const BACKLOG = 5;

/** A raw HTTP client that asks for the watch as NDJSON and then reads nothing until told to. */
function stalledWatch(stack: Stack): { socket: Socket; received: () => string; closed: Promise<void> } {
  const { hostname, port } = new URL(stack.url);
  const socket = connect(Number(port), hostname);
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(
    `GET ${stack.cluster}/kubernetes-events?watch=true HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
      `Authorization: ${stack.session.headers.authorization}\r\nAccept: application/x-ndjson\r\n\r\n`,
  );
  // Reads only the response head, then stops: the kernel buffers fill and the server must wait.
  socket.once('data', () => socket.pause());
  return { socket, received: () => text, closed };
}

const lastRecord = (text: string): EventWatchRecord => {
  const lines = text.split('\r\n').join('\n').trimEnd().split('\n');
  // Chunked transfer coding wraps the NDJSON: the last JSON line before the terminating chunk.
  const json = lines.filter((l) => l.startsWith('{'));
  return checkRecordText<EventWatchRecord>('watchEvents', NDJSON_WATCH, json.at(-1)!);
};

describe('event watch: a client that falls behind', () => {
  let stack: Stack;
  // Enough events that their replay overflows every socket buffer between service and client.
  beforeAll(async () => {
    stack = await startStack({
      simulator: { scale: { events: 30_000 } },
      service: { eventWatch: { maxBacklog: BACKLOG } },
    });
    // The event cache's first list of 30,000 events is paid here, not inside a test's wait for
    // its watch to subscribe: a list answered means the cache has synced. On a busy machine the
    // first answers may be 503 cluster_syncing (the list still arriving): asked again until 200.
    let status = 0;
    for (const deadline = Date.now() + 110_000; status !== 200 && Date.now() < deadline; ) {
      status = (await stack.get(`${stack.cluster}/kubernetes-events?limit=1`)).status;
      if (status === 503) await new Promise((r) => setTimeout(r, 500));
      else expect(status).toBe(200);
    }
    expect(status).toBe(200);
  }, 120_000);
  afterAll(async () => stack?.close());
  const feed = () => stack.service.registry.allClusters()[0]!.eventFeed;
  const letGo = () =>
    eventually(async () => {
      expect(feed().listenerCount).toBe(0);
      expect(stack.service.openEventWatches()).toBe(0);
    }, 15_000);

  it('is ended with an ERROR client_too_slow once it is more than the backlog behind', async () => {
    const client = stalledWatch(stack);
    await eventually(async () => expect(feed().listenerCount).toBe(1), 45_000);
    const head = feed().head;
    for (let i = 0; i < BACKLOG * 3; i++) addEvent(stack, { reason: 'SlowClient' });
    await eventually(async () => expect(feed().head).toBeGreaterThanOrEqual(head + BACKLOG * 3));
    // It reads again, within the grace a stalled client gets, and finds why it was ended.
    client.socket.resume();
    await client.closed;
    const last = lastRecord(client.received());
    expect(last.type).toBe('ERROR');
    expect((last as { problem: Problem }).problem.code).toBe('client_too_slow');
    expect(client.received()).not.toContain('"SYNCED"');
    await letGo();
  }, 60_000);

  it('a client that never reads again is cut off after the grace: the server lets go of it', async () => {
    const client = stalledWatch(stack);
    await eventually(async () => expect(feed().listenerCount).toBe(1), 15_000);
    for (let i = 0; i < BACKLOG * 3; i++) addEvent(stack, { reason: 'StuckClient' });
    await letGo();
    // What the kernel still held for it arrives, then the end: no ERROR made it out, no SYNCED.
    client.socket.resume();
    await client.closed;
    expect(client.received()).not.toContain('"SYNCED"');
  }, 60_000);
});

describe('event watch: the cluster goes away and comes back', () => {
  it('stays open, says so with STATUS stale, and after the relist sends only the differences', async () => {
    const { stack, proxy, close } = await startProxiedStack({
      service: { timeoutMs: 2_000, watch: { baseMs: 100, capMs: 500, stableAfterMs: 1_000 } },
    });
    try {
      const keep = addEvent(stack, { reason: 'Outage' });
      const gone = addEvent(stack, { reason: 'Outage' });
      const c = await openWatch(stack, { query: 'reason=Outage' });
      await c.until((r) => r.type === 'SYNCED');
      const synced = c.records.length;
      await proxy.down();
      const stale = await c.until((r) => r.type === 'STATUS' && r.stale, 10_000);
      expect(stale.event).toBe('status');
      expect((stale.record as { staleSince?: string }).staleSince).toMatch(/Z$/);
      // Meanwhile the cluster changes: one event goes, one comes, one stays as it was.
      const goneRaw = stack.sim.store.list('events').find((e) => e.metadata.uid === gone)!;
      stack.sim.store.remove('events', goneRaw.metadata.namespace!, goneRaw.metadata.name);
      const fresh = addEvent(stack, { reason: 'Outage' });
      await proxy.up();
      await c.until((r) => r.type === 'STATUS' && !r.stale, 15_000, synced);
      await c.until((r) => changeOf(r)?.event.eventId === fresh, 5_000, synced);
      await c.until((r) => changeOf(r)?.event.eventId === gone, 5_000, synced);
      const after = c.records
        .slice(synced)
        .map((r) => changeOf(r.record))
        .filter((x) => x !== undefined);
      expect(after.map((x) => [x.type, x.event.eventId]).sort()).toEqual(
        [
          ['ADDED', fresh],
          ['DELETED', gone],
        ].sort(),
      );
      expect(after.some((x) => x.event.eventId === keep)).toBe(false);
      c.close();
    } finally {
      await close();
    }
  }, 60_000);
});
