import pino from 'pino';
import { expect, it } from 'vitest';
import { sealable } from './sealed-store';
import { memoryStore } from './store';

/** A store sealed when its service closed: writes and deletes are dropped and logged, reads go on. */

function capturingLogger() {
  const lines: Array<{ level: number; msg: string; path?: string; key?: string }> = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

it('a sealed store drops writes and deletes, logging each with its key, and still answers reads', () => {
  const { logger, lines } = capturingLogger();
  const inner = memoryStore();
  const store = sealable(inner, logger);
  store.set('kept', 1);
  store.set('removed', 2);
  store.delete('removed');
  expect([inner.get('kept'), inner.get('removed')]).toEqual([1, undefined]);
  expect(lines).toEqual([]);

  store.seal();
  store.set('late-write', 3);
  store.set('kept', 4);
  store.delete('kept');
  expect([inner.get('late-write'), inner.get('kept')]).toEqual([undefined, 1]);
  expect(store.get('kept')).toBe(1);
  expect(lines.map((l) => [l.level, l.path, l.key])).toEqual([
    [40, ':memory:', 'late-write'],
    [40, ':memory:', 'kept'],
    [40, ':memory:', 'kept'],
  ]);
  // The log tells a dropped write from a dropped delete.
  expect(lines[1]!.msg).toMatch(/^write /);
  expect(lines[2]!.msg).toMatch(/^delete /);
});
