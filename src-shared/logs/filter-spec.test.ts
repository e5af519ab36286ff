import { describe, expect, it } from 'vitest';
import {
  applyLogFilter,
  compileLogFilter,
  createLogFilterCursor,
  type LogFilterSpec,
  MAX_CONTEXT,
  toDisplayRows,
} from './filter';
import { compile, mk } from './filter.test-support';
import { MAX_PATTERN_LENGTH } from './search';
import type { LogLevel } from './types';

function refusal(spec: LogFilterSpec): string {
  const r = compileLogFilter(spec);
  expect(r.ok, JSON.stringify(spec)).toBe(false);
  return r.ok ? '' : r.error;
}

describe('filter spec checks', () => {
  it('context may be at most MAX_CONTEXT, and the refusal names the limit', () => {
    expect(compile({ context: MAX_CONTEXT }).context).toBe(MAX_CONTEXT);
    expect(refusal({ context: MAX_CONTEXT + 1 })).toContain(String(MAX_CONTEXT));
  });

  it('a search pattern over the length limit is refused naming the limit', () => {
    const error = refusal({
      search: { pattern: 'x'.repeat(MAX_PATTERN_LENGTH + 1), regex: false, caseSensitive: true },
    });
    expect(error).toContain(String(MAX_PATTERN_LENGTH));
  });

  it('a time range with a bound that is no number, or that starts after it ends, is refused with a message', () => {
    const specs: LogFilterSpec[] = [
      { from: Number.NaN },
      { until: Number.NaN },
      { from: 0, until: Number.NaN },
      { from: 10, until: 5 },
    ];
    for (const spec of specs) {
      expect(compileLogFilter(spec), JSON.stringify(spec)).toEqual({
        ok: false,
        error: expect.stringMatching(/\w/),
      });
    }
  });

  it('each real level is shown only when set to true', () => {
    const levels: LogLevel[] = ['ERROR', 'WARN', 'INFO', 'DEBUG', 'TRACE'];
    const entries = [...levels, ...levels].reverse().map((l) => mk(l.toLowerCase(), l));
    for (const level of levels) {
      const f = compile({ levels: { [level]: true, UNKNOWN: false } });
      const shown = Array.from(applyLogFilter(entries, f).indices, (i) => entries[i]!.level);
      expect(shown, level).toEqual([level, level]);
    }
  });
});

describe('filter cursor', () => {
  it("hands the caller's own handles to the sink, with the batch filter's lines and separators", () => {
    const entries = [
      mk('a'),
      mk('hit one', 'ERROR'),
      mk('b'),
      mk('c', 'DEBUG'),
      mk('d'),
      mk('e'),
      mk('hit two', 'WARN'),
      mk('f'),
    ];
    const f = compile({
      levels: { ERROR: true, WARN: true, INFO: true },
      search: { pattern: 'hit', regex: false, caseSensitive: false },
      context: 1,
    });
    const got: string[] = [];
    const cursor = createLogFilterCursor<string>(f, {
      line: (item, match) => got.push(`${match ? 'M' : 'C'}:${item}`),
      separator: () => got.push('--'),
    });
    entries.forEach((e, i) => {
      cursor.push(e, `pod-${i}`);
    });
    expect(got).toEqual(['C:pod-0', 'M:pod-1', 'C:pod-2', '--', 'C:pod-5', 'M:pod-6', 'C:pod-7']);

    const batch = applyLogFilter(entries, f);
    expect(Array.from(toDisplayRows(batch), (i) => (i < 0 ? '--' : `pod-${i}`))).toEqual(
      got.map((g) => g.replace(/^[MC]:/, '')),
    );
  });
});
