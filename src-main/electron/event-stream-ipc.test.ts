import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followEvents, ipcWatchTransport, type WatchState } from '../../src-renderer/api/event-stream';
import { LiveEvents } from '../../src-renderer/api/event-stream-model';
import type { EventWatchRecord } from '../../src-shared/contract/event-watch-operations';
import type { EventRecord } from '../../src-shared/contract/models';
import type { Principal } from '../service/context';
import { ProblemError } from '../service/errors';
import { addEvent } from '../service/events/watch/event-watch.test-support';
import { eventually } from '../service/test-support/eventually.test-support';
import { CLUSTER_ID, collectAll, type Stack, startStack } from '../service/test-support/harness.test-support';
import { portStreamBridge } from './port-stream.test-support';
import { PORT_STREAMS } from './port-stream-ipc';

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
  const bridge = portStreamBridge(
    PORT_STREAMS.events,
    {
      invoke: stack.service.invoke,
      isTrustedSender: () => true,
      principal: async () => {
        if (loggedOut) throw new ProblemError('invalid_token', 'this device was logged out');
        return principal;
      },
    },
    {},
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
