/**
 * A kept run's lines in the desktop app (issue 27 §3): getKeptLog over its own port stream
 * channel, read by the renderer's bridgeRunText, answers what /v1 answers over HTTP; a run not
 * kept is the same problem; the channel is refused on invoke naming itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeRunText } from '../../src-renderer/api/kept-logs';
import type { KeptRunRecord } from '../../src-shared/contract/kept-log-operations';
import { IPC_KEPT_LOG_STREAM } from '../../src-shared/ipc/kept-log-stream';
import type { Principal } from '../service/context';
import { addNamespace, addPod, uniqueName, write } from '../service/logs/fixtures.test-support';
import { eventually } from '../service/test-support/eventually.test-support';
import { CLUSTER_ID, type Stack, startStack } from '../service/test-support/harness.test-support';
import { portStreamBridge } from './port-stream.test-support';
import { PORT_STREAMS } from './port-stream-ipc';

let stack: Stack;
let principal: Principal;
beforeAll(async () => {
  stack = await startStack();
  const found = await stack.service.auth.principalForAccessToken(stack.session.accessToken);
  if (!found) throw new Error('the admin session has no principal');
  principal = found;
  expect((await stack.get(`${stack.cluster}/kubernetes-proxy/pod?limit=1`)).status).toBe(200);
});
afterAll(async () => stack?.close());

const bridge = () =>
  portStreamBridge(
    PORT_STREAMS.keptLogs,
    { invoke: stack.service.invoke, isTrustedSender: () => true, principal: async () => principal },
    {},
  );

describe('kept log stream over IPC', () => {
  it('is its own channel serving getKeptLog', () => {
    expect(PORT_STREAMS.keptLogs).toEqual({ channel: IPC_KEPT_LOG_STREAM, operation: 'getKeptLog' });
    expect(IPC_KEPT_LOG_STREAM).toBe('skiff:kept-log-stream');
  });

  it('answers a kept run as HTTP does, with and without timestamps; a run not kept is its problem', async () => {
    const ns = addNamespace(stack, 'kept-ipc');
    const pod = uniqueName('crash');
    addPod(stack, ns, pod, { containers: ['app'] });
    write(stack, ns, pod, 'app', 'first', 'second: boom');
    stack.sim.store.restartContainer(ns, pod, 'app', { exitCode: 1 });
    const path = `${stack.cluster}/kubernetes-proxy/namespaces/${ns}/pod/${pod}/kept-logs`;
    await eventually(
      async () => expect((await stack.get<KeptRunRecord[]>(path)).body).toHaveLength(1),
      15_000,
    );
    const params = {
      workspaceId: 'default',
      clusterId: CLUSTER_ID,
      namespace: ns,
      resourceName: pod,
      container: 'app',
      restartCount: '0',
    };
    const plain = await bridgeRunText(bridge(), params, {}, false);
    expect(plain).toBe('first\nsecond: boom\n');
    expect(plain).toBe((await stack.get<string>(`${path}/app/0`)).body);
    const stamped = await bridgeRunText(bridge(), params, { timestamps: 'true' }, true);
    expect(stamped).toBe((await stack.get<string>(`${path}/app/0?timestamps=true`)).body);
    expect(stamped).toMatch(/^\d{4}-[^ ]+Z first\n/);
    await expect(bridgeRunText(bridge(), { ...params, restartCount: '7' }, {}, false)).rejects.toMatchObject({
      problem: { status: 404, code: 'resource_not_found' },
    });
  });
});
