import type { LevelSet, SearchSpec } from '../../../src-shared/logs/index';
import type { LogLevel } from '../../../src-shared/logs/types';

/** What the viewer shows of the buffer. Every field is a pure view choice: no refetch. */
export interface ViewSpec {
  /** undefined: every level. */
  levels?: LevelSet;
  /** Inclusive epoch-ms bounds. */
  from?: number;
  until?: number;
  /** An empty pattern means no search. */
  search?: SearchSpec;
  /** grep -C: lines around each match. */
  context: number;
}

export type RowKind = 'line' | 'marker' | 'separator';

/** One row of the filtered view, as the terminal draws it. */
export interface Row {
  kind: RowKind;
  /** Position in the filtered view. */
  index: number;
  text: string;
  level: LogLevel;
  ts?: number;
  /** The pod the line came from (several pods are merged in a workload's view). */
  source?: string;
  /** Matched the search (context rows and rows without a search: false). */
  match: boolean;
}

export interface ViewStats {
  /** Lines held in the buffer. */
  total: number;
  /** Rows of the filtered view (lines, markers and `--` separators). */
  rows: number;
  matches: number;
  searching: boolean;
  /** Distinct pods seen: above one, rows are tagged with their pod. */
  sources: number;
  /** Lines dropped from the front to stay within the buffer's capacity. */
  dropped: number;
  /** JSON or logfmt lines held (markers excluded): above zero, wrapping is on unless chosen off. */
  structured: number;
  /** The view could not be built (an invalid regex, a reversed time range). */
  error?: string;
  /** The service reported that the stream failed. */
  streamError?: string;
}
