/**
 * watchStream, pulled chunk by chunk over a real feed and collection: a client that falls behind,
 * one that goes away, and resume points that cannot be resumed from.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EventWatchRecord } from '../../../../src-shared/contract/event-watch-operations';
import { EventFeed } from '../feed';
import { changeIds, endAll, event, problemOf, start } from './stream.test-support';

afterEach(endAll);

describe('watchStream: a client that falls behind', () => {
  it('may fall behind by exactly maxBacklog changes and still gets every one of them', async () => {
    const w = start({ sendInitial: false, options: { maxBacklog: 4 } });
    await w.until('SYNCED');
    for (let i = 0; i < 4; i++) w.add(event('Watched'));
    expect(w.stop.signal.aborted).toBe(false);
    const got = await w.next();
    expect(changeIds(got!)).toEqual([1, 2, 3, 4].map((i) => String(w.start + i)));
  });

  it('one change more than maxBacklog ends it with client_too_slow naming the last change it was sent', async () => {
    const w = start({ sendInitial: false, options: { maxBacklog: 4 } });
    await w.until('SYNCED');
    w.add(event('Other'));
    w.add(event('Watched'));
    w.add(event('Other'));
    const sent = changeIds((await w.next())!);
    expect(sent).toEqual([String(w.start + 2)]);
    for (let i = 0; i < 5; i++) w.add(event('Watched'));
    expect(w.stop.signal.aborted).toBe(true);
    const last = await w.next();
    expect(last!.map((r) => r.type)).toEqual(['ERROR']);
    expect(problemOf(last!).code).toBe('client_too_slow');
    expect(problemOf(last!).lastEventId).toBe(sent[0]);
    expect(await w.next()).toBeUndefined();
    expect(w.ends()).toBe(1);
    expect(w.feed.listenerCount).toBe(0);
  });

  it('falling behind during a resume sends no SYNCED, and the resume point stays where the client came from', async () => {
    const w = start({ lastEventId: 'head', options: { maxBacklog: 2 } });
    const from = String(w.feed.head);
    expect(await w.next()).toEqual([]); // the opening (none in NDJSON)
    for (let i = 0; i < 3; i++) w.add(event('Watched'));
    const rest: EventWatchRecord[] = [];
    for (let got = await w.next(); got; got = await w.next()) rest.push(...got);
    expect(rest.map((r) => r.type)).toEqual(['ERROR']);
    expect(problemOf(rest).code).toBe('client_too_slow');
    expect(problemOf(rest).lastEventId).toBe(from);
  });

  it('falling behind while a new watch sends the state names no resume point: there is none yet', async () => {
    const w = start({ state: [event('Watched'), event('Watched')], options: { maxBacklog: 1 } });
    await w.next();
    for (let i = 0; i < 2; i++) w.add(event('Watched'));
    const rest: EventWatchRecord[] = [];
    for (let got = await w.next(); got; got = await w.next()) rest.push(...got);
    expect(rest.map((r) => r.type)).toEqual(['ERROR']);
    expect(problemOf(rest).code).toBe('client_too_slow');
    expect('lastEventId' in problemOf(rest)).toBe(false);
  });
});

describe('watchStream: the client goes away', () => {
  it('stops sending the state in the middle of it', async () => {
    const state = Array.from({ length: 1_200 }, () => event('Watched'));
    const w = start({ state });
    await w.next();
    expect((await w.next())!.length).toBe(500);
    w.client.abort();
    const rest: EventWatchRecord[] = [];
    for (let got = await w.next(); got; got = await w.next()) rest.push(...got);
    expect(rest.filter((r) => r.type === 'ADDED')).toEqual([]);
    expect(w.ends()).toBe(1);
  });

  it('stops sending the missed changes of a resume in the middle of them', async () => {
    const w = start({ lastEventId: 'head' });
    // Changes the client missed: the stream reads them when it is first pulled.
    for (let i = 0; i < 1_200; i++) w.add(event('Watched'));
    await w.next();
    expect(changeIds((await w.next())!)).toHaveLength(500);
    w.client.abort();
    const rest: EventWatchRecord[] = [];
    for (let got = await w.next(); got; got = await w.next()) rest.push(...got);
    expect(changeIds(rest)).toEqual([]);
  });

  it('sends nothing more once it is gone, not even changes already waiting', async () => {
    const w = start({ sendInitial: false });
    await w.until('SYNCED');
    w.add(event('Watched'));
    w.client.abort();
    expect(await w.next()).toBeUndefined();
    expect(w.ends()).toBe(1);
    expect(w.feed.listenerCount).toBe(0);
  });
});

describe('watchStream: a resume point that cannot be resumed from', () => {
  const resetOf = (records: EventWatchRecord[]) =>
    (records.find((r) => r.type === 'RESET') as { reason: string } | undefined)?.reason;

  it('an id the feed no longer holds gets RESET naming it, then the state and SYNCED', async () => {
    const w = start({ lastEventId: 5, state: [event('Watched')] });
    const got = await w.until('SYNCED');
    expect(got.map((r) => r.type)).toEqual(['RESET', 'ADDED', 'SYNCED']);
    expect(resetOf(got)).toBe(
      'Last-Event-ID 5 cannot be resumed from (older than the changes kept, or from another run); the current state follows',
    );
  });

  it("an id of another replica's feed, made on the same clock reading, gets RESET, never a resume", async () => {
    // stream.test-support makes its feed with the clock at 1 ms; another replica's feed does too.
    for (let i = 0; i < 20; i++) {
      const other = new EventFeed({ capacity: 4, now: () => 1 });
      const w = start({ lastEventId: other.head, state: [event('Watched')] });
      const got = await w.until('SYNCED');
      expect(got.map((r) => r.type)).toEqual(['RESET', 'ADDED', 'SYNCED']);
    }
  });

  it('a value that is no id at all gets the same RESET, the value quoted and cut short', async () => {
    for (const [id, shown] of [
      ['abc', '"abc"'],
      ['12a', '"12a"'],
      ['-3', '"-3"'],
      ['1'.repeat(21), `"${'1'.repeat(21)}"`],
      ['x'.repeat(64), `"${'x'.repeat(64)}"`],
      ['y'.repeat(65), `"${'y'.repeat(64)}…"`],
    ]) {
      const w = start({ lastEventId: id, state: [event('Watched')] });
      const got = await w.until('SYNCED');
      expect(
        got.map((r) => r.type),
        id,
      ).toEqual(['RESET', 'ADDED', 'SYNCED']);
      expect(resetOf(got)).toBe(
        `Last-Event-ID ${shown} cannot be resumed from (not an id this watch sends); the current state follows`,
      );
    }
  });

  it('falling behind after such a value names no resume point', async () => {
    const w = start({
      lastEventId: 'abc',
      state: [event('Watched'), event('Watched')],
      options: { maxBacklog: 1 },
    });
    await w.next();
    for (let i = 0; i < 2; i++) w.add(event('Watched'));
    const rest: EventWatchRecord[] = [];
    for (let got = await w.next(); got; got = await w.next()) rest.push(...got);
    expect(problemOf(rest).code).toBe('client_too_slow');
    expect('lastEventId' in problemOf(rest)).toBe(false);
  });
});
