/**
 * Endpoints 2 and 4 read one object from one of two places: its kind's watch cache while that is
 * live, or the apiserver while no cache of the kind runs. Both give the same wrapper, usage only on
 * pods, over HTTP and over IPC alike. This file starts its own stack so that its first reads come
 * before any list of their kind.
 */

import type { Pod } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceWrapper } from '../../../src-shared/contract/models';
import type { Principal } from '../context';
import { CLUSTER_ID, type Stack, startStack } from '../test-support/harness.test-support';

let stack: Stack;
let principal: Principal;
beforeAll(async () => {
  stack = await startStack();
  const found = await stack.service.auth.principalForAccessToken(stack.session.accessToken);
  if (!found) throw new Error('the admin session has no principal');
  principal = found;
});
afterAll(async () => stack?.close());

const proxy = () => `${stack.cluster}/kubernetes-proxy`;

/** A running pod, which the simulator's metrics API reports usage for. */
const runningPod = () => {
  const pod = (stack.sim.store.list('pods') as Pod[]).find((p) => p.status.phase === 'Running');
  if (!pod) throw new Error('the demo cluster has no running pod');
  return { namespace: pod.metadata.namespace!, name: pod.metadata.name };
};

/** The same read over IPC: the reply's parsed data. */
async function overIpc(resourceType: string, namespace: string, resourceName: string) {
  const reply = await stack.service.invoke(
    'getNamespacedResource',
    {
      params: { workspaceId: 'default', clusterId: CLUSTER_ID, namespace, resourceType, resourceName },
      query: {},
      body: undefined,
    },
    { principal, client: { via: 'ipc' }, signal: new AbortController().signal },
  );
  return reply.data as ResourceWrapper;
}

describe('a single read', () => {
  it('before any list of its kind asks the apiserver, and answers what the live cache answers later', async () => {
    const { namespace, name } = runningPod();
    const path = `${proxy()}/namespaces/${namespace}/pod/${name}`;
    const fromCluster = await stack.get<ResourceWrapper>(path);
    expect(fromCluster.status).toBe(200);
    expect(fromCluster.body.resource).toMatchObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name } });
    expect(fromCluster.body.resource.metadata.managedFields).toBeUndefined();
    expect(fromCluster.body.usage?.cpu).toMatch(/^\d+m$/);
    expect(await overIpc('pod', namespace, name)).toEqual(fromCluster.body);

    // A list starts the pod cache; from then on a read needs nothing new from the cluster, which
    // now answers no new request (a watch already asked for goes on).
    await stack.get(`${proxy()}/pod?limit=1`);
    stack.sim.faults.hang = true;
    try {
      const fromCache = await stack.get<ResourceWrapper>(path);
      expect(fromCache.status).toBe(200);
      expect(fromCache.body).toEqual(fromCluster.body);
      expect(await overIpc('pod', namespace, name)).toEqual(fromCluster.body);
    } finally {
      stack.sim.faults.hang = false;
    }
  });

  it('of a kind in an API group names its group version, and gets no usage even beside a pod of its name', async () => {
    const { namespace, name } = runningPod();
    stack.sim.store.upsert({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace },
      spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { spec: { containers: [] } } },
    });
    const pod = await stack.get<ResourceWrapper>(`${proxy()}/namespaces/${namespace}/pod/${name}`);
    expect(pod.body.usage).toBeDefined();

    const res = await stack.get<ResourceWrapper>(`${proxy()}/namespaces/${namespace}/deployment/${name}`);
    expect(res.status).toBe(200);
    expect(res.body.resource).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
    });
    expect('usage' in res.body).toBe(false);
    expect('usage' in (await overIpc('deployment', namespace, name))).toBe(false);
  });

  it('of a cluster-scoped object gets no usage', async () => {
    const node = (await stack.get<ResourceWrapper[]>(`${proxy()}/node?limit=1`)).body[0]!;
    const res = await stack.get<ResourceWrapper>(`${proxy()}/node/${node.resource.metadata.name}`);
    expect(res.body.resource.kind).toBe('Node');
    expect('usage' in res.body).toBe(false);
  });
});
