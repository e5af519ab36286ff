/**
 * A streaming parser of text/event-stream (the WHATWG "server-sent events" rules): feed it text
 * as it arrives, in chunks cut anywhere, and it hands out each complete event. Used where
 * EventSource cannot be (it sends no Authorization header, and Node has none).
 */
export interface SseEvent {
  /** `message` unless the event named itself. */
  event: string;
  data: string;
  /** The id in force after this event (the last `id:` seen, as EventSource keeps it). */
  lastEventId: string;
}

export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private lastId = '';
  private sawCr = false;
  /** The reconnection delay the stream asked for (`retry:`), if any. */
  retryMs: number | undefined;

  constructor(lastEventId = '') {
    this.lastId = lastEventId;
  }

  get lastEventId(): string {
    return this.lastId;
  }

  /** The events completed by this chunk, in order. Comments (`: heartbeat`) yield nothing. */
  push(chunk: string): SseEvent[] {
    // A CRLF split across chunks: the LF after a CR that ended the last chunk ends no second line.
    const text = this.sawCr && chunk.startsWith('\n') ? chunk.slice(1) : chunk;
    const buf = this.buffer + text;
    const out: SseEvent[] = [];
    // Scanned by index: a chunk of thousands of lines is read once, not re-sliced per line.
    let pos = 0;
    for (;;) {
      const lf = buf.indexOf('\n', pos);
      const cr = buf.indexOf('\r', pos);
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        end = cr;
        next = buf[cr + 1] === '\n' ? cr + 2 : cr + 1;
      } else if (lf !== -1) {
        end = lf;
        next = lf + 1;
      } else break;
      this.line(buf.slice(pos, end), out);
      pos = next;
    }
    this.sawCr = pos === buf.length && buf.endsWith('\r');
    this.buffer = buf.slice(pos);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) {
        out.push({ event: this.event || 'message', data: this.data.join('\n'), lastEventId: this.lastId });
      }
      this.data = [];
      this.event = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.lastId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
  }
}
