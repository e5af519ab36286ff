import { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** A line longer than this is cut, so a container that never writes a newline cannot grow memory. */
export const MAX_LINE_BYTES = 1024 * 1024;

interface Batch {
  lines: string[];
  bytes: number;
}

/**
 * The hand-off between client-node's Log, which pushes bytes into a Writable, and a consumer that
 * pulls batches of lines. The Writable's write callback is held while more than `highWater`
 * bytes wait unread, so Node's pipe stops reading the response body, undici stops reading the
 * socket and TCP flow control pushes back to the apiserver: a slow consumer costs at most
 * `highWater` bytes here, never an unbounded buffer.
 */
export class LineReader {
  readonly writable: Writable;
  private readonly batches: Batch[] = [];
  private bytes = 0;
  private partial = '';
  /** Bytes received since the last complete line; they are counted with the batch that ends them. */
  private partialBytes = 0;
  private readonly decoder = new StringDecoder('utf8');
  private done = false;
  private dropped = false;
  private wake: (() => void) | null = null;
  private held: (() => void) | null = null;

  constructor(private readonly highWater = 256 * 1024) {
    this.writable = new Writable({
      highWaterMark: 64 * 1024,
      write: (chunk: Buffer, _encoding, callback) => {
        if (this.done) return callback();
        this.accept(this.decoder.write(chunk), chunk.length);
        if (this.bytes < this.highWater) callback();
        else this.held = callback;
      },
      final: (callback) => {
        const rest = this.partial + this.decoder.end();
        this.partial = '';
        if (rest !== '') this.push([rest], this.partialBytes);
        this.end();
        callback();
      },
    });
  }

  /** Whether the stream ended because the connection broke rather than at the end of the log. */
  get wasDropped(): boolean {
    return this.dropped;
  }

  /** The next batch of complete lines (without their newline), or null at the end. */
  async next(): Promise<string[] | null> {
    while (this.batches.length === 0) {
      if (this.done) return null;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    const batch = this.batches.shift()!;
    this.bytes -= batch.bytes;
    // Resume the producer only once well below the mark, so it does not stutter chunk by chunk.
    if (this.held && this.bytes < this.highWater / 2) {
      const release = this.held;
      this.held = null;
      release();
    }
    return batch.lines;
  }

  /** Ends the stream: at the end of the log, when the connection broke (`dropped`), or on close. */
  end(dropped = false): void {
    if (this.done) return;
    this.done = true;
    this.dropped = dropped;
    this.signal();
    // A held producer must not hang: its data is no longer wanted.
    const release = this.held;
    this.held = null;
    release?.();
  }

  private accept(text: string, bytes: number): void {
    this.partialBytes += bytes;
    const lines: string[] = [];
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const piece = text.slice(start, nl);
      lines.push(start === 0 ? this.partial + piece : piece);
      start = nl + 1;
    }
    const rest = text.slice(start);
    this.partial = start === 0 ? this.partial + rest : rest;
    if (this.partial.length > MAX_LINE_BYTES) {
      lines.push(this.partial);
      this.partial = '';
    }
    if (lines.length > 0) {
      this.push(lines, this.partialBytes);
      this.partialBytes = 0;
    }
  }

  private push(lines: string[], bytes: number): void {
    this.batches.push({ lines, bytes });
    this.bytes += bytes;
    this.signal();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
