import { describe, expect, it } from 'vitest';
import { createLiveMerger, type MergedLog, mergeByTime } from './merge';
import type { LogEntry } from './types';

function mk(raw: string, ts?: number): LogEntry {
  return { ts, tsText: undefined, level: 'INFO', message: raw, raw, format: 'plain', fields: undefined };
}

const show = (m: MergedLog): string[] => m.entries.map((e, i) => `${m.sources[i]}:${e.raw}`);

describe('merge order', () => {
  it("lines before a source's first timestamp come out before every timed line", () => {
    const m = mergeByTime([
      { source: 'a', entries: [mk('a1', 1), mk('a2', 2)] },
      { source: 'b', entries: [mk('b-banner'), mk('b0', 0)] },
      { source: 'c', entries: [mk('c-banner'), mk('c3', 3)] },
    ]);
    expect(show(m)).toEqual(['b:b-banner', 'c:c-banner', 'b:b0', 'a:a1', 'a:a2', 'c:c3']);
  });

  it('a source whose held lines were all released holds its next line for the full window again', () => {
    const m = createLiveMerger({ windowMs: 100 });
    m.push('a', mk('a1', 1), 0);
    expect(show(m.drain(100))).toEqual(['a:a1']);
    m.push('a', mk('a2', 2), 500);
    expect(m.nextDueAt()).toBe(600);
    expect(show(m.drain(599))).toEqual([]);
    expect(show(m.drain(600))).toEqual(['a:a2']);
  });
});

describe('live merge of long queues', () => {
  // Over 1024 lines released from one source while more are held: its queue is compacted.
  const N = 3000;

  it('after compaction each held line keeps its own arrival time', () => {
    const m = createLiveMerger({ windowMs: 0, maxBuffered: 10 * N });
    for (let i = 0; i < N; i++) m.push('a', mk(`a${i}`, i), i);
    const first = m.drain(1999).entries.map((e) => e.raw);
    expect(first).toEqual(Array.from({ length: 2000 }, (_, i) => `a${i}`));
    expect(m.buffered).toBe(N - 2000);
    expect(m.nextDueAt()).toBe(2000);
  });

  it('after compaction each held line keeps its own time against other sources', () => {
    const m = createLiveMerger({ windowMs: 0, maxBuffered: 10 * N });
    m.push('b', mk('b', 1700.5), 0);
    for (let i = 0; i < N; i++) m.push('a', mk(`a${i}`, i), 0);
    const out = show(m.flush());
    expect(out).toHaveLength(N + 1);
    expect(out.indexOf('b:b')).toBe(1701);
    expect(out[1700]).toBe('a:a1700');
    expect(out[1702]).toBe('a:a1701');
  });

  /**
   * Like scale.test.ts: nothing is asserted about time, the test timeout is what catches a queue
   * that is copied or shifted per released line (quadratic in the backlog).
   */
  it('a backlog of 200k lines from one source is released in order without quadratic work', () => {
    const m = createLiveMerger({ windowMs: 0, maxBuffered: 1_000_000 });
    const n = 200_000;
    for (let i = 0; i < n; i++) m.push('a', mk('x', i), 0);
    const out = m.flush();
    expect(out.entries.length).toBe(n);
    expect(out.entries.every((e, i) => e.ts === i)).toBe(true);
  });
});
