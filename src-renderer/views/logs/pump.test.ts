import { describe, expect, it } from 'vitest';
import type { LogStream } from '../../api/log-stream';
import type { ViewStats } from './model';
import { MAX_IN_FLIGHT, pump } from './pump';

const STATS: ViewStats = {
  total: 0,
  rows: 0,
  matches: 0,
  searching: false,
  sources: 1,
  dropped: 0,
  structured: 0,
};

function fakeStream(chunks: number) {
  const state = { pulled: 0, cancelled: false };
  const stream: LogStream = {
    next: async () => (state.cancelled || state.pulled >= chunks ? null : `chunk ${state.pulled++}\n`),
    cancel: () => {
      state.cancelled = true;
    },
  };
  return { state, stream };
}

describe('pump', () => {
  it('stops reading the stream while the worker has MAX_IN_FLIGHT chunks to parse', async () => {
    const { state, stream } = fakeStream(100);
    const release: (() => void)[] = [];
    const buffer = {
      ingest: () => new Promise<ViewStats>((resolve) => release.push(() => resolve(STATS))),
    };
    const done = pump(stream, buffer, () => {}, new AbortController().signal);
    await new Promise((r) => setTimeout(r, 10));
    expect(state.pulled).toBe(MAX_IN_FLIGHT);
    while (state.pulled < 100 || release.length > 0) {
      release.shift()?.();
      await new Promise((r) => setTimeout(r, 0));
    }
    await done;
    expect(state.pulled).toBe(100);
  });

  it('cancels the stream on abort', async () => {
    const { state, stream } = fakeStream(1_000);
    const abort = new AbortController();
    let seen = 0;
    const done = pump(stream, { ingest: async () => STATS }, () => seen++, abort.signal);
    abort.abort();
    await done;
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(1_000);
  });
});
