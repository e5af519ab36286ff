import { describe, expect, it } from 'vitest';
import type { ApiClient } from './client';
import { countOf, getOne } from './queries';

const scope = { workspaceId: 'default', clusterId: 'demo' };

/** A client that answers every call with an empty page and records what was asked for. */
function recordingClient() {
  const calls: Array<{ name: string; params: Record<string, unknown> }> = [];
  const client: ApiClient = {
    call: async (name, input) => {
      calls.push({ name, params: input.params as Record<string, unknown> });
      const data = name.startsWith('list') ? [] : { clusterId: 'demo', workspaceId: 'default', resource: {} };
      return { data, page: { total: 7, limit: 1, offset: 0 } } as never;
    },
  };
  return { client, calls };
}

describe('which operation a list or a get goes to', () => {
  it('a namespaced kind in a chosen namespace uses the namespaced operation', async () => {
    const { client, calls } = recordingClient();
    expect(await countOf(client, scope, 'pod', 'shop')).toBe(7);
    await getOne(client, scope, 'deployment', 'web', 'shop');
    expect(calls).toEqual([
      { name: 'listNamespacedResources', params: { ...scope, namespace: 'shop', resourceType: 'pod' } },
      {
        name: 'getNamespacedResource',
        params: { ...scope, namespace: 'shop', resourceType: 'deployment', resourceName: 'web' },
      },
    ]);
  });

  it('a namespaced kind across all namespaces uses the cluster-wide operation', async () => {
    const { client, calls } = recordingClient();
    await countOf(client, scope, 'pod', null);
    await getOne(client, scope, 'pod', 'web-1', undefined);
    expect(calls).toEqual([
      { name: 'listResources', params: { ...scope, resourceType: 'pod' } },
      { name: 'getResource', params: { ...scope, resourceType: 'pod', resourceName: 'web-1' } },
    ]);
  });

  it('a cluster-scoped kind ignores the namespace and uses the cluster-wide operation', async () => {
    const { client, calls } = recordingClient();
    await countOf(client, scope, 'node', 'shop');
    await getOne(client, scope, 'namespace', 'shop', 'shop');
    expect(calls).toEqual([
      { name: 'listResources', params: { ...scope, resourceType: 'node' } },
      { name: 'getResource', params: { ...scope, resourceType: 'namespace', resourceName: 'shop' } },
    ]);
  });

  it('any other kind goes by the namespace its caller passes (only namespaced kinds get one)', async () => {
    const { client, calls } = recordingClient();
    await countOf(client, scope, 'certificate.cert-manager.io', 'shop');
    await getOne(client, scope, 'configmap', 'app-config', 'shop');
    await getOne(client, scope, 'clusterissuer', 'letsencrypt', undefined);
    expect(calls).toEqual([
      {
        name: 'listNamespacedResources',
        params: { ...scope, namespace: 'shop', resourceType: 'certificate.cert-manager.io' },
      },
      {
        name: 'getNamespacedResource',
        params: { ...scope, namespace: 'shop', resourceType: 'configmap', resourceName: 'app-config' },
      },
      {
        name: 'getResource',
        params: { ...scope, resourceType: 'clusterissuer', resourceName: 'letsencrypt' },
      },
    ]);
  });
});
