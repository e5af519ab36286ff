/**
 * An events request's target, resolved against a real registry (no cluster is asked anything): the
 * caller's cluster, its flags as the request found them, the flags as they are now for a watch,
 * and the registry's own 404 for a cluster the caller cannot see.
 */
import { kubeconfigYaml } from '@skiff/kube-simulator';
import { afterEach, expect, it } from 'vitest';
import { ClusterRegistry } from '../clusters/registry';
import type { Principal } from '../context';
import { contextsFromYaml } from '../kube/kubeconfig';
import { silentLogger } from '../logger';
import { memoryStore } from '../storage/store';
import { eventsTarget } from './target';

const ADMIN: Principal = { accountId: 'admin', admin: true, workspaces: 'all' };
const OUTSIDER: Principal = { accountId: 'm', workspaces: ['elsewhere'] };

let registry: ClusterRegistry | undefined;
afterEach(async () => {
  await registry?.close();
  registry = undefined;
});

function open(): ClusterRegistry {
  const yaml = kubeconfigYaml({ server: 'http://127.0.0.1:9', contextName: 'prod', user: { token: 't' } });
  registry = new ClusterRegistry({
    contexts: contextsFromYaml(yaml),
    store: memoryStore(),
    logger: silentLogger(),
    timeoutMs: 1_000,
  });
  return registry;
}

it("resolves the caller's cluster with the workspace it was asked in, and its flags as found", () => {
  const r = open();
  const target = eventsTarget(r, { workspaceId: 'default', clusterId: 'prod' }, ADMIN);
  expect(target.cluster).toBe(r.cluster('default', 'prod', ADMIN));
  expect(target.workspaceId).toBe('default');
  expect(target.flags).toEqual({ resourceEventsEnabled: true, systemEventsEnabled: true });
});

it('keeps the flags the request found, while currentFlags reads them as they are now', () => {
  const r = open();
  const target = eventsTarget(r, { workspaceId: 'default', clusterId: 'prod' }, ADMIN);
  r.setMonitoring('prod', { systemEventsEnabled: false });
  expect(target.flags.systemEventsEnabled).toBe(true);
  expect(target.currentFlags()).toEqual({ resourceEventsEnabled: true, systemEventsEnabled: false });
});

it("answers the registry's own problems: a cluster not found, a workspace the caller is not in", () => {
  const r = open();
  expect(() => eventsTarget(r, { workspaceId: 'default', clusterId: 'nope' }, ADMIN)).toThrow(
    expect.objectContaining({ code: 'cluster_not_found' }),
  );
  expect(() => eventsTarget(r, { workspaceId: 'default', clusterId: 'prod' }, OUTSIDER)).toThrow(
    expect.objectContaining({ code: 'workspace_not_found' }),
  );
});
