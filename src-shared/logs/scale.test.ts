import { describe, expect, it } from 'vitest';
import { applyLogFilter, compileLogFilter } from './filter';
import { mergeByTime } from './merge';
import { parseLogLine } from './parse';
import type { LogEntry } from './types';

/**
 * Sanity check only: 200k lines through parse, filter and merge must simply finish. Nothing is
 * asserted about time — the test timeout is what catches accidental quadratic behaviour.
 */
describe('scale sanity', () => {
  it('parses, filters and merges 200k mixed lines', () => {
    const N = 200_000;
    const base = Date.UTC(2026, 10, 22, 10);
    const entries: LogEntry[] = new Array(N);
    for (let i = 0; i < N; i++) {
      const ts = new Date(base + i).toISOString().replace('Z', '123456Z');
      let body: string;
      switch (i % 5) {
        case 0:
          body = `{"level":"info","ts":${(base + i) / 1000},"msg":"request ${i}","status":200}`;
          break;
        case 1:
          body = `level=warn msg="slow query ${i}" took=12ms`;
          break;
        case 2:
          body = `E1122 10:00:00.000000   1 ctrl.go:12] reconcile ${i} failed`;
          break;
        case 3:
          body = `2026-11-22 10:00:00.123 DEBUG [main] c.f.App - tick ${i}`;
          break;
        default:
          body = `10.0.0.1 - - [22/Nov/2026:10:00:00 +0000] "GET /item/${i} HTTP/1.1" 200 12`;
      }
      entries[i] = parseLogLine(`${ts} ${body}`, { timestamps: true });
    }
    expect(entries[N - 1]!.ts).toBe(base + N - 1);

    const f = compileLogFilter({
      levels: { ERROR: true, WARN: true },
      search: { pattern: '\\b\\d*77\\b', regex: true, caseSensitive: false },
      context: 3,
    });
    if (!f.ok) throw new Error(f.error);
    const r = applyLogFilter(entries, f.filter);
    // Visible: ERROR, WARN and UNKNOWN (access log) lines = 3 of every 5.
    expect(r.matchIndices.length).toBeGreaterThan(0);
    expect(r.indices.length).toBeLessThanOrEqual((N * 3) / 5);

    const half = N / 2;
    const merged = mergeByTime([
      { source: 'a', entries: entries.slice(0, half) },
      { source: 'b', entries: entries.slice(half) },
    ]);
    expect(merged.entries.length).toBe(N);
  });
});
