import { EventEmitter } from 'node:events';
import { MessageChannel, type MessagePort as NodePort } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLogStreamBridge } from '../../src-preload/log-stream';
import { followEvents, ipcWatchTransport, type WatchState } from '../../src-renderer/api/event-stream';
import { LiveEvents } from '../../src-renderer/api/event-stream-model';
import type { EventWatchRecord } from '../../src-shared/contract/event-watch-operations';
import type { EventRecord } from '../../src-shared/contract/models';
import { IPC_EVENT_STREAM } from '../../src-shared/ipc/event-stream';
import type { Principal } from '../service/context';
import { ProblemError } from '../service/errors';
import { addEvent } from '../service/test/event-watch.test-support';
import { eventually } from '../service/test/eventually';
import { CLUSTER_ID, collectAll, type Stack, startStack } from '../service/test/harness';
import { registerEventStreamIpc } from './event-stream-ipc';
import type { PortEventLike, PortLike } from './log-stream-ipc';

/** Electron's MessagePortMain hands listeners `{ data }`; a Node port hands the value itself. */
function mainPort(port: NodePort): PortLike {
  return {
    on(event: 'message' | 'close', listener: (e: { data: unknown }) => void) {
      if (event === 'message') port.on('message', (data: unknown) => listener({ data }));
      else port.on('close', () => (listener as () => void)());
      return this;
    },
    postMessage: (m) => port.postMessage(m),
    start: () => port.start(),
    close: () => port.close(),
  } as PortLike;
}

let stack: Stack;
let principal: Principal;
let loggedOut = false;
beforeAll(async () => {
  stack = await startStack({ service: { eventWatch: { credentialCheckMs: 100 } } });
  principal = await stack.service.auth.principalForAccessToken(stack.session.accessToken);
});
afterAll(async () => stack?.close());

/** ipcMain with the event stream registered, the preload's bridge, and the renderer's transport. */
function wire() {
  const ipcMain = new EventEmitter();
  registerEventStreamIpc<PortEventLike>(ipcMain, {
    invoke: stack.service.invoke,
    isTrustedSender: () => true,
    principal: async () => {
      if (loggedOut) throw new ProblemError('invalid_token', 'this device was logged out');
      return principal;
    },
  });
  const bridge = buildLogStreamBridge(
    (request, port) =>
      ipcMain.emit(IPC_EVENT_STREAM, { ports: [mainPort(port as unknown as NodePort)] }, request),
    () => new MessageChannel() as unknown as { port1: MessagePort; port2: MessagePort },
  );
  return ipcWatchTransport(bridge);
}

describe('event watch over IPC', () => {
  it('delivers the state and then the changes through a MessagePort, and ends with the desktop session', async () => {
    const listed = await collectAll<EventRecord>(stack, `${stack.cluster}/kubernetes-events?limit=1000`);
    const live = new LiveEvents();
    const states: WatchState[] = [];
    const records: EventWatchRecord[] = [];
    const follow = followEvents(
      wire(),
      { workspaceId: 'default', clusterId: CLUSTER_ID },
      {},
      {
        records(r) {
          records.push(...r);
          live.apply(r);
        },
        state: (s) => states.push(s),
      },
    );
    try {
      await eventually(async () => expect(live.synced).toBe(true));
      expect(live.size).toBe(listed.length);
      const id = addEvent(stack, { reason: 'OverIpc' });
      await eventually(async () => expect(live.first(live.size).some((e) => e.eventId === id)).toBe(true));
      expect(records.some((r) => r.type === 'ADDED' && r.id !== undefined && r.event.eventId === id)).toBe(
        true,
      );

      loggedOut = true;
      await eventually(async () => {
        const down = states.filter((s) => s.kind === 'down');
        expect(down.length).toBeGreaterThan(0);
        expect(down[0]!.kind === 'down' && down[0]!.problem.code).toBe('invalid_token');
      });
    } finally {
      follow.close();
      loggedOut = false;
    }
    await eventually(async () => expect(stack.service.openEventWatches()).toBe(0));
  });
});
