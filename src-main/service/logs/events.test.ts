import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { markerEvent, sleep } from './events';

describe('markerEvent', () => {
  it('carries an entry that merges and filters like an unlevelled plain line at the marker time', () => {
    const e = markerEvent('web-1', 'app', 'restarted', 1_700_000_000_123, 'container app restarted', {
      restartCount: 2,
    });
    expect(e.pod).toBe('web-1');
    expect(e.container).toBe('app');
    expect(e.marker).toEqual({
      type: 'marker',
      pod: 'web-1',
      container: 'app',
      event: 'restarted',
      time: 1_700_000_000_123,
      message: 'container app restarted',
      restartCount: 2,
    });
    expect(e.entry).toEqual({
      ts: 1_700_000_000_123,
      tsText: undefined,
      level: 'UNKNOWN',
      message: 'container app restarted',
      raw: 'container app restarted',
      format: 'plain',
      fields: undefined,
    });
  });

  it('a marker without extras has none of their fields', () => {
    const { marker } = markerEvent('p', 'c', 'pod-deleted', 5, 'pod p was deleted');
    expect(Object.keys(marker!).sort()).toEqual(['container', 'event', 'message', 'pod', 'time', 'type']);
  });
});

/** Lets promise callbacks that are already due run, without moving any clock. */
const settled = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('sleep', () => {
  it('waits the given time', async () => {
    const started = performance.now();
    await sleep(60, new AbortController().signal);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('ends early when the signal aborts, and at once when it already has', async () => {
    // On a clock only the test moves: which waits have ended is a state, not a race with time.
    vi.useFakeTimers();
    try {
      const abort = new AbortController();
      let ended = false;
      void sleep(10_000, abort.signal).then(() => {
        ended = true;
      });
      await vi.advanceTimersByTimeAsync(9_999);
      expect(ended).toBe(false);
      abort.abort();
      await settled();
      expect(ended).toBe(true);

      let again = false;
      void sleep(10_000, abort.signal).then(() => {
        again = true;
      });
      await settled();
      expect(again).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an abort clears the timer: a stream that ended holds no wait for later', async () => {
    vi.useFakeTimers();
    try {
      const abort = new AbortController();
      const waiting = sleep(60_000, abort.signal);
      expect(vi.getTimerCount()).toBe(1);
      abort.abort();
      await waiting;
      expect(vi.getTimerCount()).toBe(0);
      expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves no listener on the signal once it is over', async () => {
    const abort = new AbortController();
    await sleep(5, abort.signal);
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
  });
});
