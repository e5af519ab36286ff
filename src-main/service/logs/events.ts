import type { LogMarkerEvent, LogMarkerRecord } from '../../../src-shared/contract/log-models';
import type { LogEntry } from '../../../src-shared/logs/types';

/**
 * What flows through a log session: a parsed line of one container, or a marker. A marker also
 * carries an entry (its time and text) so that merging and the time filter treat it like a line.
 */
export interface LogEvent {
  pod: string;
  container: string;
  entry: LogEntry;
  marker?: LogMarkerRecord;
}

export function markerEvent(
  pod: string,
  container: string,
  event: LogMarkerEvent,
  time: number,
  message: string,
  extra: Pick<LogMarkerRecord, 'restartCount' | 'exitCode' | 'reason'> = {},
): LogEvent {
  const marker: LogMarkerRecord = { type: 'marker', pod, container, event, time, message, ...extra };
  const entry: LogEntry = {
    ts: time,
    tsText: undefined,
    level: 'UNKNOWN',
    message,
    raw: message,
    format: 'plain',
    fields: undefined,
  };
  return { pod, container, entry, marker };
}

/** Waits `ms`, or less if `signal` aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
