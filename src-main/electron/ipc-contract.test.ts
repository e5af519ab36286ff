import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBridge } from '../../src-preload/bridge';
import { ipcTransport } from '../../src-renderer/api/ipc-transport';
import type { SessionRecord } from '../../src-shared/contract/auth-models';
import type { Reply } from '../../src-shared/contract/define';
import { operationNames } from '../../src-shared/contract/operations';
import { IPC_INVOKE, IPC_RENEW_SESSION, type IpcOutcome } from '../../src-shared/ipc/channels';
import { createService, type Service } from '../service/index';
import { contextsFromYaml } from '../service/kube/kubeconfig';
import { silentLogger } from '../service/logger';
import { memoryStore } from '../service/storage/store';
import { APP_INDEX_URL } from './app-protocol-path';
import { DesktopSession } from './desktop-session';
import type { DesktopState, DesktopStore } from './desktop-store';
import { FakeIpc } from './fake-ipc.test-support';
import { registerIpcHandlers } from './ipc-handlers';
import { isAppUrl } from './navigation-policy';
import type { TokenVault } from './token-vault';

const APP = APP_INDEX_URL;
const memoryVault: TokenVault = { kind: 'memory', backend: 'basic_text', seal: () => null, open: () => null };

function memoryDesktopStore(): DesktopStore {
  let state = {
    window: { width: 1280, height: 820, maximized: false },
    lastView: {},
    localApi: { enabled: true, port: 7733 },
  } as DesktopState;
  return { read: () => state, update: (fn) => (state = fn(state)) };
}

let sim: Simulator;
let service: Service;
let ipc: FakeIpc;
let calls: string[];
/**
 * Rewrites the service's replies before the IPC handler maps them. The service's own staleness
 * (a broken watch) is tested over HTTP with the simulator's faults; here the handler's mapping is
 * under test, so the reply is made stale on purpose, deterministically.
 */
let doctor: ((name: string, reply: Reply<unknown>) => Reply<unknown>) | null = null;

beforeAll(async () => {
  sim = await startSimulator({ tickMs: false });
  service = createService({
    contexts: [],
    demo: contextsFromYaml(sim.kubeconfigYaml('demo'))[0]!,
    store: memoryStore(),
    logger: silentLogger(),
    adminPassword: 'ipc-test-password-1',
    auth: { passwordCost: 10, geoipDb: false },
  });
  await service.auth.ready;
  calls = [];
  const invoke: Service['invoke'] = async (name, raw, ctx) => {
    calls.push(name);
    const reply = await service.invoke(name, raw, ctx);
    return doctor ? doctor(name, reply) : reply;
  };
  const desktop = new DesktopSession({ auth: service.auth, invoke }, memoryVault, memoryDesktopStore());
  ipc = new FakeIpc();
  registerIpcHandlers(ipc, {
    invoke,
    isTrustedSender: (event) => isAppUrl(event.senderFrame?.url ?? '', APP),
    principal: () => desktop.principal(),
    renewSession: () => desktop.renew(),
  });
});
afterAll(async () => {
  await service?.close();
  await sim?.close();
});

const bridge = () =>
  buildBridge((name, input) => ipc.invoke(APP, IPC_INVOKE, name, input) as Promise<IpcOutcome<unknown>>);

describe('preload → IPC handler → service → back', () => {
  it('exposes exactly one method per contract operation', () => {
    expect(Object.keys(bridge()).sort()).toEqual([...operationNames].sort());
  });

  it('carries real data both ways', async () => {
    const b = bridge();
    const clusters = await b.listClusters({ params: { workspaceId: 'default' }, query: { limit: '5' } });
    expect(clusters).toMatchObject({ ok: true, page: { total: 1, limit: 5, offset: 0 } });
    expect((clusters as { data: Array<{ clusterId: string; status: string }> }).data[0]).toMatchObject({
      clusterId: 'demo',
      status: 'connected',
    });
    const pods = await b.listResources({
      params: { workspaceId: 'default', clusterId: 'demo', resourceType: 'Pod' },
      query: { limit: '3' },
    });
    expect(pods.ok && (pods.data as unknown[]).length).toBe(3);
  });

  it('reaches the service for every operation; only the service, not the IPC layer, answers', async () => {
    const b = bridge() as unknown as Record<string, (input: unknown) => Promise<IpcOutcome<unknown>>>;
    for (const name of operationNames) {
      if (name === 'logoutSession') continue; // would end the window's own session; covered below
      calls.length = 0;
      const outcome = await b[name]!({ params: {}, query: {} });
      expect(calls, name).toContain(name);
      // Either it worked, or the service's own validation or rules answered, never the IPC layer.
      if (!outcome.ok)
        expect(['forbidden', 'route_not_found'], `${name}: ${outcome.problem.detail}`).not.toContain(
          outcome.problem.code,
        );
    }
  });

  it('shows the window as a desktop session of this device, and logging it out takes effect at once', async () => {
    const b = bridge();
    const list = await b.listSessions({ params: {}, query: {} });
    const sessions = (list as { data: SessionRecord[] }).data;
    const mine = sessions.find((s) => s.current)!;
    expect(mine.location.label).toBe('This device');
    const out = await b.logoutSession({ params: { sessionId: mine.sessionId } });
    expect(out.ok).toBe(true);
    const after = await b.listWorkspaces({ params: {} });
    expect(after).toMatchObject({ ok: false, problem: { status: 401 } });
    await ipc.invoke(APP, IPC_RENEW_SESSION);
    expect((await b.listWorkspaces({ params: {} })).ok).toBe(true);
  });
});

describe('staleness crosses IPC as it crosses HTTP', () => {
  const podsInput = {
    params: { workspaceId: 'default', clusterId: 'demo', resourceType: 'Pod' },
    query: { limit: '3' },
  } as const;

  it('a fresh answer carries no staleSince, in the outcome or in the renderer’s reply', async () => {
    const outcome = await bridge().listResources(podsInput);
    expect(outcome.ok).toBe(true);
    expect(outcome).not.toHaveProperty('staleSince');
    const reply = await ipcTransport(bridge()).call('listResources', podsInput);
    expect(reply).not.toHaveProperty('staleSince');
  });

  it('a reply served from a broken watch reaches the renderer with its staleSince, data and page', async () => {
    const since = '2026-03-12T14:03:07.000Z';
    doctor = (name, reply) => (name === 'listResources' ? { ...reply, staleSince: since } : reply);
    try {
      const outcome = await bridge().listResources(podsInput);
      expect(outcome).toMatchObject({ ok: true, staleSince: since, page: { limit: 3, offset: 0 } });
      expect(outcome.ok && (outcome.data as unknown[]).length).toBe(3);
      // The renderer's IPC transport hands views the same shape the HTTP transport builds from
      // x-Stale-Since, x-Total, x-Limit and x-Offset.
      const reply = await ipcTransport(bridge()).call('listResources', podsInput);
      expect(reply).toMatchObject({ staleSince: since, page: { limit: 3, offset: 0 } });
      expect((reply.data as Array<{ resource: { kind: string } }>)[0]?.resource.kind).toBe('Pod');
      // Only the reply that was stale says so.
      const clusters = await bridge().listClusters({ params: { workspaceId: 'default' }, query: {} });
      expect(clusters.ok).toBe(true);
      expect(clusters).not.toHaveProperty('staleSince');
    } finally {
      doctor = null;
    }
  });
});

describe('the handler refuses', () => {
  it('a foreign sender frame', async () => {
    const outcome = (await ipc.invoke('https://evil.example/', IPC_INVOKE, 'listWorkspaces', {
      params: {},
    })) as IpcOutcome<unknown>;
    expect(outcome).toMatchObject({ ok: false, problem: { code: 'forbidden', status: 403 } });
    const renew = (await ipc.invoke('https://evil.example/', IPC_RENEW_SESSION)) as IpcOutcome<unknown>;
    expect(renew.ok).toBe(false);
  });

  it.each([
    ['an unknown operation', 'dropAllTables', { params: {} }, 'route_not_found'],
    ['a non-string operation name', 42, { params: {} }, 'route_not_found'],
    ['an input that is not an object', 'listWorkspaces', 'params', 'invalid_parameter'],
    [
      'params that are not strings',
      'listClusters',
      { params: { workspaceId: { $ne: null } } },
      'invalid_parameter',
    ],
    [
      'a bad value',
      'listClusters',
      { params: { workspaceId: 'default' }, query: { limit: '0' } },
      'invalid_pagination',
    ],
    [
      'an unknown query parameter',
      'listWorkspaces',
      { params: {}, query: { evil: '1' } },
      'unknown_query_parameter',
    ],
  ])('%s', async (_what, name, input, code) => {
    const outcome = (await ipc.invoke(APP, IPC_INVOKE, name, input)) as IpcOutcome<unknown>;
    expect(outcome).toMatchObject({ ok: false, problem: { code } });
  });

  it('a streaming operation, naming the channel the app reads that stream on', async () => {
    const cluster = { workspaceId: 'default', clusterId: 'demo' };
    const pods = await bridge().listResources({
      params: { ...cluster, resourceType: 'Pod' },
      query: { limit: '1' },
    });
    const pod = (
      pods.ok ? (pods.data as Array<{ resource: { metadata: { name: string; namespace: string } } }>) : []
    )[0]!.resource.metadata;
    const streams = [
      [
        'getLogs',
        {
          params: { ...cluster, namespace: pod.namespace, resourceType: 'pod', resourceName: pod.name },
          query: {},
        },
        'the log stream channel',
      ],
      ['watchEvents', { params: cluster, query: { watch: 'true' } }, 'the event stream channel'],
    ] as const;
    for (const [name, input, channel] of streams) {
      const outcome = (await ipc.invoke(APP, IPC_INVOKE, name, input)) as IpcOutcome<unknown>;
      expect(outcome, name).toMatchObject({ ok: false, problem: { code: 'not_acceptable' } });
      expect(!outcome.ok && outcome.problem.detail, name).toContain(channel);
    }
  });
});
