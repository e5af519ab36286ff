import { describe, expect, it } from 'vitest';
import { expireEvents } from './event-ttl';
import { type Change, SimStore } from './store';
import { rfc3339 } from './time';

describe('event TTL', () => {
  it('deletes the events last seen at least the TTL ago, sending DELETED, and keeps the others', () => {
    let now = Date.parse('2026-03-01T12:00:00Z');
    const store = new SimStore(() => now);
    const add = (name: string, agoMs: number) =>
      store.addEvent({
        involvedObject: { kind: 'Pod', name, namespace: 'shop', uid: `uid-${name}` },
        reason: 'Tested',
        message: name,
        firstTimestamp: rfc3339(now - agoMs),
        lastTimestamp: rfc3339(now - agoMs),
      });
    // Scrambled ages, so the order of the store is not the order of expiry.
    for (const [name, ago] of [
      ['b', 5_000],
      ['a', 40_000],
      ['d', 30_000],
      ['c', 1_000],
    ] as const)
      add(name, ago);
    const seen: Change[] = [];
    store.subscribe('events', (c) => seen.push(c));

    expect(expireEvents(store, 30_000)).toBe(2);
    expect(seen.map((c) => [c.type, (c.object as { message?: string }).message])).toEqual([
      ['DELETED', 'a'],
      ['DELETED', 'd'],
    ]);
    expect(
      (store.list('events') as unknown as Array<{ message: string }>).map((e) => e.message).sort(),
    ).toEqual(['b', 'c']);

    // A bump renews an event: it is judged by its last occurrence, not its first.
    const b = store.list('events').find((e) => (e as { message?: string }).message === 'b')!;
    now += 20_000;
    store.bumpEvent('shop', b.metadata.name);
    now += 15_000;
    expect(expireEvents(store, 30_000)).toBe(1);
    expect((store.list('events') as unknown as Array<{ message: string }>).map((e) => e.message)).toEqual([
      'b',
    ]);
  });
});
