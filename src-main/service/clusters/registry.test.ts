/**
 * The cluster registry's own rules, over an in-memory store: which id each context gets and keeps
 * across starts, who sees which workspace and cluster, the refusals of workspace changes, the
 * monitoring flags, snapshot clusters that live one run, and the idle sweep's timer. No cluster is
 * asked anything: a connection only talks when a request reads it.
 */

import { kubeconfigYaml } from '@skiff/kube-simulator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RESOURCE_KINDS } from '../../../src-shared/kube/kinds';
import type { Principal } from '../context';
import { ProblemError } from '../errors';
import { type ContextSource, contextsFromYaml } from '../kube/kubeconfig';
import { silentLogger } from '../logger';
import { type KeyValueStore, memoryStore } from '../storage/store';
import { problemOf } from '../test-support/rejections.test-support';
import { saveWorkspaceConfig, type WorkspaceConfig } from '../workspaces/config';
import { ClusterConnection } from './cluster';
import { memoryFrozen, NINE_ROWS } from './frozen.test-support';
import { ClusterRegistry, type RegistryOptions } from './registry';

const source = (contextName: string): ContextSource =>
  contextsFromYaml(kubeconfigYaml({ server: 'http://127.0.0.1:9', contextName, user: { token: 't' } }))[0]!;

const ADMIN: Principal = { accountId: 'admin', admin: true, workspaces: 'all' };
const member = (...workspaces: string[]): Principal => ({ accountId: 'm', workspaces });

let open: ClusterRegistry[] = [];
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await Promise.all(open.map((r) => r.close()));
  open = [];
});

function registry(contexts: string[], over: Partial<RegistryOptions> = {}): ClusterRegistry {
  const r = new ClusterRegistry({
    contexts: contexts.map(source),
    store: memoryStore(),
    logger: silentLogger(),
    timeoutMs: 1_000,
    ...over,
  });
  open.push(r);
  return r;
}

/** The problem `run` throws; anything else fails the test. */
function thrownBy(run: () => unknown): ProblemError {
  try {
    run();
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  throw new Error('expected a problem');
}

const ids = (clusters: readonly ClusterConnection[]) => clusters.map((c) => c.clusterId).sort();

/** A store that counts its writes. */
function countingStore(): KeyValueStore & { writes: () => number } {
  const inner = memoryStore();
  let writes = 0;
  return {
    path: inner.path,
    get: (k) => inner.get(k),
    set: (k, v) => {
      writes++;
      inner.set(k, v);
    },
    delete: (k) => inner.delete(k),
    writes: () => writes,
  };
}

describe('cluster ids', () => {
  it('are slugs of the context names, the demo cluster is `demo`, and they are saved', () => {
    const store = countingStore();
    const r = registry(['Prod EU', 'staging'], { store, demo: source('demo') });
    expect(ids(r.allClusters())).toEqual(['demo', 'prod-eu', 'staging']);
    expect(store.writes()).toBe(1);
  });

  it('a context named `demo` beside the demo cluster gets an id of its own', () => {
    const r = registry(['demo'], { demo: source('demo') });
    expect(ids(r.allClusters())).toEqual(['demo', expect.stringMatching(/^demo-[0-9a-f]{6}$/)]);
  });

  it('are kept across starts, whatever order the contexts come in, and nothing is written when none is new', () => {
    const store = countingStore();
    registry(['b-ctx', 'a ctx'], { store });
    const before = store.writes();
    const again = registry(['a ctx', 'b-ctx'], { store });
    expect(ids(again.allClusters())).toEqual(['a-ctx', 'b-ctx']);
    expect(store.writes()).toBe(before);
  });

  it('of a context gone from the kubeconfig stay taken, so a new context never inherits one', () => {
    const store = memoryStore();
    registry(['old-one', 'kept'], { store });
    const later = registry(['kept', 'Old One'], { store });
    expect(later.idTaken('old-one')).toBe(true);
    expect(later.idTaken('kept')).toBe(true);
    expect(later.idTaken('never-seen')).toBe(false);
    // "Old One" slugs to the retired id, so it gets the suffixed one.
    expect(ids(later.allClusters())).toEqual(['kept', expect.stringMatching(/^old-one-[0-9a-f]{6}$/)]);
  });
});

describe('workspaces and their clusters', () => {
  function withTeam() {
    const r = registry(['alpha', 'beta', 'gamma']);
    r.createWorkspace({ workspaceId: 'team', name: 'Team', clusterIds: ['gamma', 'alpha', 'alpha'] });
    return r;
  }

  it('an administrator sees every workspace, a member only those they belong to', () => {
    const r = withTeam();
    expect(r.workspaces(ADMIN).map((w) => w.workspaceId)).toEqual(['default', 'team']);
    expect(r.workspaces(member('team'))).toEqual([{ workspaceId: 'team', name: 'Team', groups: [] }]);
    expect(r.workspaces(member())).toEqual([]);
  });

  it('lists member groups whole to an administrator, to anyone else only its own', () => {
    const r = registry(['alpha']);
    r.createWorkspace({ workspaceId: 'shop', name: 'Shop', clusterIds: [], groups: ['shop-devs', 'ops'] });
    const groupsSeen = (p: Principal) => r.workspaces(p).map((w) => [w.workspaceId, w.groups]);
    expect(groupsSeen(ADMIN)).toEqual([
      ['default', []],
      ['shop', ['shop-devs', 'ops']],
    ]);
    const alice: Principal = {
      ...member('shop'),
      identity: { username: 'alice', source: 'oidc', groups: ['payments-devs', 'shop-devs'] },
    };
    expect(groupsSeen(alice)).toEqual([['shop', ['shop-devs']]]);
    // An administrator's API key (no admin flag, every workspace): its owner's groups only.
    const key: Principal = {
      accountId: 'admin',
      apiKeyId: 'k',
      workspaces: 'all',
      identity: { username: 'carol', source: 'oidc', groups: ['ops'] },
    };
    expect(groupsSeen(key)).toEqual([
      ['default', []],
      ['shop', ['ops']],
    ]);
    // A local member (no provider groups) is told none.
    expect(groupsSeen(member('shop'))).toEqual([['shop', []]]);
  });

  it('a workspace the caller is not a member of is as not found as one that does not exist', () => {
    const r = withTeam();
    const hidden = thrownBy(() => r.workspace('team', member('default')));
    const missing = thrownBy(() => r.workspace('nope', ADMIN));
    expect([hidden.code, hidden.message]).toEqual(['workspace_not_found', 'workspace "team" not found']);
    expect([missing.code, missing.message]).toEqual(['workspace_not_found', 'workspace "nope" not found']);
    expect(r.workspace('team', member('team')).name).toBe('Team');
  });

  it('the default workspace holds every cluster; another holds its own, each once', () => {
    const r = withTeam();
    expect(ids(r.clustersOf('default', ADMIN))).toEqual(['alpha', 'beta', 'gamma']);
    expect(ids(r.clustersOf('team', ADMIN))).toEqual(['alpha', 'gamma']);
  });

  it('a cluster outside the workspace named is not found in it', () => {
    const r = withTeam();
    expect(r.cluster('team', 'gamma', ADMIN).clusterId).toBe('gamma');
    const p = thrownBy(() => r.cluster('team', 'beta', ADMIN));
    expect([p.code, p.message]).toEqual([
      'cluster_not_found',
      'cluster "beta" not found in workspace "team"',
    ]);
  });
});

describe('stored workspaces', () => {
  /** The clusters `workspaceId` holds when the store was left with `workspaces`. */
  function clustersHeld(workspaces: WorkspaceConfig['workspaces'], workspaceId: string) {
    const store = memoryStore();
    saveWorkspaceConfig(store, { workspaces, clusterIds: {}, clusters: {} });
    return ids(registry(['alpha', 'beta'], { store }).clustersOf(workspaceId, ADMIN));
  }

  it('the default one holds every cluster even when the store names some clusters for it', () => {
    const stored = [{ workspaceId: 'default', name: 'Default', clusterIds: ['alpha'] }];
    expect(clustersHeld(stored, 'default')).toEqual(['alpha', 'beta']);
  });

  it('one without a cluster list holds every cluster, as the default one does', () => {
    const stored = [
      { workspaceId: 'default', name: 'Default' },
      { workspaceId: 'all', name: 'All' },
    ];
    expect(clustersHeld(stored, 'all')).toEqual(['alpha', 'beta']);
  });
});

describe('workspace changes', () => {
  it('a new workspace holds its clusters once each, and is saved', () => {
    const store = memoryStore();
    const r = registry(['alpha', 'beta'], { store });
    expect(r.createWorkspace({ workspaceId: 'ops', name: 'Ops', clusterIds: ['beta', 'beta'] })).toEqual({
      workspaceId: 'ops',
      name: 'Ops',
      clusterIds: ['beta'],
      groups: [],
    });
    expect(ids(registry(['alpha', 'beta'], { store }).clustersOf('ops', ADMIN))).toEqual(['beta']);
  });

  it('refuses an id in use, and clusters it does not know, naming only those', () => {
    const r = registry(['alpha']);
    r.createWorkspace({ workspaceId: 'ops', name: 'Ops', clusterIds: [] });
    const dup = thrownBy(() => r.createWorkspace({ workspaceId: 'ops', name: 'Again', clusterIds: [] }));
    expect([dup.code, dup.message]).toEqual(['conflict', 'workspace "ops" already exists']);
    const unknown = thrownBy(() =>
      r.createWorkspace({ workspaceId: 'new', name: 'New', clusterIds: ['alpha', 'x', 'y'] }),
    );
    expect([unknown.code, unknown.message]).toEqual(['invalid_body', 'unknown clusterIds: x, y']);
    expect(unknown.extensions).toEqual({ unknown: ['x', 'y'] });
    expect(r.workspaces(ADMIN).map((w) => w.workspaceId)).toEqual(['default', 'ops']);
  });

  it('a rename keeps the clusters; new clusters replace them, once each', () => {
    const r = registry(['alpha', 'beta']);
    r.createWorkspace({ workspaceId: 'ops', name: 'Ops', clusterIds: ['alpha'] });
    expect(r.updateWorkspace('ops', { name: 'Operations' }, ADMIN)).toEqual({
      workspaceId: 'ops',
      name: 'Operations',
      clusterIds: ['alpha'],
      groups: [],
    });
    expect(r.updateWorkspace('ops', { clusterIds: ['beta', 'beta'] }, ADMIN)).toEqual({
      workspaceId: 'ops',
      name: 'Operations',
      clusterIds: ['beta'],
      groups: [],
    });
    const unknown = thrownBy(() => r.updateWorkspace('ops', { clusterIds: ['zeta'] }, ADMIN));
    expect(unknown.code).toBe('invalid_body');
    expect(ids(r.clustersOf('ops', ADMIN))).toEqual(['beta']);
  });

  it('the default workspace may be renamed, answers with every cluster, and keeps them', () => {
    const r = registry(['alpha', 'beta']);
    expect(r.updateWorkspace('default', { name: 'Everything' }, ADMIN)).toEqual({
      workspaceId: 'default',
      name: 'Everything',
      clusterIds: ['alpha', 'beta'],
      groups: [],
    });
    const p = thrownBy(() => r.updateWorkspace('default', { clusterIds: ['alpha'] }, ADMIN));
    expect([p.code, p.message]).toEqual(['conflict', 'the default workspace always holds every cluster']);
    expect(ids(r.clustersOf('default', ADMIN))).toEqual(['alpha', 'beta']);
  });

  it('a workspace is removed and answered; the default one stays', () => {
    const r = registry(['alpha']);
    r.createWorkspace({ workspaceId: 'ops', name: 'Ops', clusterIds: ['alpha'], groups: ['oncall'] });
    expect(r.deleteWorkspace('ops', ADMIN)).toEqual({ workspaceId: 'ops', name: 'Ops', groups: ['oncall'] });
    expect(thrownBy(() => r.workspace('ops', ADMIN)).code).toBe('workspace_not_found');
    const p = thrownBy(() => r.deleteWorkspace('default', ADMIN));
    expect([p.code, p.message]).toEqual(['conflict', 'the default workspace cannot be removed']);
  });

  it('a member may not change a workspace they cannot see', () => {
    const r = registry(['alpha']);
    r.createWorkspace({ workspaceId: 'ops', name: 'Ops', clusterIds: [] });
    expect(thrownBy(() => r.updateWorkspace('ops', { name: 'x' }, member('default'))).code).toBe(
      'workspace_not_found',
    );
    expect(thrownBy(() => r.deleteWorkspace('ops', member('default'))).code).toBe('workspace_not_found');
    expect(r.workspace('ops', ADMIN).name).toBe('Ops');
  });
});

describe('monitoring flags', () => {
  it('a change merges with the flags set before, is saved, and is told to the event history', () => {
    const store = memoryStore();
    const told: string[] = [];
    const eventRecording = {
      observer: () => undefined,
      keepsWatching: () => false,
      monitoringChanged: (id: string) => told.push(id),
    };
    const r = registry(['alpha', 'beta'], { store, eventRecording });
    expect(r.monitoring('alpha')).toEqual({ resourceEventsEnabled: true, systemEventsEnabled: true });
    expect(r.setMonitoring('alpha', { systemEventsEnabled: false })).toEqual({
      resourceEventsEnabled: true,
      systemEventsEnabled: false,
    });
    expect(r.setMonitoring('alpha', { resourceEventsEnabled: false })).toEqual({
      resourceEventsEnabled: false,
      systemEventsEnabled: false,
    });
    expect(told).toEqual(['alpha', 'alpha']);
    expect(r.monitoring('beta')).toEqual({ resourceEventsEnabled: true, systemEventsEnabled: true });
    expect(registry(['alpha', 'beta'], { store }).monitoring('alpha')).toEqual({
      resourceEventsEnabled: false,
      systemEventsEnabled: false,
    });
  });
});

describe('what each connection is given', () => {
  it('the event history’s hook: a cluster’s event cache is observed under its id', () => {
    const observed: string[] = [];
    const r = registry(['alpha'], {
      eventRecording: {
        observer: (id) => {
          observed.push(id);
          return undefined;
        },
        keepsWatching: () => false,
        monitoringChanged: () => {},
      },
    });
    r.cluster('default', 'alpha', ADMIN).events();
    expect(observed).toEqual(['alpha']);
  });

  it('monitoring changes without an event history are kept all the same', () => {
    const r = registry(['alpha']);
    expect(r.setMonitoring('alpha', { systemEventsEnabled: false })).toEqual({
      resourceEventsEnabled: true,
      systemEventsEnabled: false,
    });
  });

  it('closing the registry closes every connection', async () => {
    const r = registry(['alpha', 'beta']);
    await r.close();
    open = open.filter((o) => o !== r);
    for (const cluster of r.allClusters()) {
      const p = await problemOf(
        cluster.getObject(RESOURCE_KINDS.node, 'x', undefined, new AbortController().signal),
      );
      expect([p.code, p.message]).toEqual(['cluster_unreachable', 'the cluster connection was closed']);
    }
  });
});

describe('snapshot clusters', () => {
  const facts = { context: 'prod', server: 'https://prod.invalid:6443', takenAt: '2026-11-01T00:00:00.000Z' };

  it('join the default workspace for this run only, knowing themselves to be snapshots, and are not saved', () => {
    const store = memoryStore();
    const r = registry(['alpha'], { store });
    const added = r.addSnapshot('snap-1', memoryFrozen(facts));
    expect(r.cluster('default', 'snap-1', ADMIN)).toBe(added);
    expect(r.byId('snap-1')).toBe(added);
    expect(r.byId('nope')).toBeUndefined();
    expect(added.snapshot).toEqual(facts);
    expect(added.readOnly).toBe(true);
    expect([added.context, added.source.server]).toEqual(['prod', 'https://prod.invalid:6443']);
    const alpha = r.cluster('default', 'alpha', ADMIN);
    expect([alpha.snapshot, alpha.frozen, alpha.readOnly]).toEqual([undefined, undefined, false]);
    expect(r.idTaken('snap-1')).toBe(true);

    const next = registry(['alpha'], { store });
    expect(ids(next.allClusters())).toEqual(['alpha']);
    expect(next.idTaken('snap-1')).toBe(false);
  });

  it('are removed (closed) one at a time, leaving every workspace; a live or unknown id is left alone', async () => {
    const store = memoryStore();
    const r = registry(['alpha'], { store });
    const snap = r.addSnapshot('snap-1', memoryFrozen(facts));
    r.createWorkspace({ workspaceId: 'team', name: 'Team', clusterIds: ['alpha', 'snap-1'] });
    const closed = vi.spyOn(snap, 'close');
    await r.removeSnapshot('alpha');
    await r.removeSnapshot('nope');
    expect(ids(r.allClusters())).toEqual(['alpha', 'snap-1']);

    await r.removeSnapshot('snap-1');
    expect(closed).toHaveBeenCalledOnce();
    expect(ids(r.allClusters())).toEqual(['alpha']);
    expect(r.byId('snap-1')).toBeUndefined();
    expect(r.idTaken('snap-1')).toBe(false);
    expect(ids(r.clustersOf('team', ADMIN))).toEqual(['alpha']);
    expect(JSON.stringify(store.get('workspaceConfig'))).not.toContain('snap-1');
  });

  it('serve the kinds their file holds, and answer their status without a probe', async () => {
    const r = registry([]);
    const frozen = memoryFrozen({ ...facts, kubernetesVersion: 'v1.31.2' });
    const snap = r.addSnapshot('snap-1', frozen);
    expect((await snap.kinds()).map((k) => k.resourceType)).toEqual(NINE_ROWS.map((k) => k.resourceType));
    expect(await snap.kind('deployment')).toBe(RESOURCE_KINDS.deployment);
    expect(await snap.status()).toEqual({ status: 'snapshot', version: 'v1.31.2' });
    expect(await r.addSnapshot('snap-2', memoryFrozen(facts)).status()).toEqual({ status: 'snapshot' });
  });

  it('read their lists a thousand objects a page, from the snapshot, with nothing asked of a network', async () => {
    const pods = Array.from({ length: 2_500 }, (_, i) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { namespace: 'ns', name: `p-${String(i).padStart(4, '0')}` },
    }));
    const r = registry([]);
    const frozen = memoryFrozen(facts, { pods });
    const snap = r.addSnapshot('snap-1', frozen);
    const cache = snap.resources(RESOURCE_KINDS.pod);
    await cache.acquire();
    expect(frozen.pages.get('pods')).toEqual([1_000, 1_000, 1_000]);
    expect(cache.read().view.all).toHaveLength(2_500);
    // One object is the snapshot's, never the apiserver's (its client is closed from the start).
    const signal = new AbortController().signal;
    const one = await snap.getObject(RESOURCE_KINDS.pod, 'p-0007', 'ns', signal);
    expect(one.metadata.name).toBe('p-0007');
    const missing = await problemOf(snap.getObject(RESOURCE_KINDS.pod, 'p-9999', 'ns', signal));
    expect([missing.code, missing.message]).toEqual([
      'resource_not_found',
      'pod "p-9999" in namespace ns not found',
    ]);
    const node = await problemOf(snap.getObject(RESOURCE_KINDS.node, 'n1', undefined, signal));
    expect(node.code).toBe('resource_not_found');
    const direct = await problemOf(snap.client.getJson('/version', { timeoutMs: 1_000 }));
    expect(direct.message).toBe('the cluster connection was closed');
  });

  it('take pod usage from the snapshot’s metrics', async () => {
    const metrics = [
      {
        apiVersion: 'metrics.k8s.io/v1beta1',
        kind: 'PodMetrics',
        metadata: { namespace: 'ns', name: 'web' },
        containers: [{ name: 'a', usage: { cpu: '250m', memory: '64Mi' } }],
      },
    ];
    const snap = registry([]).addSnapshot('snap-1', memoryFrozen(facts, { podmetrics: metrics }));
    expect(await snap.podUsage('ns', 'web')).toEqual({ cpu: '250m', memory: '64Mi' });
    expect(await snap.podUsage('other', 'web')).toBeUndefined();
  });
});

describe('the idle sweep', () => {
  it('asks every cluster to stop idle caches, at most a minute apart', async () => {
    vi.useFakeTimers();
    const sweep = vi.spyOn(ClusterConnection.prototype, 'sweep').mockResolvedValue();
    registry(['alpha', 'beta']);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(sweep).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(sweep.mock.calls).toEqual([[600_000], [600_000]]);
  });

  it('with a shorter idle time, sweeps as often as that time', async () => {
    vi.useFakeTimers();
    const sweep = vi.spyOn(ClusterConnection.prototype, 'sweep').mockResolvedValue();
    registry(['alpha'], { cacheIdleMs: 5_000 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sweep.mock.calls).toEqual([[5_000], [5_000]]);
  });

  it('stops when the registry closes', async () => {
    vi.useFakeTimers();
    const sweep = vi.spyOn(ClusterConnection.prototype, 'sweep').mockResolvedValue();
    const r = registry(['alpha'], { cacheIdleMs: 5_000 });
    await r.close();
    open = [];
    await vi.advanceTimersByTimeAsync(20_000);
    expect(sweep).not.toHaveBeenCalled();
  });
});
