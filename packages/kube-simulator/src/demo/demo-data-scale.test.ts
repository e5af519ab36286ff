import { describe, expect, it } from 'vitest';
import { buildDemo } from './';

describe('the scaled demo cluster (the bench’s 50,000-pod point)', () => {
  it('gives every object its own uid, and owner references still name their owners', () => {
    const { objects } = buildDemo({
      seed: 42,
      now: Date.parse('2026-11-24T00:00:00Z'),
      scale: { pods: 50_000, events: 100_000 },
    });
    expect(objects.filter((o) => o.kind === 'Pod')).toHaveLength(50_000);
    expect(objects.filter((o) => o.kind === 'Event')).toHaveLength(100_000);
    const byUid = new Map(objects.map((o) => [o.metadata.uid, o]));
    expect(byUid.size).toBe(objects.length);
    for (const o of objects)
      for (const ref of o.metadata.ownerReferences ?? [])
        expect(byUid.get(ref.uid)?.metadata.name, `${o.kind} ${o.metadata.name} → ${ref.kind}`).toBe(
          ref.name,
        );
  }, 60_000);
});
