/**
 * Which operation the per-object views (relations, explanation) go to: the namespaced one for an
 * object named with its namespace, the one that finds it across namespaces otherwise, each with
 * the object's kind and name as path parameters.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from './client';
import { explanationOf } from './explain';
import { relationsOf } from './relations';

const scope = { workspaceId: 'default', clusterId: 'demo' };

/** A client that answers every call with the same body and records what was asked for. */
function recordingClient() {
  const calls: Array<{ name: string; params: unknown; signal: AbortSignal | undefined }> = [];
  const client: ApiClient = {
    call: async (name, input, options) => {
      calls.push({ name, params: input.params, signal: options?.signal });
      return { data: { answer: name } } as never;
    },
  };
  return { client, calls };
}

describe('a per-object view', () => {
  it('of a namespaced object goes to the namespaced operation, with its signal', async () => {
    const { client, calls } = recordingClient();
    const signal = new AbortController().signal;
    const ref = { kind: 'pod', name: 'web-1', namespace: 'shop' };
    expect(await relationsOf(client, scope, ref, signal)).toEqual({ answer: 'getNamespacedRelations' });
    expect(await explanationOf(client, scope, ref, signal)).toEqual({ answer: 'explainNamespacedResource' });
    const params = { ...scope, namespace: 'shop', resourceType: 'pod', resourceName: 'web-1' };
    expect(calls).toEqual([
      { name: 'getNamespacedRelations', params, signal },
      { name: 'explainNamespacedResource', params, signal },
    ]);
  });

  it('of an object named without a namespace goes to the operation that finds it anywhere', async () => {
    const { client, calls } = recordingClient();
    for (const ref of [
      { kind: 'node', name: 'worker-1' },
      { kind: 'pod', name: 'web-1', namespace: undefined },
    ]) {
      await relationsOf(client, scope, ref);
      await explanationOf(client, scope, ref);
    }
    const anywhere = (resourceType: string, resourceName: string) =>
      ['getRelations', 'explainResource'].map((name) => ({
        name,
        params: { ...scope, resourceType, resourceName },
        signal: undefined,
      }));
    expect(calls).toEqual([...anywhere('node', 'worker-1'), ...anywhere('pod', 'web-1')]);
  });

  it('of a cluster-scoped kind goes to the operation that finds it anywhere, a namespace given or not', async () => {
    const { client, calls } = recordingClient();
    await relationsOf(client, scope, { kind: 'node', name: 'worker-1', namespace: 'shop' });
    expect(calls).toEqual([
      {
        name: 'getRelations',
        params: { ...scope, resourceType: 'node', resourceName: 'worker-1' },
        signal: undefined,
      },
    ]);
  });
});
