import { describe, expect, it } from 'vitest';
import type { LogRecord } from '../../../src-shared/contract/log-models';
import {
  applyLogFilter,
  compileLogFilter,
  parseLogLine,
  toDisplayRows,
} from '../../../src-shared/logs/index';
import { LogBuffer } from './log-buffer';
import type { ViewSpec } from './model';

const BASE = Date.UTC(2026, 10, 22, 10);
const BODIES = [
  (i: number) => `{"level":"info","msg":"request ${i}"}`,
  (i: number) => `level=warn msg="slow ${i}"`,
  (i: number) => `[ERROR] failed ${i}`,
  (i: number) => `  at frame ${i}`,
  (i: number) => `DEBUG: tick ${i}`,
];

function record(i: number, pod = 'p1'): LogRecord {
  const raw = BODIES[i % BODIES.length]!(i);
  const e = parseLogLine(raw);
  return {
    type: 'line',
    pod,
    container: 'c',
    time: BASE + i * 10,
    level: e.level,
    format: e.format,
    message: e.message,
    raw,
  };
}

const ndjson = (records: LogRecord[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');

function filled(n: number): LogBuffer {
  const b = new LogBuffer();
  b.ingest(ndjson(Array.from({ length: n }, (_, i) => record(i))));
  return b;
}

const SPECS: ViewSpec[] = [
  { context: 0 },
  { context: 0, levels: { ERROR: true, WARN: true } },
  { context: 0, levels: { ERROR: true, UNKNOWN: false } },
  { context: 2, search: { pattern: '7\\b', regex: true, caseSensitive: false } },
  {
    context: 1,
    search: { pattern: 'FAILED', regex: false, caseSensitive: false },
    from: BASE + 500,
    until: BASE + 5_000,
  },
];

describe('LogBuffer', () => {
  it('reassembles lines split across chunks', () => {
    const text = ndjson([record(0), record(1), record(2)]);
    const b = new LogBuffer();
    b.ingest(text.slice(0, 17));
    b.ingest(text.slice(17, 150));
    expect(b.ingest(text.slice(150)).total).toBe(3);
    expect(b.rowsAt(0, 3).map((r) => r.text)).toEqual([0, 1, 2].map((i) => BODIES[i]!(i)));
  });

  it.each(SPECS.map((s, i) => [i, s] as const))(
    'view %i equals the shared batch filter, built at once or line by line',
    (_i, spec) => {
      const n = 500;
      const records = Array.from({ length: n }, (_, i) => record(i));
      const entries = records.map((r) => {
        const e = parseLogLine((r as { raw: string }).raw);
        return { ...e, ts: (r as { time: number }).time };
      });
      const compiled = compileLogFilter({ ...spec, ...(spec.search ? { search: spec.search } : {}) });
      if (!compiled.ok) throw new Error(compiled.error);
      const expected = toDisplayRows(applyLogFilter(entries, compiled.filter));

      const atOnce = filled(n);
      const s1 = atOnce.setView(spec);
      const lineByLine = new LogBuffer();
      lineByLine.setView(spec);
      for (const r of records) lineByLine.ingest(ndjson([r]));
      for (const b of [atOnce, lineByLine]) {
        const rows = b.rowsAt(0, n * 2);
        expect(
          rows.map((r) => (r.kind === 'separator' ? -1 : entries.findIndex((e) => e.raw === r.text))),
        ).toEqual(Array.from(expected));
      }
      const matchCount = spec.search ? applyLogFilter(entries, compiled.filter).matchIndices.length : 0;
      expect(s1.matches).toBe(matchCount);
      expect(lineByLine.stats()).toEqual(s1);
    },
  );

  it('steps through matches in both directions', () => {
    const b = filled(100);
    const s = b.setView({ context: 1, search: { pattern: 'failed', regex: false, caseSensitive: true } });
    expect(s.matches).toBe(20);
    const first = b.matchRow(0);
    const second = b.matchRow(1);
    expect(first).toBe(1); // one row of context before it
    expect(b.rowsAt(first, 1)[0]).toMatchObject({ match: true, level: 'ERROR' });
    expect(b.rowsAt(first + 1, 1)[0]).toMatchObject({ match: false });
    expect(b.matchNear(first, 1)).toBe(0);
    expect(b.matchNear(first + 1, 1)).toBe(1);
    expect(b.matchNear(second - 1, -1)).toBe(0);
    expect(b.matchNear(0, -1)).toBe(-1);
    expect(b.matchNear(10_000, 1)).toBe(-1);
    expect(b.matchNear(10_000, -1)).toBe(19);
  });

  it('keeps markers visible under level and search filters, and tags merged pods', () => {
    const b = new LogBuffer();
    b.ingest(
      ndjson([
        record(0, 'a'),
        {
          type: 'marker',
          pod: 'a',
          container: 'c',
          event: 'restarted',
          time: BASE + 5,
          message: 'container c restarted (restart 1)',
        },
        record(1, 'b'),
      ]),
    );
    b.setView({ context: 0, levels: { ERROR: true, UNKNOWN: false } });
    expect(b.rowsAt(0, 5)).toEqual([
      expect.objectContaining({ kind: 'marker', text: 'container c restarted (restart 1)', source: 'a' }),
    ]);
    expect(b.stats().sources).toBe(2);
  });

  it('reports an invalid view instead of throwing, and a failed stream', () => {
    const b = filled(10);
    expect(
      b.setView({ context: 0, search: { pattern: '(', regex: true, caseSensitive: false } }).error,
    ).toMatch(/Invalid regular expression/);
    const problem = {
      type: 't',
      title: 'x',
      status: 502,
      detail: 'cluster gone',
      code: 'cluster_error' as const,
    };
    expect(b.ingest(`${JSON.stringify({ type: 'error', problem })}\n`).streamError).toBe('cluster gone');
  });

  it('drops the oldest lines beyond capacity', () => {
    const b = new LogBuffer(1_000);
    b.ingest(ndjson(Array.from({ length: 1_001 }, (_, i) => record(i))));
    const s = b.stats();
    expect(s.total).toBe(751);
    expect(s.dropped).toBe(250);
    expect(b.rowsAt(0, 1)[0]!.text).toBe(BODIES[250 % 5]!(250));
    // Of 751 kept (250..1000), those whose body is JSON (i % 5 == 0) or logfmt (i % 5 == 1).
    expect(s.structured).toBe(151 + 150);
  });

  it('counts the JSON and logfmt lines it holds, which makes the viewer wrap by default', () => {
    const b = filled(10);
    expect(b.stats().structured).toBe(4);
    const plain = new LogBuffer();
    plain.ingest(ndjson([record(2), record(3), record(4)]));
    plain.add({
      type: 'marker',
      pod: 'p1',
      container: 'c',
      event: 'restarted',
      time: BASE,
      message: '{"not":"a line"}',
    });
    expect(plain.stats().structured).toBe(0);
    expect(b.clear().structured).toBe(0);
  });

  it('exports the view or everything, with timestamps on request', () => {
    const b = filled(10);
    b.setView({ context: 0, levels: { ERROR: true, UNKNOWN: false } });
    expect(b.exportParts(true, false).join('')).toBe('[ERROR] failed 2\n[ERROR] failed 7\n');
    const all = b.exportParts(false, true).join('').split('\n');
    expect(all).toHaveLength(11);
    expect(all[0]).toBe(`${new Date(BASE).toISOString()} ${BODIES[0]!(0)}`);
  });
});
