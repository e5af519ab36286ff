import { describe, expect, it } from 'vitest';
import { SseParser } from './sse';

describe('SseParser', () => {
  it('yields events however the text is cut, keeping the last id and skipping comments', () => {
    const text =
      'retry: 3000\n\n: heartbeat\n\nid: 7\ndata: {"a":1}\n\nevent: synced\nid: 9\ndata: {"b":2}\n\ndata: x\ndata: y\n\n';
    for (const size of [1, 2, 3, 7, text.length]) {
      const p = new SseParser();
      const events = [];
      for (let i = 0; i < text.length; i += size) events.push(...p.push(text.slice(i, i + size)));
      expect(events).toEqual([
        { event: 'message', data: '{"a":1}', lastEventId: '7' },
        { event: 'synced', data: '{"b":2}', lastEventId: '9' },
        { event: 'message', data: 'x\ny', lastEventId: '9' },
      ]);
      expect(p.retryMs).toBe(3000);
    }
  });

  it('accepts CRLF and CR line ends, a CRLF split between chunks included', () => {
    const p = new SseParser('3');
    expect(p.push('data: one\r')).toEqual([]);
    expect(p.push('\n\r\ndata: two\r\r')).toEqual([
      { event: 'message', data: 'one', lastEventId: '3' },
      { event: 'message', data: 'two', lastEventId: '3' },
    ]);
  });

  it('holds back an event until its blank line arrives', () => {
    const p = new SseParser();
    expect(p.push('id: 1\ndata: half')).toEqual([]);
    expect(p.lastEventId).toBe('1');
    expect(p.push('\n\n')).toEqual([{ event: 'message', data: 'half', lastEventId: '1' }]);
  });
});
