import { describe, expect, it } from 'vitest';
import { compileSearch } from '../../../src-shared/logs/index';
import { displayText, type LayoutOptions, layoutScreen, rowHeight } from './layout';
import type { Row } from './model';

const row = (index: number, text: string, extra: Partial<Row> = {}): Row => ({
  kind: 'line',
  index,
  text,
  level: 'INFO',
  match: false,
  ...extra,
});

const OPTS: LayoutOptions = {
  cols: 10,
  rows: 4,
  wrap: false,
  timestamps: false,
  hscroll: 0,
  search: null,
  currentRow: -1,
  anchorBottom: false,
  topSub: 0,
};

const ESC = String.fromCharCode(27);
const HOME = new RegExp(`${ESC}\\[H`, 'g');
const SGR = new RegExp(`${ESC}\\[[0-9;]*[A-Za-z]`, 'g');

/** The screen as plain text, one string per line. */
const plain = (text: string) =>
  text
    .replace(HOME, '')
    .split('\r\n')
    .map((l) => l.replace(SGR, ''));

describe('layoutScreen', () => {
  it('truncates without wrap and scrolls horizontally', () => {
    const rows = [row(0, 'abcdefghijklmnop'), row(1, 'short')];
    expect(plain(layoutScreen(rows, OPTS).text)).toEqual(['abcdefghij', 'short', '', '']);
    expect(plain(layoutScreen(rows, { ...OPTS, hscroll: 3 }).text)).toEqual(['defghijklm', 'rt', '', '']);
  });

  it('wraps, skips the top of a tall row and anchors to the bottom', () => {
    const rows = [row(0, 'a'.repeat(25)), row(1, 'b')];
    const o = { ...OPTS, wrap: true };
    expect(plain(layoutScreen(rows, o).text)).toEqual(['aaaaaaaaaa', 'aaaaaaaaaa', 'aaaaa', 'b']);
    expect(plain(layoutScreen(rows, { ...o, topSub: 2 }).text)).toEqual(['aaaaa', 'b', '', '']);
    const many = Array.from({ length: 6 }, (_, i) => row(i, `line ${i}`));
    const bottom = layoutScreen(many, { ...o, anchorBottom: true });
    expect(plain(bottom.text)).toEqual(['line 2', 'line 3', 'line 4', 'line 5']);
    expect(bottom.lineRows).toEqual([2, 3, 4, 5]);
    expect(rowHeight(rows[0]!, o)).toBe(3);
  });

  it('highlights matches, the current one apart, and counts wide characters as two columns', () => {
    const search = compileSearch({ pattern: 'ab', regex: false, caseSensitive: true });
    if (!search.ok) throw new Error(search.error);
    const o = { ...OPTS, search: search.search, currentRow: 1 };
    const out = layoutScreen([row(0, 'xxab', { match: true }), row(1, 'ab', { match: true })], o).text;
    expect(out).toContain('\x1b[0;30;43mab');
    expect(out).toContain('\x1b[0;30;48;5;208mab');
    expect(plain(layoutScreen([row(0, '日本語のログです')], OPTS).text)[0]).toBe('日本語のロ');
  });

  it('never lets the container drive the terminal', () => {
    expect(displayText('\x1b[2J\x1b]0;pwned\x07ok\r\tx\x00')).toBe('ok· x·');
    const screen = layoutScreen([row(0, '\x1b[31mred\x1b[0m', { level: 'ERROR' })], OPTS).text;
    expect(plain(screen)[0]).toBe('red');
  });

  it('prefixes time and pod, and draws markers and separators', () => {
    const o = { ...OPTS, cols: 80, timestamps: true };
    const rows: Row[] = [
      row(0, 'hello', { ts: Date.UTC(2026, 0, 1), source: 'pod-a' }),
      { kind: 'separator', index: 1, text: '--', level: 'UNKNOWN', match: false },
      { kind: 'marker', index: 2, text: 'container app restarted', level: 'UNKNOWN', match: false },
    ];
    const lines = plain(layoutScreen(rows, o).text);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.000 \[pod-a\] hello$/);
    expect(lines[1]).toBe('--');
    expect(lines[2]).toBe('─── container app restarted ───');
  });
});
