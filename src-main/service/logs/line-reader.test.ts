import { describe, expect, it } from 'vitest';
import { LineReader, MAX_LINE_BYTES } from './line-reader';

const write = (r: LineReader, text: string) =>
  new Promise<void>((resolve) => r.writable.write(Buffer.from(text), () => resolve()));

describe('LineReader', () => {
  it('splits lines across chunks and multi-byte characters', async () => {
    const r = new LineReader();
    const bytes = Buffer.from('a\nbé\nc');
    await write(r, 'x');
    r.writable.write(bytes.subarray(0, 5)); // cuts é in half
    r.writable.end(bytes.subarray(5));
    const out: string[] = [];
    for (let b = await r.next(); b !== null; b = await r.next()) out.push(...b);
    expect(out).toEqual(['xa', 'bé', 'c']);
  });

  it('holds the producer while the consumer lags, and releases it when read', async () => {
    const r = new LineReader(1_000);
    let released = 0;
    const line = `${'x'.repeat(99)}\n`;
    for (let i = 0; i < 30; i++) r.writable.write(line, () => released++);
    await new Promise((resolve) => setImmediate(resolve));
    // 1,000 bytes of high water: the 10th write is held, and with it everything queued behind it.
    expect(released).toBe(9);
    let read = 0;
    while (released < 30) {
      const batch = await r.next();
      read += batch!.length;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(read).toBeLessThan(30);
  });

  it('cuts a line that never ends', async () => {
    const r = new LineReader();
    r.writable.write('y'.repeat(MAX_LINE_BYTES + 10));
    const batch = await r.next();
    expect(batch![0]!.length).toBe(MAX_LINE_BYTES + 10);
  });

  it('ends a waiting consumer and a held producer on close', async () => {
    const r = new LineReader(10);
    let released = false;
    r.writable.write('0123456789abcdef\n', () => {
      released = true;
    });
    const first = await r.next();
    expect(first).toEqual(['0123456789abcdef']);
    const pending = r.next();
    r.end();
    expect(await pending).toBeNull();
    expect(released).toBe(true);
  });
});
