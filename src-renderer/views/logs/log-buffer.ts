import type { LogRecord } from '../../../src-shared/contract/log-models';
import {
  compileLogFilter,
  createLogFilterCursor,
  type LogFilter,
  type LogFilterCursor,
} from '../../../src-shared/logs/index';
import type { LogEntry } from '../../../src-shared/logs/types';
import { GrowableInt32 } from './growable';
import type { Row, ViewSpec, ViewStats } from './model';

export const DEFAULT_CAPACITY = 2_000_000;

const MARKER = 1;

/** Lines the shared parser recognised as JSON or logfmt (src-shared/logs/parse.ts): long by nature. */
const isStructured = (format: LogEntry['format']) => format === 'json' || format === 'logfmt';

/**
 * The viewer's source of truth: every line received, parsed, plus the filtered view of them.
 * It runs in a Web Worker (see worker.ts), so neither parsing nor filtering a million lines
 * blocks the page; the terminal asks it only for the rows it is about to draw.
 *
 * Entries keep what the view needs (time, level, text) and drop the parsed fields, which would
 * cost more than the line itself. The view is a list of entry indices (-1 for a `--` separator)
 * built by the shared grep -C filter, extended line by line as lines arrive and rebuilt in one
 * pass when the filter changes.
 */
export class LogBuffer {
  private entries: LogEntry[] = [];
  /** Per entry: source index << 1 | marker bit. */
  private meta = new GrowableInt32();
  private readonly sources: string[] = [];
  private readonly sourceIndex = new Map<string, number>();
  private partial = '';
  private dropped = 0;
  /** JSON and logfmt lines held: the viewer wraps such logs unless told not to. */
  private structured = 0;
  private streamError: string | undefined;

  private spec: ViewSpec = { context: 0 };
  private filter: LogFilter | null = null;
  private cursor: LogFilterCursor<number> | null = null;
  private searching = false;
  private rows = new GrowableInt32();
  /** Row positions of matches, ascending. */
  private matchRows = new GrowableInt32();
  private viewError: string | undefined;

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** Takes a chunk of application/x-ndjson as it arrived (it may end mid-line). */
  ingest(text: string): ViewStats {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) if (line !== '') this.add(JSON.parse(line) as LogRecord);
    if (this.entries.length > this.capacity) this.trim();
    return this.stats();
  }

  add(record: LogRecord): void {
    if (record.type === 'line') {
      if (isStructured(record.format)) this.structured++;
      this.push(record.pod, 0, {
        ts: record.time,
        tsText: undefined,
        level: record.level,
        message: '',
        raw: record.raw,
        format: record.format,
        fields: undefined,
      });
    } else if (record.type === 'marker') {
      this.push(record.pod, MARKER, {
        ts: record.time,
        tsText: undefined,
        level: 'UNKNOWN',
        message: '',
        raw: record.message,
        format: 'plain',
        fields: undefined,
      });
    } else if (record.type === 'error') {
      this.streamError = record.problem.detail;
    }
    // Separators are the service's filter's; the viewer filters for itself.
  }

  clear(): ViewStats {
    this.entries = [];
    this.meta = new GrowableInt32();
    this.partial = '';
    this.dropped = 0;
    this.structured = 0;
    this.streamError = undefined;
    this.rebuild();
    return this.stats();
  }

  setView(spec: ViewSpec): ViewStats {
    this.spec = spec;
    this.rebuild();
    return this.stats();
  }

  stats(): ViewStats {
    return {
      total: this.entries.length,
      rows: this.rows.length,
      matches: this.searching ? this.matchRows.length : 0,
      searching: this.searching,
      sources: this.sources.length,
      dropped: this.dropped,
      structured: this.structured,
      ...(this.viewError ? { error: this.viewError } : {}),
      ...(this.streamError ? { streamError: this.streamError } : {}),
    };
  }

  /** Rows [start, start + count) of the view. */
  rowsAt(start: number, count: number): Row[] {
    const out: Row[] = [];
    const end = Math.min(this.rows.length, start + count);
    let m = this.searching ? this.matchRows.lowerBound(start) : 0;
    for (let r = Math.max(0, start); r < end; r++) {
      const i = this.rows.get(r);
      let match = false;
      if (this.searching && m < this.matchRows.length && this.matchRows.get(m) === r) {
        match = true;
        m++;
      }
      if (i < 0) {
        out.push({ kind: 'separator', index: r, text: '--', level: 'UNKNOWN', match: false });
        continue;
      }
      const e = this.entries[i]!;
      const meta = this.meta.get(i);
      out.push({
        kind: meta & MARKER ? 'marker' : 'line',
        index: r,
        text: e.raw,
        level: e.level,
        ...(e.ts !== undefined ? { ts: e.ts } : {}),
        ...(this.sources.length > 1 ? { source: this.sources[meta >> 1] } : {}),
        match,
      });
    }
    return out;
  }

  /** Row of the k-th match (0-based), or -1. */
  matchRow(k: number): number {
    return k >= 0 && k < this.matchRows.length ? this.matchRows.get(k) : -1;
  }

  /** Index of the first match at or after `row` (dir 1), or the last at or before it (dir -1); -1 if none. */
  matchNear(row: number, dir: 1 | -1): number {
    const n = this.matchRows.length;
    if (n === 0) return -1;
    const k = this.matchRows.lowerBound(row);
    if (dir === 1) return k < n ? k : -1;
    return k < n && this.matchRows.get(k) === row ? k : k - 1;
  }

  /** The view (or every line) as text for a download, in parts small enough to build a Blob from. */
  exportParts(filtered: boolean, timestamps: boolean): string[] {
    const parts: string[] = [];
    let part = '';
    const count = filtered ? this.rows.length : this.entries.length;
    const tagged = this.sources.length > 1;
    for (let r = 0; r < count; r++) {
      const i = filtered ? this.rows.get(r) : r;
      if (i < 0) part += '--\n';
      else {
        const e = this.entries[i]!;
        const meta = this.meta.get(i);
        const ts = timestamps && e.ts !== undefined ? `${new Date(e.ts).toISOString()} ` : '';
        const tag = tagged ? `[${this.sources[meta >> 1]}] ` : '';
        part += meta & MARKER ? `${ts}${tag}--- ${e.raw} ---\n` : `${ts}${tag}${e.raw}\n`;
      }
      if (part.length > 1 << 20) {
        parts.push(part);
        part = '';
      }
    }
    if (part !== '') parts.push(part);
    return parts;
  }

  private push(source: string, kind: number, entry: LogEntry): void {
    let s = this.sourceIndex.get(source);
    if (s === undefined) {
      s = this.sources.push(source) - 1;
      this.sourceIndex.set(source, s);
    }
    const i = this.entries.push(entry) - 1;
    this.meta.push((s << 1) | kind);
    this.extend(i);
  }

  /** Adds entry `i` to the view. */
  private extend(i: number): void {
    if (this.viewError) return;
    const entry = this.entries[i]!;
    if (this.meta.get(i) & MARKER) {
      // A marker is not something the container wrote: no level or search hides it, time does.
      const f = this.filter;
      const t = entry.ts ?? 0;
      if (!f || (t >= f.from && t <= f.until)) this.rows.push(i);
    } else if (this.cursor) this.cursor.push(entry, i);
    else this.rows.push(i);
  }

  private rebuild(): void {
    this.rows = new GrowableInt32(Math.max(1024, this.rows.length));
    this.matchRows = new GrowableInt32();
    this.viewError = undefined;
    this.filter = null;
    this.cursor = null;
    const { levels, from, until, search, context } = this.spec;
    const searching = search !== undefined && search.pattern !== '';
    this.searching = searching;
    if (levels || from !== undefined || until !== undefined || searching || context > 0) {
      const compiled = compileLogFilter({
        ...(levels ? { levels } : {}),
        ...(from !== undefined ? { from } : {}),
        ...(until !== undefined ? { until } : {}),
        ...(searching ? { search } : {}),
        context,
      });
      if (!compiled.ok) {
        this.viewError = compiled.error;
        this.searching = false;
        return;
      }
      this.filter = compiled.filter;
      const rows = this.rows;
      const matchRows = this.matchRows;
      this.cursor = createLogFilterCursor<number>(compiled.filter, {
        line(index, match) {
          if (searching && match) matchRows.push(rows.length);
          rows.push(index);
        },
        separator() {
          rows.push(-1);
        },
      });
    }
    for (let i = 0; i < this.entries.length; i++) this.extend(i);
  }

  /** Over capacity: the oldest quarter goes, as a terminal's scrollback would lose it. */
  private trim(): void {
    const drop = Math.max(this.entries.length - this.capacity, Math.floor(this.capacity / 4));
    this.entries = this.entries.slice(drop);
    this.structured = 0;
    for (const e of this.entries) if (isStructured(e.format)) this.structured++;
    const meta = new GrowableInt32(this.entries.length + 1024);
    for (let i = drop; i < drop + this.entries.length; i++) meta.push(this.meta.get(i));
    this.meta = meta;
    this.dropped += drop;
    this.rebuild();
  }
}
