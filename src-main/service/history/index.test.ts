/**
 * The recorded features' lifetime: each is closed once with the service, the last made first, and
 * one that fails to close is logged without keeping the others open.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { StorageBackend } from '../storage/backend';
import { RecordingHooks } from './hooks';
import { Recorded } from './index';

describe('Recorded', () => {
  it('closes its features in reverse order of creation, logging one that fails', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (s: string) => lines.push(JSON.parse(s)) });
    const recorded = new Recorded({ backend: {} as StorageBackend, logger, now: () => 1 });
    expect(recorded.hooks).toBeInstanceOf(RecordingHooks);
    const closed: string[] = [];
    const a = recorded.own({ close: async () => void closed.push('a') });
    recorded.own({
      close: async () => {
        closed.push('broken');
        throw new Error('disk gone');
      },
    });
    recorded.own({ close: async () => void closed.push('c') });
    expect(typeof a.close).toBe('function');
    await recorded.close();
    expect(closed).toEqual(['c', 'broken', 'a']);
    const failed = lines.filter((l) => l.msg === 'a recorder did not close cleanly');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: 50 });
    expect((failed[0]!.err as { message: string }).message).toBe('disk gone');
  });
});
