import { describe, expect, it } from 'vitest';
import { memoryStore } from './store';

/** The in-memory key-value store: the same rules as the file-backed one, nothing on disk. */
describe('the in-memory store', () => {
  it('keeps what was set under its key until it is deleted, and names no file', () => {
    const store = memoryStore();
    expect(store.path).toBe(':memory:');
    store.set('b', { n: 2 });
    store.set('a', [1, 'one']);
    expect(store.get('a')).toEqual([1, 'one']);
    expect(store.get('b')).toEqual({ n: 2 });
    expect(store.get('missing')).toBeUndefined();
    store.delete('a');
    expect(store.get('a')).toBeUndefined();
    expect(store.get('b')).toEqual({ n: 2 });
  });

  it('stores copies: changing a value after setting it, or what get returned, changes nothing stored', () => {
    const store = memoryStore();
    const value = { list: ['x'] };
    store.set('k', value);
    value.list.push('set-later');
    const read = store.get('k') as { list: string[] };
    read.list.push('read-later');
    expect(store.get('k')).toEqual({ list: ['x'] });
  });
});
