import { describe, expect, it } from 'vitest';
import { streamBody } from './define';

/** A streaming operation's result is checked only for being a stream of chunks. */
describe('stream bodies', () => {
  const schema = streamBody();

  async function* chunks() {
    yield 'a';
  }

  it('an object with chunks is a stream body, with or without its optional facts', () => {
    expect(schema.safeParse({ contentType: 'text/plain', chunks: chunks() }).success).toBe(true);
    expect(schema.safeParse({ chunks: [] }).success).toBe(true);
  });

  it('anything without chunks is refused: another object, null, text, a function', () => {
    const fn = Object.assign(() => undefined, { chunks: chunks() });
    for (const value of [{ contentType: 'text/plain' }, null, undefined, 'chunks', 42, fn]) {
      expect(schema.safeParse(value).success).toBe(false);
    }
  });
});
