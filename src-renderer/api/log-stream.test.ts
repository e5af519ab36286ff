import { afterEach, describe, expect, it } from 'vitest';
import type { LogStreamBridge, LogStreamDown, LogStreamOpen } from '../../src-shared/ipc/log-stream';
import { ApiError } from './client';
import { openLogStream } from './log-stream';

/** What main would do: send `open`, then one chunk per credit, then `end`. */
function fakeMain(chunks: string[], fail?: LogStreamDown) {
  const state = { opened: null as LogStreamOpen | null, granted: 0, sent: 0, cancelled: false };
  const bridge: LogStreamBridge = {
    open(request, onMessage) {
      state.opened = request;
      let credit = request.credit;
      const pumpOut = () => {
        while (credit > 0 && state.sent < chunks.length) {
          credit--;
          onMessage({ type: 'chunk', data: chunks[state.sent++]! });
        }
        if (state.sent === chunks.length) onMessage({ type: 'end' });
      };
      queueMicrotask(() => {
        if (fail) return onMessage(fail);
        onMessage({ type: 'open' });
        pumpOut();
      });
      return {
        credit(n) {
          state.granted += n;
          credit += n;
          queueMicrotask(pumpOut);
        },
        cancel() {
          state.cancelled = true;
        },
      };
    },
  };
  return { state, bridge };
}

const TARGET = {
  workspaceId: 'default',
  clusterId: 'demo',
  namespace: 'shop',
  resourceType: 'pod' as const,
  name: 'p',
};

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

describe('openLogStream over IPC', () => {
  it('grants one credit per chunk consumed and ends with null', async () => {
    const chunks = Array.from({ length: 10 }, (_, i) => `{"n":${i}}\n`);
    const { state, bridge } = fakeMain(chunks);
    (globalThis as { window?: unknown }).window = { skiffLogs: bridge };
    const stream = await openLogStream(TARGET, { follow: 'true', container: 'app', tailLines: '' });
    expect(state.opened).toMatchObject({
      params: { resourceType: 'pod', resourceName: 'p', namespace: 'shop' },
      query: { follow: 'true', container: 'app' },
    });
    expect(state.sent).toBe(state.opened!.credit);
    const got: string[] = [];
    for (let c = await stream.next(); c !== null; c = await stream.next()) got.push(c);
    expect(got).toEqual(chunks);
    expect(state.granted).toBe(10);
  });

  it('rejects with the problem when main refuses', async () => {
    const problem = {
      type: 't',
      title: 'Bad Request',
      status: 400,
      detail: 'is waiting to start',
      code: 'log_unavailable' as const,
    };
    const { bridge } = fakeMain([], { type: 'error', problem });
    (globalThis as { window?: unknown }).window = { skiffLogs: bridge };
    const err = await openLogStream(TARGET, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).problem.detail).toBe('is waiting to start');
  });

  it('cancel reaches main', async () => {
    const { state, bridge } = fakeMain(['a\n', 'b\n']);
    (globalThis as { window?: unknown }).window = { skiffLogs: bridge };
    const stream = await openLogStream(TARGET, {});
    stream.cancel();
    expect(state.cancelled).toBe(true);
    expect(await stream.next()).toBe('a\n');
  });
});
