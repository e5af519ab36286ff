import { describe, expect, it } from 'vitest';
import { type SseEvent, SseParser } from './sse';

/** Feeds the chunks in order and returns every event they complete. */
function feed(p: SseParser, ...chunks: string[]): SseEvent[] {
  return chunks.flatMap((c) => p.push(c));
}

describe('SSE line ends', () => {
  it('an LF after a CR that ended the previous chunk ends no second line', () => {
    const p = new SseParser();
    expect(feed(p, 'data: a\r', '\ndata: b\n\n')).toEqual([
      { event: 'message', data: 'a\nb', lastEventId: '' },
    ]);
  });

  it('a chunk after one that ended in CR loses nothing when it does not start with LF', () => {
    const p = new SseParser();
    expect(feed(p, 'data: a\r', 'data: b\n', '\n')).toEqual([
      { event: 'message', data: 'a\nb', lastEventId: '' },
    ]);
  });

  it('an LF at the start of a chunk after one that ended in LF is a blank line', () => {
    const p = new SseParser();
    expect(feed(p, 'data: a\n', '\n')).toEqual([{ event: 'message', data: 'a', lastEventId: '' }]);
  });

  it('CRLF is one line end, and LF, CR and CRLF may be mixed in one chunk', () => {
    const p = new SseParser();
    expect(feed(p, 'data: a\r\ndata: b\r\n\r\n')).toEqual([
      { event: 'message', data: 'a\nb', lastEventId: '' },
    ]);
    expect(feed(p, 'data: c\ndata: d\r\r')).toEqual([{ event: 'message', data: 'c\nd', lastEventId: '' }]);
  });
});

describe('SSE fields', () => {
  it('without an id the last event id is empty, or the one the parser was given', () => {
    expect(feed(new SseParser(), 'data: x\n\n')).toEqual([{ event: 'message', data: 'x', lastEventId: '' }]);
    expect(new SseParser().lastEventId).toBe('');
    expect(new SseParser('41').lastEventId).toBe('41');
  });

  it('a line without a colon is a field with an empty value', () => {
    const p = new SseParser();
    expect(feed(p, 'data\ndata: x\n\n')).toEqual([{ event: 'message', data: '\nx', lastEventId: '' }]);
  });

  it('a line ending in a colon is a field with an empty value, not a comment', () => {
    const p = new SseParser();
    expect(feed(p, 'data:\n\n')).toEqual([{ event: 'message', data: '', lastEventId: '' }]);
  });

  it('exactly one space after the colon is dropped from the value', () => {
    const p = new SseParser();
    expect(feed(p, 'data:x\ndata:  y\n\n')).toEqual([{ event: 'message', data: 'x\n y', lastEventId: '' }]);
  });

  it('retry takes only a value of digits, and other fields are ignored', () => {
    const p = new SseParser();
    feed(p, 'other: 5\nretry: x5\nretry: 5x\n\n');
    expect(p.retryMs).toBeUndefined();
    feed(p, 'retry: 250\nretry: later\n\n');
    expect(p.retryMs).toBe(250);
  });

  it('an id holding a NUL character is ignored', () => {
    const p = new SseParser('1');
    expect(feed(p, 'id: 2\u00003\ndata: x\n\n')).toEqual([{ event: 'message', data: 'x', lastEventId: '1' }]);
  });

  it('an event name lasts for one event only, even one that had no data', () => {
    const p = new SseParser();
    expect(feed(p, 'event: named\n\ndata: a\n\nevent: other\ndata: b\n\ndata: c\n\n')).toEqual([
      { event: 'message', data: 'a', lastEventId: '' },
      { event: 'other', data: 'b', lastEventId: '' },
      { event: 'message', data: 'c', lastEventId: '' },
    ]);
  });
});
