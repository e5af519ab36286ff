import { describe, expect, it } from 'vitest';
import { parseServeArgs } from './args';

describe('serve --max-event-watches', () => {
  it('defaults to 8 and reads a whole number from 1 to 100', () => {
    expect(parseServeArgs([], { dataDir: '/d' }).maxEventWatches).toBe(8);
    expect(parseServeArgs(['--max-event-watches', '3'], { dataDir: '/d' }).maxEventWatches).toBe(3);
    for (const bad of ['0', '101', '2.5', 'many'])
      expect(() => parseServeArgs(['--max-event-watches', bad], { dataDir: '/d' })).toThrow(/from 1 to 100/);
  });
});
