/**
 * The event watch's two framings: Server-Sent Events and NDJSON.
 *
 * Rules: a record's JSON is the same in both; only SSE carries `id:` (the resume point) and names
 * control records with `event:`.
 */
import {
  type EventWatchRecord,
  SSE,
  SSE_EVENT_NAMES,
} from '../../../../src-shared/contract/event-watch-operations';

/**
 * The two framings of the event watch. The JSON of a record is the same in both; SSE adds the
 * `id:` a browser's EventSource (or our own parser) keeps as Last-Event-ID, and names the control
 * records with `event:` so a change is a plain `message`.
 */
/** What framing reads of a record: its type, and its id when it has one (the changes watch's too). */
export interface FramedRecord {
  readonly type: EventWatchRecord['type'];
  readonly id?: string | undefined;
}

export interface Framing {
  readonly contentType: string;
  /** A record whose JSON is given (records are serialised once, whatever the framing). */
  record(record: FramedRecord, json: string): string;
  heartbeat(): string;
  /** Sent first: SSE tells EventSource how long to wait before it reconnects. */
  opening(): string;
}

const SSE_EVENT: Partial<Record<EventWatchRecord['type'], string>> = SSE_EVENT_NAMES;

export function framingFor(mediaType: string, retryMs: number): Framing {
  if (mediaType === SSE) {
    return {
      contentType: `${SSE}; charset=utf-8`,
      record(record, json) {
        const event = SSE_EVENT[record.type];
        const id = record.id !== undefined ? `id: ${record.id}\n` : '';
        // JSON.stringify never emits a raw newline, so one data line always holds the record.
        return `${event ? `event: ${event}\n` : ''}${id}data: ${json}\n\n`;
      },
      heartbeat: () => ': heartbeat\n\n',
      opening: () => `retry: ${retryMs}\n\n`,
    };
  }
  return {
    contentType: 'application/x-ndjson; charset=utf-8',
    record: (_record, json) => `${json}\n`,
    heartbeat: () => '{"type":"HEARTBEAT"}\n',
    opening: () => '',
  };
}
