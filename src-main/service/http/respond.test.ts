import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type SerialisedJson, sendJson } from './respond';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Serves one serialised body over real HTTP and reads it back as bytes. */
async function roundTrip(body: SerialisedJson): Promise<{ text: string; length: string | null }> {
  server = createServer((_req, res) => sendJson(res, 200, undefined, {}, undefined, body));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}/`);
  const bytes = Buffer.from(await res.arrayBuffer());
  return { text: bytes.toString('utf8'), length: res.headers.get('content-length') };
}

describe('sendJson with serialised elements', () => {
  it('writes each element between the wrap, as one JSON array, with an exact Content-Length', async () => {
    const { text, length } = await roundTrip({
      json: ['{"a":1}', '{"b":2}'],
      jsonWrap: { prefix: '{"w":', suffix: '}' },
    });
    expect(JSON.parse(text)).toEqual([{ w: { a: 1 } }, { w: { b: 2 } }]);
    expect(Number(length)).toBe(Buffer.byteLength(text));
  });

  it('keeps every byte of texts far from ASCII, however many elements run past the first buffer', async () => {
    // Each element is all two-, three- and four-byte characters: several times its length in bytes.
    const elements = Array.from({ length: 200 }, (_, i) => JSON.stringify(`é€😀${'ü'.repeat(i % 37)}`));
    const { text, length } = await roundTrip({ json: elements, jsonWrap: { prefix: '{"x":', suffix: '}' } });
    expect(JSON.parse(text)).toEqual(elements.map((e) => ({ x: JSON.parse(e) })));
    expect(Number(length)).toBe(Buffer.byteLength(text));
  });

  it('answers an empty array for no elements', async () => {
    const { text, length } = await roundTrip({ json: [] });
    expect(text).toBe('[]');
    expect(length).toBe('2');
  });
});
