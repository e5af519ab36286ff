import { type CompiledSearch, findMatches } from '../../../src-shared/logs/index';
import type { LogLevel } from '../../../src-shared/logs/types';
import type { Row } from './model';

/** How rows become terminal lines. Everything here is display: the buffer is never touched. */
export interface LayoutOptions {
  cols: number;
  rows: number;
  wrap: boolean;
  timestamps: boolean;
  /** Columns of the text skipped when not wrapping (horizontal scroll). */
  hscroll: number;
  search: CompiledSearch | null;
  /** View row of the current match, painted apart from the other matches. */
  currentRow: number;
  /** Fill the screen from the bottom (following the tail) instead of from the top. */
  anchorBottom: boolean;
  /** Visual lines of the first row skipped (reading a wrapped row taller than the screen). */
  topSub: number;
}

export interface Layout {
  /** One write that repaints the whole screen. */
  text: string;
  /** View row shown on each screen line (-1: empty line). */
  lineRows: number[];
  /** Visual lines of each row, as laid out (for scrolling through a tall wrapped row). */
  heights: Map<number, number>;
}

// Styles are small integers; SGR sequences are emitted only where the style changes.
const S = {
  plain: 0,
  dim: 1,
  error: 2,
  warn: 3,
  debug: 4,
  marker: 5,
  match: 6,
  current: 7,
  source: 8,
} as const;
const SGR = [
  '\x1b[0m',
  '\x1b[0;90m',
  '\x1b[0;31m',
  '\x1b[0;33m',
  '\x1b[0;2m',
  '\x1b[0;1;36m',
  '\x1b[0;30;43m',
  '\x1b[0;30;48;5;208m',
  '',
];
const SOURCE_COLORS = [32, 34, 35, 36, 92, 94, 95, 96];

const LEVEL_STYLE: Record<LogLevel, number> = {
  ERROR: S.error,
  WARN: S.warn,
  INFO: S.plain,
  DEBUG: S.debug,
  TRACE: S.debug,
  UNKNOWN: S.plain,
};

/** Terminal columns of a code point: 2 for East Asian wide and emoji, 0 for combining marks. */
export function charWidth(cp: number): number {
  if (cp < 0x300) return 1;
  if (cp <= 0x36f) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  )
    return 2;
  return 1;
}

/**
 * What a container wrote must never drive the terminal: escape sequences (colours, cursor moves,
 * title changes) are removed and other control characters shown as `·`; tabs go to the next
 * multiple of 4. Search highlighting runs on this display text.
 */
export function displayText(raw: string): string {
  let out = '';
  let col = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x1b) {
      const next = raw.charCodeAt(i + 1);
      if (next === 0x5b) {
        // CSI: parameters and intermediates, then one final byte 0x40-0x7e.
        i += 2;
        while (i < raw.length && !(raw.charCodeAt(i) >= 0x40 && raw.charCodeAt(i) <= 0x7e)) i++;
      } else if (next === 0x5d) {
        // OSC: up to BEL or ST.
        i += 2;
        while (
          i < raw.length &&
          raw.charCodeAt(i) !== 7 &&
          !(raw.charCodeAt(i) === 0x1b && raw.charCodeAt(i + 1) === 0x5c)
        )
          i++;
        if (raw.charCodeAt(i) === 0x1b) i++;
      } else i++;
      continue;
    }
    if (c === 9) {
      const n = 4 - (col % 4);
      out += ' '.repeat(n);
      col += n;
    } else if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0)) {
      out += '·';
      col++;
    } else {
      out += raw[i];
      col++;
    }
  }
  return out;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** Local time to the millisecond, as people read it next to their own clock. */
export function formatTime(ms: number): string {
  const d = new Date(ms);
  const msPart = String(d.getMilliseconds()).padStart(3, '0');
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}.${msPart}`;
}

function sourceStyle(source: string): string {
  let h = 0;
  for (let i = 0; i < source.length; i++) h = (h * 31 + source.charCodeAt(i)) | 0;
  return `\x1b[0;${SOURCE_COLORS[Math.abs(h) % SOURCE_COLORS.length]}m`;
}

interface Line {
  out: string;
  width: number;
  style: string;
}

/**
 * Lays out one row into at most `maxLines` visual lines of `cols` columns. Only what can be seen
 * is processed, so a megabyte-long line costs no more than a screenful.
 */
function layoutRow(row: Row, o: LayoutOptions, maxLines: number, skipLines: number): string[] {
  const lines: string[] = [];
  let line: Line = { out: '', width: 0, style: '' };
  let skipped = 0;
  let done = false;
  const setStyle = (sgr: string) => {
    if (line.style !== sgr) {
      line.out += sgr;
      line.style = sgr;
    }
  };
  const newLine = () => {
    if (skipped < skipLines) skipped++;
    else lines.push(`${line.out}\x1b[0m`);
    line = { out: '', width: 0, style: '' };
    if (lines.length >= maxLines || !o.wrap) done = true;
  };
  const put = (text: string, sgr: string, hscroll: number) => {
    let skip = hscroll;
    setStyle(sgr);
    for (const ch of text) {
      if (done) return;
      const w = charWidth(ch.codePointAt(0)!);
      if (skip > 0) {
        skip -= Math.max(1, w);
        continue;
      }
      if (line.width + w > o.cols) {
        newLine();
        if (done) return;
        setStyle(sgr);
      }
      line.out += ch;
      line.width += w;
    }
  };

  if (row.kind === 'separator') {
    put('--', SGR[S.dim]!, 0);
    newLine();
    return lines;
  }
  if (o.timestamps && row.ts !== undefined) put(`${formatTime(row.ts)} `, SGR[S.dim]!, 0);
  if (row.source !== undefined) put(`[${row.source}] `, sourceStyle(row.source), 0);
  const text = displayText(row.text);
  const hscroll = o.wrap ? 0 : o.hscroll;
  if (row.kind === 'marker') {
    put(`─── ${text} ───`, SGR[S.marker]!, hscroll);
  } else {
    const base = SGR[LEVEL_STYLE[row.level]]!;
    const hl = SGR[row.index === o.currentRow ? S.current : S.match]!;
    const ranges = o.search && row.match ? findMatches(text, o.search) : [];
    let at = 0;
    let skip = hscroll;
    for (const [start, end] of ranges) {
      if (start > at) put(text.slice(at, start), base, skip);
      skip = Math.max(0, skip - (start - at));
      put(text.slice(start, end), hl, skip);
      skip = Math.max(0, skip - (end - start));
      at = end;
    }
    if (at < text.length || text.length === 0) put(text.slice(at), base, skip);
  }
  if (!done) newLine();
  return lines;
}

/**
 * Paints one screen. The result is a single write that homes the cursor and overwrites every
 * line, so a filter change or a scroll repaints without clearing (no flicker) and whatever the
 * screen showed before cannot linger.
 */
export function layoutScreen(rows: readonly Row[], o: LayoutOptions): Layout {
  const heights = new Map<number, number>();
  const screen: { text: string; row: number }[] = [];
  if (o.anchorBottom) {
    for (let r = rows.length - 1; r >= 0 && screen.length < o.rows; r--) {
      const lines = layoutRow(rows[r]!, o, o.rows, 0);
      heights.set(rows[r]!.index, lines.length);
      for (let k = lines.length - 1; k >= 0 && screen.length < o.rows; k--)
        screen.unshift({ text: lines[k]!, row: rows[r]!.index });
    }
  } else {
    for (let r = 0; r < rows.length && screen.length < o.rows; r++) {
      const skip = r === 0 ? o.topSub : 0;
      const lines = layoutRow(rows[r]!, o, o.rows - screen.length, skip);
      heights.set(rows[r]!.index, lines.length + skip);
      for (const text of lines) screen.push({ text, row: rows[r]!.index });
    }
  }
  let text = '\x1b[H';
  const lineRows: number[] = [];
  for (let i = 0; i < o.rows; i++) {
    const line = screen[i];
    text += `\x1b[2K${line ? line.text : ''}${i < o.rows - 1 ? '\r\n' : ''}`;
    lineRows.push(line ? line.row : -1);
  }
  return { text, lineRows, heights };
}

/** Visual lines `row` takes with wrapping on (1 without). */
export function rowHeight(row: Row, o: Pick<LayoutOptions, 'cols' | 'wrap' | 'timestamps'>): number {
  if (!o.wrap || row.kind === 'separator') return 1;
  let width = 0;
  if (o.timestamps && row.ts !== undefined) width += 24;
  if (row.source !== undefined) width += row.source.length + 3;
  const text = displayText(row.text);
  for (const ch of text) width += charWidth(ch.codePointAt(0)!);
  if (row.kind === 'marker') width += 8;
  return Math.max(1, Math.ceil(width / o.cols));
}
