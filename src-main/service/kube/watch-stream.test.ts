/**
 * A watch body read as events (watch-stream.ts), whatever chunks it arrives in.
 */
import { describe, expect, it } from 'vitest';
import { readWatchEvents, type WatchEvent } from './watch-stream';

/** A response whose body arrives in exactly these chunks. */
function responseOf(chunks: Array<string | Uint8Array>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(typeof c === 'string' ? encoder.encode(c) : c);
      controller.close();
    },
  });
  return new Response(body);
}

async function read(chunks: Array<string | Uint8Array>): Promise<{ events: WatchEvent[]; data: number }> {
  let data = 0;
  const events: WatchEvent[] = [];
  for await (const e of readWatchEvents(responseOf(chunks), () => data++)) events.push(e);
  return { events, data };
}

const line = (type: string, name: string) => `${JSON.stringify({ type, object: { metadata: { name } } })}\n`;
const names = (events: WatchEvent[]) =>
  events.map((e) => `${e.type}:${(e.object.metadata as { name?: string } | undefined)?.name}`);

describe('readWatchEvents', () => {
  it('yields one event per line, several in one chunk, in order', async () => {
    const { events } = await read([line('ADDED', 'a') + line('MODIFIED', 'a') + line('DELETED', 'b')]);
    expect(names(events)).toEqual(['ADDED:a', 'MODIFIED:a', 'DELETED:b']);
  });

  it('joins a line split across chunks, a multi-byte character split in two included', async () => {
    const text = line('ADDED', 'café-ü') + line('BOOKMARK', 'x');
    const bytes = new TextEncoder().encode(text);
    const cut = text.indexOf('é') + 1; // inside the two bytes of é
    const { events } = await read([bytes.slice(0, 5), bytes.slice(5, cut), bytes.slice(cut)]);
    expect(names(events)).toEqual(['ADDED:café-ü', 'BOOKMARK:x']);
  });

  it('skips blank lines and trims CRLF line ends', async () => {
    const { events } = await read([
      `\n${line('ADDED', 'a').replace('\n', '\r\n')}  \n\n`,
      line('ADDED', 'b'),
    ]);
    expect(names(events)).toEqual(['ADDED:a', 'ADDED:b']);
  });

  it('yields a last line the stream ends without a newline', async () => {
    const { events } = await read([line('ADDED', 'a'), line('DELETED', 'a').trimEnd()]);
    expect(names(events)).toEqual(['ADDED:a', 'DELETED:a']);
  });

  it('tells the caller of every chunk, partial lines included', async () => {
    const full = line('ADDED', 'a');
    const { data } = await read([full.slice(0, 4), full.slice(4, 9), full.slice(9), '\n']);
    expect(data).toBe(4);
  });

  it('a response without a body has no events', async () => {
    const events: WatchEvent[] = [];
    for await (const e of readWatchEvents(new Response(null), () => {})) events.push(e);
    expect(events).toEqual([]);
  });

  it.each([
    ['a type that is not a string', '{"type":1,"object":{}}'],
    ['no object', '{"type":"ADDED"}'],
    ['a null object', '{"type":"ADDED","object":null}'],
    ['an object that is a string', '{"type":"ADDED","object":"pod"}'],
    ['not JSON at all', 'oops'],
  ])('a line with %s is not a watch event', async (_, bad) => {
    await expect(read([line('ADDED', 'a'), `${bad}\n`])).rejects.toThrow();
    await expect(read([bad])).rejects.toThrow();
  });

  it('names the line that is not a watch event', async () => {
    await expect(read(['{"type":"ADDED","object":null}\n'])).rejects.toThrow(
      '{"type":"ADDED","object":null}',
    );
  });
});
