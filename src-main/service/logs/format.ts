import type { LogLineRecord, LogRecord } from '../../../src-shared/contract/log-models';
import { createLogFilterCursor, type LogFilter } from '../../../src-shared/logs/index';
import { ProblemError } from '../errors';
import type { LogEvent } from './events';
import type { LogSession } from './session';

export interface FormatOptions {
  ndjson: boolean;
  /** text/plain: keep the kubelet's timestamp in front of each line. */
  timestamps: boolean;
  /** null: show everything (no level, time or search filter asked for). */
  filter: LogFilter | null;
  /** ndjson: include the parsed fields of structured lines. */
  fields: boolean;
}

type Shown = { event: LogEvent; match: boolean | undefined } | null;

function lineRecord(event: LogEvent, match: boolean | undefined, fields: boolean): LogLineRecord {
  const { entry } = event;
  return {
    type: 'line',
    pod: event.pod,
    container: event.container,
    ...(entry.tsText !== undefined ? { ts: entry.tsText } : {}),
    ...(entry.ts !== undefined ? { time: entry.ts } : {}),
    level: entry.level,
    format: entry.format,
    message: entry.message,
    raw: entry.raw,
    ...(fields && entry.fields !== undefined ? { fields: entry.fields } : {}),
    ...(match !== undefined ? { match } : {}),
  };
}

function toText(shown: readonly Shown[], multiPod: boolean, timestamps: boolean): string {
  let out = '';
  for (const s of shown) {
    if (s === null) {
      out += '--\n';
      continue;
    }
    const { event } = s;
    // kubectl logs --prefix style, only when lines of several pods are interleaved.
    const prefix = multiPod ? `[${event.pod}/${event.container}] ` : '';
    if (event.marker) {
      const at = timestamps ? `${new Date(event.marker.time).toISOString()} ` : '';
      out += `${prefix}${at}--- ${event.marker.message} ---\n`;
    } else {
      const ts = timestamps && event.entry.tsText !== undefined ? `${event.entry.tsText} ` : '';
      out += `${prefix}${ts}${event.entry.raw}\n`;
    }
  }
  return out;
}

function toNdjson(shown: readonly Shown[], fields: boolean): string {
  let out = '';
  for (const s of shown) {
    const record: LogRecord =
      s === null
        ? { type: 'separator' }
        : s.event.marker
          ? s.event.marker
          : lineRecord(s.event, s.match, fields);
    out += `${JSON.stringify(record)}\n`;
  }
  return out;
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

/**
 * Filters a session's events with the shared grep -C semantics and renders them chunk by chunk.
 * Markers are not lines the container wrote: they bypass level and search (but not the time
 * range), so a restart stays visible in a filtered view. A failure after the first chunk can no
 * longer be a problem+json: ndjson gets a final `error` record; text/plain gets a closing line
 * and then the stream is cut (thrown), so a script still sees a failed transfer.
 */
export async function* formatLog(
  session: LogSession,
  opts: FormatOptions,
  signal: AbortSignal,
): AsyncGenerator<string, void, undefined> {
  const { filter } = opts;
  let shown: Shown[] = [];
  const searching = filter?.search != null;
  const cursor = filter
    ? createLogFilterCursor<LogEvent>(filter, {
        line: (event, match) => shown.push({ event, match: searching ? match : undefined }),
        separator: () => shown.push(null),
      })
    : null;
  const render = () =>
    opts.ndjson ? toNdjson(shown, opts.fields) : toText(shown, session.multiPod, opts.timestamps);
  try {
    for await (const batch of session.events) {
      for (const event of batch) {
        if (event.marker) {
          const t = event.marker.time;
          if (!filter || (t >= filter.from && t <= filter.until)) shown.push({ event, match: undefined });
        } else if (cursor) cursor.push(event.entry, event);
        else shown.push({ event, match: undefined });
      }
      if (shown.length > 0) {
        const chunk = render();
        shown = [];
        yield chunk;
      }
    }
  } catch (err) {
    if (signal.aborted || isAbort(err)) return;
    const problem =
      err instanceof ProblemError
        ? err
        : new ProblemError('internal_error', 'the log stream failed; see the service log');
    if (opts.ndjson) {
      yield `${JSON.stringify({ type: 'error', problem: problem.toProblem() } satisfies LogRecord)}\n`;
      return;
    }
    yield `--- the log stream failed: ${problem.message} ---\n`;
    throw err;
  }
}
