import { describe, expect, it } from 'vitest';
import { parseLogLine } from '../../../src-shared/logs/index';
import type { LogEvent } from './events';
import { LiveMerge, mergeFinished } from './merge';

const ev = (pod: string, ts: string | null, text: string): LogEvent => ({
  pod,
  container: 'c',
  entry: parseLogLine(ts ? `${ts} ${text}` : text, { timestamps: ts !== null }),
});
const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}Z`;

async function* source(batches: LogEvent[][], closed?: { done: boolean }) {
  try {
    for (const b of batches) yield b;
  } finally {
    if (closed) closed.done = true;
  }
}

describe('mergeFinished', () => {
  it('an untimed line stays right after its own timed line, whichever source is listed first', async () => {
    const b = [ev('b', at(40), 'b40')];
    const a = [ev('a', at(30), 'a30'), ev('a', null, 'a-cont-1'), ev('a', null, 'a-cont-2')];
    const out: string[] = [];
    for await (const batch of mergeFinished([source([b]), source([a])]))
      for (const e of batch) out.push(e.entry.raw);
    expect(out).toEqual(['a30', 'a-cont-1', 'a-cont-2', 'b40']);
  });

  it('hands out the merged lines in batches of at most a thousand, none empty', async () => {
    const many = Array.from({ length: 2_500 }, (_, i) =>
      ev(
        'a',
        `2026-01-01T00:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`,
        `a${i}`,
      ),
    );
    const sizes: number[] = [];
    const raws: string[] = [];
    for await (const batch of mergeFinished([source([many])])) {
      sizes.push(batch.length);
      for (const e of batch) raws.push(e.entry.raw);
    }
    expect(sizes).toEqual([1_000, 1_000, 500]);
    expect(raws).toEqual(many.map((e) => e.entry.raw));
  });

  it('closes every source when the reader stops early', async () => {
    const closedA = { done: false };
    const closedB = { done: false };
    const merged = mergeFinished([
      source([[ev('a', at(1), 'a1')], [ev('a', at(3), 'a3')]], closedA),
      source([[ev('b', at(2), 'b2')], [ev('b', at(4), 'b4')]], closedB),
    ]);
    await merged.next();
    await merged.return();
    await new Promise((r) => setTimeout(r, 10));
    expect(closedA.done && closedB.done).toBe(true);
  });
});

describe('LiveMerge', () => {
  it('does not end while more sources may come, only once closed and drained', async () => {
    const live = new LiveMerge(5);
    live.add(source([[ev('a', at(1), 'a1')]]));
    const seen: string[] = [];
    let ended = false;
    const run = (async () => {
      for await (const b of live.run(new AbortController().signal)) for (const e of b) seen.push(e.entry.raw);
      ended = true;
    })();
    await new Promise((r) => setTimeout(r, 60));
    expect(seen).toEqual(['a1']);
    expect(ended).toBe(false);
    live.add(source([[ev('b', at(2), 'b2')]]));
    live.close();
    await run;
    expect(seen).toEqual(['a1', 'b2']);
  });

  it('fails when a source fails', async () => {
    const live = new LiveMerge(5);
    live.add(
      (async function* () {
        yield [ev('a', at(1), 'a1')];
        throw new Error('the kubelet went away');
      })(),
    );
    live.close();
    const run = async () => {
      for await (const _ of live.run(new AbortController().signal)) {
        // reading
      }
    };
    await expect(run()).rejects.toThrow('the kubelet went away');
  });
});
