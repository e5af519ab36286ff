import { DEMO_PODS } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogLineRecord } from '../../src-shared/contract/log-models';
import type { LogStreamDown } from '../../src-shared/ipc/log-stream';
import type { Principal } from '../service/context';
import { ProblemError } from '../service/errors';
import type { Invoker } from '../service/invoke';
import { type Stack, startStack } from '../service/test-support/harness.test-support';
import { portStreamBridge } from './port-stream.test-support';
import { PORT_STREAMS } from './port-stream-ipc';

const PRINCIPAL: Principal = { accountId: 'local', workspaces: 'all', admin: true };

/** ipcMain, the preload bridge and the page, wired in one process. */
function wire(invoke: Invoker, trusted = true) {
  const bridge = portStreamBridge(
    PORT_STREAMS.logs,
    { invoke, isTrustedSender: (e) => e.trusted, principal: async () => PRINCIPAL },
    { trusted },
  );
  const open = (credit: number, query: Record<string, string> = {}) => {
    const got: LogStreamDown[] = [];
    const waiters = new Set<() => void>();
    const handle = bridge.open({ params: { p: 'x' }, query, credit }, (m) => {
      got.push(m);
      for (const w of [...waiters]) w();
    });
    const until = (check: () => boolean, ms = 3_000) =>
      new Promise<void>((resolve, reject) => {
        const t = setTimeout(
          () => reject(new Error(`timed out with ${JSON.stringify(got).slice(0, 300)}`)),
          ms,
        );
        const test = () => {
          if (check()) {
            clearTimeout(t);
            waiters.delete(test);
            resolve();
          }
        };
        waiters.add(test);
        test();
      });
    return { got, handle, until };
  };
  return { open };
}

function counted(total: number) {
  const state = { pulled: 0, closed: false, signal: null as AbortSignal | null };
  const invoke: Invoker = async (_name, _raw, ctx) => {
    state.signal = ctx.signal;
    expect(ctx.mediaType).toBe('application/x-ndjson');
    async function* chunks() {
      try {
        for (let i = 0; i < total; i++) {
          state.pulled++;
          yield `{"n":${i}}\n`;
        }
      } finally {
        state.closed = true;
      }
    }
    return { data: { contentType: 'application/x-ndjson', chunks: chunks() } };
  };
  return { state, invoke };
}

const tick = () => new Promise((r) => setTimeout(r, 30));

describe('log stream over IPC', () => {
  it('sends only as many chunks as the renderer granted', async () => {
    const { state, invoke } = counted(100);
    const { got, handle, until } = wire(invoke).open(3);
    await until(() => got.filter((m) => m.type === 'chunk').length === 3);
    await tick();
    expect(got[0]).toEqual({ type: 'open' });
    expect(got.filter((m) => m.type === 'chunk')).toHaveLength(3);
    // The generator is parked after the granted chunks: at most the next one was started.
    expect(state.pulled).toBeLessThanOrEqual(4);
    for (let i = 0; i < 97; i += 10) handle.credit(10);
    await until(() => got.at(-1)?.type === 'end');
    expect(got.filter((m) => m.type === 'chunk')).toHaveLength(100);
    expect(state.closed).toBe(true);
  });

  it('a cancel aborts the stream and its cluster request', async () => {
    const { state, invoke } = counted(1_000);
    const { got, handle, until } = wire(invoke).open(2);
    await until(() => got.filter((m) => m.type === 'chunk').length === 2);
    handle.cancel();
    await tick();
    expect(state.signal?.aborted).toBe(true);
    expect(state.closed).toBe(true);
    expect(state.pulled).toBeLessThan(10);
  });

  it('a refusal before the stream starts arrives as a problem', async () => {
    const invoke: Invoker = async () => {
      throw new ProblemError('log_unavailable', 'container "app" is waiting to start: ImagePullBackOff');
    };
    const { got, until } = wire(invoke).open(4);
    await until(() => got.length > 0);
    expect(got).toEqual([
      { type: 'error', problem: expect.objectContaining({ status: 400, code: 'log_unavailable' }) },
    ]);
  });

  it('refuses untrusted senders and malformed requests', async () => {
    const { invoke } = counted(1);
    const untrusted = wire(invoke, false).open(4);
    await untrusted.until(() => untrusted.got.length > 0);
    expect(untrusted.got[0]).toMatchObject({ type: 'error', problem: { code: 'forbidden' } });
    const bad = wire(invoke).open(MAX_CREDIT_PLUS_ONE);
    await bad.until(() => bad.got.length > 0);
    expect(bad.got[0]).toMatchObject({ type: 'error', problem: { code: 'invalid_parameter' } });
  });
});

const MAX_CREDIT_PLUS_ONE = 65;

describe('log stream over IPC, against the simulator', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => stack?.close());

  it('follows a pod through the real operation', async () => {
    const { payments } = DEMO_PODS;
    const bridge = portStreamBridge(
      PORT_STREAMS.logs,
      { invoke: stack.service.invoke, isTrustedSender: () => true, principal: async () => PRINCIPAL },
      {},
    );
    const lines: LogLineRecord[] = [];
    let resolveSeen: () => void = () => {};
    const seen = new Promise<void>((r) => (resolveSeen = r));
    let resolveOpen: () => void = () => {};
    const opened = new Promise<void>((r) => (resolveOpen = r));
    const handle = bridge.open(
      {
        params: {
          workspaceId: 'default',
          clusterId: 'sim-test',
          namespace: payments.namespace,
          resourceType: 'pod',
          resourceName: payments.name,
        },
        query: { follow: 'true', tailLines: '0' },
        credit: 4,
      },
      (m) => {
        if (m.type === 'open') resolveOpen();
        if (m.type === 'error') console.error(m.problem);
        if (m.type !== 'chunk') return;
        handle.credit(1);
        for (const l of m.data.split('\n').filter(Boolean)) lines.push(JSON.parse(l) as LogLineRecord);
        if (lines.some((l) => l.raw === 'over ipc')) resolveSeen();
      },
    );
    await opened;
    stack.sim.store.appendLog(payments.namespace, payments.name, payments.container, 'over ipc');
    await seen;
    handle.cancel();
    expect(lines.map((l) => l.raw)).toEqual(['over ipc']);
  });
});
