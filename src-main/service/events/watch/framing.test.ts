/**
 * The two framings of the event watch, called directly: SSE's id and event names, NDJSON's lines.
 */
import { describe, expect, it } from 'vitest';
import type { EventWatchRecord } from '../../../../src-shared/contract/event-watch-operations';
import { SseParser } from '../../../../src-shared/streams/sse';
import { framingFor } from './framing';

const frame = (mediaType: string, r: EventWatchRecord, retryMs = 3_000) =>
  framingFor(mediaType, retryMs).record(r, JSON.stringify(r));

const sse = (r: EventWatchRecord) => frame('text/event-stream', r);
const ndjson = (r: EventWatchRecord) => frame('application/x-ndjson', r);

const change = (id?: string, message = 'Back-off restarting failed container') =>
  ({
    type: 'MODIFIED',
    ...(id === undefined ? {} : { id }),
    event: { eventId: 'e-1', message },
  }) as unknown as EventWatchRecord;

describe('SSE framing', () => {
  it('is text/event-stream in UTF-8', () => {
    expect(framingFor('text/event-stream', 1).contentType).toBe('text/event-stream; charset=utf-8');
  });

  it('a change with an id is an id line, then one data line, then a blank line, with no event name', () => {
    const r = change('1700000000000042');
    expect(sse(r)).toBe(`id: 1700000000000042\ndata: ${JSON.stringify(r)}\n\n`);
  });

  it('a record without an id (a change of the replayed state) has no id line', () => {
    const r = change();
    expect(sse(r)).toBe(`data: ${JSON.stringify(r)}\n\n`);
  });

  it('a control record names itself with an event line before its id and data', () => {
    const synced: EventWatchRecord = { type: 'SYNCED', id: '77' };
    expect(sse(synced)).toBe(`event: synced\nid: 77\ndata: ${JSON.stringify(synced)}\n\n`);
    const bookmark: EventWatchRecord = { type: 'BOOKMARK', id: '78' };
    expect(sse(bookmark)).toBe(`event: bookmark\nid: 78\ndata: ${JSON.stringify(bookmark)}\n\n`);
    const reset: EventWatchRecord = { type: 'RESET', reason: 'too old' };
    expect(sse(reset)).toBe(`event: reset\ndata: ${JSON.stringify(reset)}\n\n`);
    const status: EventWatchRecord = { type: 'STATUS', stale: false };
    expect(sse(status)).toBe(`event: status\ndata: ${JSON.stringify(status)}\n\n`);
  });

  it('a message of several lines stays one data line, and a client reads back the same record', () => {
    const r = change('5', 'first line\nsecond line\r\nthird\rfourth');
    const text = sse(r);
    expect(text.split('\n').filter((l) => l.startsWith('data:'))).toHaveLength(1);
    const parsed = new SseParser().push(text);
    expect(parsed).toHaveLength(1);
    expect(parsed[0]!.event).toBe('message');
    expect(parsed[0]!.lastEventId).toBe('5');
    expect(JSON.parse(parsed[0]!.data)).toEqual(r);
  });

  it('records one after another are read back as separate events, each with its own id', () => {
    const a = change('10', 'a');
    const b: EventWatchRecord = { type: 'SYNCED', id: '11' };
    const events = new SseParser().push(sse(a) + sse(b));
    expect(events.map((e) => [e.event, e.lastEventId, JSON.parse(e.data)])).toEqual([
      ['message', '10', a],
      ['synced', '11', b],
    ]);
  });

  it('opens with the retry delay it was given, and a heartbeat is a comment a client ignores', () => {
    const f = framingFor('text/event-stream', 4_321);
    expect(f.opening()).toBe('retry: 4321\n\n');
    expect(f.heartbeat()).toBe(': heartbeat\n\n');
    const parser = new SseParser();
    expect(parser.push(f.opening() + f.heartbeat())).toEqual([]);
    expect(parser.retryMs).toBe(4_321);
  });
});

describe('NDJSON framing', () => {
  it('is application/x-ndjson in UTF-8, for any media type other than SSE', () => {
    expect(framingFor('application/x-ndjson', 1).contentType).toBe('application/x-ndjson; charset=utf-8');
    expect(framingFor('application/json', 1).contentType).toBe('application/x-ndjson; charset=utf-8');
  });

  it('a record is its JSON on one line, with no id or event name added', () => {
    const r = change('9', 'two\nlines');
    expect(ndjson(r)).toBe(`${JSON.stringify(r)}\n`);
    expect(ndjson(r).split('\n')).toEqual([JSON.stringify(r), '']);
    const synced: EventWatchRecord = { type: 'SYNCED', id: '12' };
    expect(ndjson(synced)).toBe('{"type":"SYNCED","id":"12"}\n');
  });

  it('a heartbeat is a HEARTBEAT line, and nothing is sent before the first record', () => {
    const f = framingFor('application/x-ndjson', 4_321);
    expect(f.heartbeat()).toBe('{"type":"HEARTBEAT"}\n');
    expect(JSON.parse(f.heartbeat())).toEqual({ type: 'HEARTBEAT' });
    expect(f.opening()).toBe('');
  });
});
