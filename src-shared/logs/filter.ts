import { type CompiledSearch, compileSearch, type RegexTester, type SearchSpec } from './search';
import type { LogEntry, LogLevel } from './types';

/**
 * Which levels to show. Asymmetric on purpose, as the UI needs it: a real level is shown only
 * when set to `true`, while UNKNOWN (continuation lines, stack frames, unstructured output) is
 * shown unless set to `false`. `{ ERROR: true }` therefore shows errors plus unlevelled lines;
 * add `UNKNOWN: false` for errors only. An absent `levels` shows everything.
 */
export type LevelSet = Readonly<Partial<Record<LogLevel, boolean>>>;

export interface LogFilterSpec {
  levels?: LevelSet;
  /** Inclusive epoch-ms bounds. */
  from?: number;
  until?: number;
  /** Matched against `entry.raw` (what the container wrote). Empty pattern = no search. */
  search?: SearchSpec;
  /** grep -C: lines of context before and after each match (0..MAX_CONTEXT). */
  context?: number;
}

/** Bounds the ring buffer the stream keeps for before-context. */
export const MAX_CONTEXT = 1000;

export interface LogFilter {
  readonly show: Readonly<Record<LogLevel, boolean>>;
  readonly from: number;
  readonly until: number;
  /** null when there is no search: then every visible line counts as a match. */
  readonly search: CompiledSearch | null;
  readonly context: number;
}

export type CompileLogFilterResult = { ok: true; filter: LogFilter } | { ok: false; error: string };

export function compileLogFilter(
  spec: LogFilterSpec,
  options?: { regex?: RegexTester },
): CompileLogFilterResult {
  const context = spec.context ?? 0;
  if (!Number.isInteger(context) || context < 0 || context > MAX_CONTEXT) {
    return { ok: false, error: `Context must be a whole number from 0 to ${MAX_CONTEXT}` };
  }
  const from = spec.from ?? Number.NEGATIVE_INFINITY;
  const until = spec.until ?? Number.POSITIVE_INFINITY;
  if (Number.isNaN(from) || Number.isNaN(until))
    return { ok: false, error: 'Time range bounds must be numbers' };
  if (from > until) return { ok: false, error: 'Time range starts after it ends' };
  let search: CompiledSearch | null = null;
  if (spec.search !== undefined && spec.search.pattern.length > 0) {
    const r = compileSearch(spec.search, options?.regex);
    if (!r.ok) return r;
    search = r.search;
  }
  const lv = spec.levels;
  const show: Record<LogLevel, boolean> =
    lv === undefined
      ? { ERROR: true, WARN: true, INFO: true, DEBUG: true, TRACE: true, UNKNOWN: true }
      : {
          ERROR: lv.ERROR === true,
          WARN: lv.WARN === true,
          INFO: lv.INFO === true,
          DEBUG: lv.DEBUG === true,
          TRACE: lv.TRACE === true,
          UNKNOWN: lv.UNKNOWN !== false,
        };
  return { ok: true, filter: { show, from, until, search, context } };
}

/** Receives what a filter shows, in order: lines (match or context) and `--` separators. */
export interface LogFilterSink<T> {
  line(item: T, match: boolean): void;
  separator(): void;
}
type Sink<T> = LogFilterSink<T>;

/**
 * The one implementation of the filter semantics, shared by the batch and streaming APIs so
 * they cannot drift apart:
 *
 * 1. Visibility: level per LevelSet, time within [from, until]. A line without `ts` is judged
 *    by the most recent `ts` before it in the input (whatever that line's level), so a stack
 *    trace stays with its head line; lines before any `ts` pass the time range.
 * 2. Search runs over the visible lines only, and context is taken from that same visible
 *    sequence — exactly like running `grep -C N` over the level/time-filtered view. Hidden lines
 *    never appear as context and do not count towards N.
 * 3. Groups whose context overlaps or touches merge; a separator marks a gap between groups in
 *    the visible sequence. Separators only exist with context > 0 (grep without -C prints none).
 */
class Grep<T> {
  private readonly ring: T[] = [];
  private ringStart = 0;
  private ringLen = 0;
  private afterLeft = 0;
  private seq = 0;
  private lastEmitted = -1;
  private lastTs = Number.NaN;

  constructor(private readonly f: LogFilter) {}

  step(entry: LogEntry, item: T, sink: Sink<T>): void {
    const f = this.f;
    if (entry.ts !== undefined) this.lastTs = entry.ts;
    if (!f.show[entry.level]) return;
    // NaN (no timestamp seen yet) fails both comparisons, so such lines pass.
    if (this.lastTs < f.from || this.lastTs > f.until) return;
    const seq = this.seq++;
    const ctx = f.context;
    if (f.search === null || f.search.test(entry.raw)) {
      if (ctx > 0 && this.lastEmitted >= 0 && seq - this.ringLen > this.lastEmitted + 1) sink.separator();
      for (let i = 0; i < this.ringLen; i++) sink.line(this.ring[(this.ringStart + i) % ctx]!, false);
      this.ringLen = 0;
      this.ringStart = 0;
      sink.line(item, true);
      this.afterLeft = ctx;
      this.lastEmitted = seq;
    } else if (this.afterLeft > 0) {
      this.afterLeft--;
      sink.line(item, false);
      this.lastEmitted = seq;
    } else if (ctx > 0) {
      if (this.ringLen < ctx) {
        this.ring[(this.ringStart + this.ringLen) % ctx] = item;
        this.ringLen++;
      } else {
        this.ring[this.ringStart] = item;
        this.ringStart = (this.ringStart + 1) % ctx;
      }
    }
  }
}

export interface LogFilterResult {
  /** Indices into `entries` to display, ascending. */
  indices: Int32Array;
  /** The subset of `indices` that matched the search (all of them, same array, when no search). */
  matchIndices: Int32Array;
  /** Positions in `indices` (ascending) before which a `--` separator row goes. */
  separators: Int32Array;
}

export function applyLogFilter(entries: readonly LogEntry[], filter: LogFilter): LogFilterResult {
  const n = entries.length;
  const indices = new Int32Array(n);
  const separateMatches = filter.search !== null;
  const matches = separateMatches ? new Int32Array(n) : indices;
  const seps: number[] = [];
  let ni = 0;
  let nm = 0;
  const sink: Sink<number> = {
    line(i, match) {
      indices[ni++] = i;
      if (match && separateMatches) matches[nm++] = i;
    },
    separator() {
      seps.push(ni);
    },
  };
  const grep = new Grep<number>(filter);
  for (let i = 0; i < n; i++) grep.step(entries[i]!, i, sink);
  // slice, not subarray: release the n-sized scratch buffers.
  const shown = indices.slice(0, ni);
  return {
    indices: shown,
    matchIndices: separateMatches ? matches.slice(0, nm) : shown,
    separators: Int32Array.from(seps),
  };
}

/** Flattens a result into display rows: an entry index per row, -1 for a separator row. */
export function toDisplayRows(result: LogFilterResult): Int32Array {
  const { indices, separators } = result;
  const rows = new Int32Array(indices.length + separators.length);
  let r = 0;
  let s = 0;
  for (let i = 0; i < indices.length; i++) {
    while (s < separators.length && separators[s] === i) {
      rows[r++] = -1;
      s++;
    }
    rows[r++] = indices[i]!;
  }
  return rows;
}

export type LogFilterStreamItem = { kind: 'match' | 'context'; entry: LogEntry } | { kind: 'separator' };

export interface LogFilterStream {
  /**
   * Feeds the next line; returns what is now known to be shown, in order. Before-context is
   * held (at most `context` lines) until a match arrives; after-context is emitted at once.
   */
  push(entry: LogEntry): readonly LogFilterStreamItem[];
}

const NOTHING: readonly LogFilterStreamItem[] = Object.freeze([]);

export function createLogFilterStream(filter: LogFilter): LogFilterStream {
  const grep = new Grep<LogEntry>(filter);
  let out: LogFilterStreamItem[] | null = null;
  const emit = (item: LogFilterStreamItem): void => {
    if (out === null) out = [item];
    else out.push(item);
  };
  const sink: Sink<LogEntry> = {
    line(entry, match) {
      emit({ kind: match ? 'match' : 'context', entry });
    },
    separator() {
      emit({ kind: 'separator' });
    },
  };
  return {
    push(entry) {
      out = null;
      grep.step(entry, entry, sink);
      // Most lines produce nothing; a shared frozen empty array avoids allocating for them.
      return out ?? NOTHING;
    },
  };
}

export interface LogFilterCursor<T> {
  /** Feeds the next entry with the caller's handle for it; shown items go to the sink at once. */
  push(entry: LogEntry, item: T): void;
}

/**
 * The streaming filter for callers that need their own handle back rather than the entry: an
 * index into a columnar store (the viewer), or a line tagged with its pod (the service).
 */
export function createLogFilterCursor<T>(filter: LogFilter, sink: LogFilterSink<T>): LogFilterCursor<T> {
  const grep = new Grep<T>(filter);
  return { push: (entry, item) => grep.step(entry, item, sink) };
}
