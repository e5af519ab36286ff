import { describe, expect, it } from 'vitest';
import { createLiveMerger, type MergedLog, mergeByTime } from './merge';
import type { LogEntry } from './types';

function mk(raw: string, ts?: number): LogEntry {
  return { ts, tsText: undefined, level: 'INFO', message: raw, raw, format: 'plain', fields: undefined };
}

const show = (m: MergedLog): string[] => m.entries.map((e, i) => `${m.sources[i]}:${e.raw}`);

describe('mergeByTime', () => {
  it('interleaves by timestamp and tags the source', () => {
    const m = mergeByTime([
      { source: 'a', entries: [mk('a1', 1), mk('a3', 3), mk('a5', 5)] },
      { source: 'b', entries: [mk('b2', 2), mk('b4', 4)] },
      { source: 'c', entries: [] },
      { source: 'd', entries: [mk('d0', 0), mk('d9', 9)] },
    ]);
    expect(show(m)).toEqual(['d:d0', 'a:a1', 'b:b2', 'a:a3', 'b:b4', 'a:a5', 'd:d9']);
  });

  it('is stable: ties go to the earlier source, each source keeps its order', () => {
    const m = mergeByTime([
      { source: 'a', entries: [mk('a1', 5), mk('a2', 5)] },
      { source: 'b', entries: [mk('b1', 5), mk('b2', 5)] },
    ]);
    expect(show(m)).toEqual(['a:a1', 'a:a2', 'b:b1', 'b:b2']);
    const backwards = mergeByTime([{ source: 'a', entries: [mk('x', 9), mk('y', 1)] }]);
    expect(show(backwards)).toEqual(['a:x', 'a:y']);
  });

  it('keeps untimed continuation lines with their head line', () => {
    const m = mergeByTime([
      { source: 'a', entries: [mk('pre'), mk('a1', 10), mk('  at x'), mk('  at y'), mk('a2', 30)] },
      { source: 'b', entries: [mk('b1', 20), mk('b2', 25)] },
    ]);
    expect(show(m)).toEqual(['a:pre', 'a:a1', 'a:  at x', 'a:  at y', 'b:b1', 'b:b2', 'a:a2']);
  });

  it('matches a stable sort on random input', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const sources = Array.from({ length: 9 }, (_, s) => {
      let t = 0;
      const entries = Array.from({ length: 200 }, (_, i) => {
        t += Math.floor(rand() * 5);
        return mk(`${s}-${i}`, t);
      });
      return { source: `pod-${s}`, entries };
    });
    const expected = sources
      .flatMap((src, s) => src.entries.map((e, i) => ({ e, s, i, src: src.source })))
      .sort((x, y) => x.e.ts! - y.e.ts! || x.s - y.s || x.i - y.i)
      .map((x) => `${x.src}:${x.e.raw}`);
    expect(show(mergeByTime(sources))).toEqual(expected);
  });
});

describe('createLiveMerger', () => {
  it('holds lines for the window and releases them in time order', () => {
    const m = createLiveMerger({ windowMs: 100 });
    m.push('a', mk('a2', 2), 1000);
    m.push('b', mk('b1', 1), 1050);
    expect(m.drain(1099).entries).toEqual([]);
    expect(m.nextDueAt()).toBe(1150); // b1 (smallest ts) arrived at 1050
    expect(show(m.drain(1150))).toEqual(['b:b1', 'a:a2']);
    expect(m.buffered).toBe(0);
    expect(m.nextDueAt()).toBeUndefined();
  });

  it('a not-yet-due earlier line holds back later ones', () => {
    const m = createLiveMerger({ windowMs: 100 });
    m.push('a', mk('a5', 5), 0);
    m.push('b', mk('b3', 3), 90);
    expect(show(m.drain(120))).toEqual([]);
    expect(show(m.drain(190))).toEqual(['b:b3', 'a:a5']);
  });

  it('emits late lines late rather than dropping them, and flushes everything', () => {
    const m = createLiveMerger({ windowMs: 10 });
    m.push('a', mk('a5', 5), 0);
    expect(show(m.drain(20))).toEqual(['a:a5']);
    m.push('b', mk('b1', 1), 30);
    m.push('b', mk('b-cont'), 30);
    m.push('a', mk('a6', 6), 31);
    expect(show(m.flush())).toEqual(['b:b1', 'b:b-cont', 'a:a6']);
  });

  it('releases early when over maxBuffered', () => {
    const m = createLiveMerger({ windowMs: 1000, maxBuffered: 3 });
    for (let i = 0; i < 5; i++) m.push('a', mk(`a${i}`, i), 0);
    expect(show(m.drain(1))).toEqual(['a:a0', 'a:a1']);
    expect(m.buffered).toBe(3);
  });

  it('equals mergeByTime when everything arrives within one window', () => {
    const a = [mk('a1', 1), mk('a4', 4), mk('a-c'), mk('a9', 9)];
    const b = [mk('b2', 2), mk('b4', 4), mk('b8', 8)];
    const live = createLiveMerger({ windowMs: 50 });
    for (let i = 0; i < 4; i++) {
      if (a[i]) live.push('a', a[i]!, i);
      if (b[i]) live.push('b', b[i]!, i);
    }
    expect(show(live.drain(100))).toEqual(
      show(
        mergeByTime([
          { source: 'a', entries: a },
          { source: 'b', entries: b },
        ]),
      ),
    );
  });

  it('compacts long queues without losing order', () => {
    const m = createLiveMerger({ windowMs: 0 });
    const got: string[] = [];
    for (let i = 0; i < 5000; i++) {
      m.push('a', mk(`${i}`, i), i);
      if (i % 3000 === 2999) got.push(...m.drain(i).entries.map((e) => e.raw));
    }
    got.push(...m.flush().entries.map((e) => e.raw));
    expect(got).toEqual(Array.from({ length: 5000 }, (_, i) => `${i}`));
  });
});
