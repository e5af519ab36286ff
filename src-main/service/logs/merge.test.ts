import { describe, expect, it } from 'vitest';
import { mergeByTime, parseLogLine } from '../../../src-shared/logs/index';
import type { LogEvent } from './events';
import { LiveMerge, mergeFinished } from './merge';

const ev = (pod: string, ts: string | null, text: string): LogEvent => ({
  pod,
  container: 'c',
  entry: parseLogLine(ts ? `${ts} ${text}` : text, { timestamps: ts !== null }),
});

async function* source(batches: LogEvent[][], pulls?: { n: number }) {
  for (const b of batches) {
    if (pulls) pulls.n++;
    yield b;
  }
}

async function collect(it: AsyncIterable<LogEvent[]>): Promise<string[]> {
  const out: string[] = [];
  for await (const b of it) for (const e of b) out.push(`${e.pod}:${e.entry.raw}`);
  return out;
}

describe('mergeFinished', () => {
  it('orders like mergeByTime, keeping untimed lines with their head line', async () => {
    const a = [
      ev('a', '2026-01-01T00:00:01Z', 'a1'),
      ev('a', null, '  at frame'),
      ev('a', '2026-01-01T00:00:04Z', 'a4'),
    ];
    const b = [ev('b', '2026-01-01T00:00:02Z', 'b2'), ev('b', '2026-01-01T00:00:04Z', 'b4')];
    const merged = await collect(mergeFinished([source([a.slice(0, 2), a.slice(2)]), source([b])]));
    const expected = mergeByTime([
      { source: 'a', entries: a.map((e) => e.entry) },
      { source: 'b', entries: b.map((e) => e.entry) },
    ]);
    expect(merged).toEqual(expected.entries.map((e, i) => `${expected.sources[i]}:${e.raw}`));
    expect(merged).toEqual(['a:a1', 'a:  at frame', 'b:b2', 'a:a4', 'b:b4']);
  });

  it('reads each source only as far as the output has been consumed', async () => {
    const pulls = { n: 0 };
    const many = Array.from({ length: 50 }, (_, i) => [
      ev('a', `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`, `a${i}`),
    ]);
    const it = mergeFinished([source(many, pulls)]);
    await it.next();
    expect(pulls.n).toBeLessThanOrEqual(2);
    await it.return();
  });
});

describe('LiveMerge', () => {
  it('interleaves followed sources by time within the window', async () => {
    const live = new LiveMerge(30);
    live.add(source([[ev('a', '2026-01-01T00:00:03Z', 'a3')]]));
    live.add(source([[ev('b', '2026-01-01T00:00:01Z', 'b1'), ev('b', '2026-01-01T00:00:05Z', 'b5')]]));
    live.close();
    const out = await collect(live.run(new AbortController().signal));
    expect(out).toEqual(['b:b1', 'a:a3', 'b:b5']);
  });

  it('ends when aborted even if a source never ends', async () => {
    const live = new LiveMerge(10);
    live.add(
      (async function* () {
        yield [ev('a', '2026-01-01T00:00:01Z', 'a1')];
        await new Promise(() => {});
      })(),
    );
    const abort = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const b of live.run(abort.signal)) for (const e of b) seen.push(e.entry.raw);
    })();
    await new Promise((r) => setTimeout(r, 60));
    abort.abort();
    await run;
    expect(seen).toEqual(['a1']);
  });
});
