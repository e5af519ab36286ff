import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { negotiate, sendStream } from './stream';

const PRODUCES = ['text/plain', 'application/x-ndjson'];

describe('negotiate', () => {
  it('defaults to the first type and honours q values and wildcards', () => {
    expect(negotiate(undefined, PRODUCES)).toBe('text/plain');
    expect(negotiate('*/*', PRODUCES)).toBe('text/plain');
    expect(negotiate('application/x-ndjson', PRODUCES)).toBe('application/x-ndjson');
    expect(negotiate('text/plain;q=0.5, application/*', PRODUCES)).toBe('application/x-ndjson');
    expect(negotiate('application/json, text/*;q=0.1', PRODUCES)).toBe('text/plain');
  });

  it('refuses with 406 when nothing matches', () => {
    expect(() => negotiate('application/json', PRODUCES)).toThrow(ProblemError);
    expect(() => negotiate('text/plain;q=0', PRODUCES)).toThrow(
      /answers text\/plain or application\/x-ndjson/,
    );
  });
});

/** A response whose socket is full until `drain()` is called. */
class SlowResponse extends EventEmitter {
  written: string[] = [];
  destroyed = false;
  ended = false;
  full = true;
  writeHead() {
    return this;
  }
  flushHeaders() {}
  write(chunk: string) {
    this.written.push(chunk);
    return !this.full;
  }
  end() {
    this.ended = true;
  }
}

describe('sendStream', () => {
  it('pulls the next chunk only after the socket drained', async () => {
    let pulled = 0;
    async function* chunks() {
      for (let i = 0; i < 3; i++) {
        pulled++;
        yield `chunk ${i}\n`;
      }
    }
    const res = new SlowResponse();
    const done = sendStream(
      res as unknown as ServerResponse,
      200,
      { contentType: 'text/plain', chunks: chunks() },
      false,
      {},
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(pulled).toBe(1);
    res.emit('drain');
    await new Promise((r) => setTimeout(r, 20));
    expect(pulled).toBe(2);
    res.full = false;
    res.emit('drain');
    await done;
    expect(res.written).toEqual(['chunk 0\n', 'chunk 1\n', 'chunk 2\n']);
    expect(res.ended).toBe(true);
  });

  it('stops pulling and closes the source when the client goes away', async () => {
    let closed = false;
    async function* chunks() {
      try {
        for (;;) yield 'x\n';
      } finally {
        closed = true;
      }
    }
    const res = new SlowResponse();
    const done = sendStream(
      res as unknown as ServerResponse,
      200,
      { contentType: 'text/plain', chunks: chunks() },
      false,
      {},
    );
    await new Promise((r) => setTimeout(r, 10));
    res.destroyed = true;
    res.emit('close');
    await done;
    await new Promise((r) => setTimeout(r, 10));
    expect(closed).toBe(true);
    expect(res.written.length).toBe(1);
  });
});
