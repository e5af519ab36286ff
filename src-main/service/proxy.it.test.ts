import { DEFAULT_TOKEN } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceWrapper } from '../../src-shared/contract/models';
import type { Problem } from '../../src-shared/contract/problem';
import { RESOURCE_TYPES } from '../../src-shared/kube/kinds';
import { eventually } from './test-support/eventually.test-support';
import { collectAll, type Stack, startStack } from './test-support/harness.test-support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack?.close());

const proxy = () => `${stack.cluster}/kubernetes-proxy`;

describe('list endpoints (1 and 3)', () => {
  it.each(RESOURCE_TYPES)(
    'lists every %s the cluster has, as wrappers without managedFields',
    async (type) => {
      const items = await collectAll<ResourceWrapper>(stack, `${proxy()}/${type}?limit=1000`);
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        expect(Object.keys(item).sort()).toEqual(['clusterId', 'resource', 'workspaceId']);
        expect(item.clusterId).toBe('sim-test');
        expect(item.workspaceId).toBe('default');
        expect(item.resource.metadata.managedFields).toBeUndefined();
        expect(item.resource.kind?.toLowerCase()).toBe(type);
        expect(JSON.stringify(item)).not.toMatch(/"events"/);
      }
    },
  );

  it('answers the same pods the apiserver holds, in namespace/name order', async () => {
    const direct = await stack.direct().listPodForAllNamespaces();
    const expected = direct.items.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`).sort();
    const items = await collectAll<ResourceWrapper>(stack, `${proxy()}/pod?limit=7`);
    const got = items.map((i) => `${i.resource.metadata.namespace}/${i.resource.metadata.name}`);
    expect(got).toEqual(expected);
  });

  it('lists a namespace only', async () => {
    const direct = await stack.direct().listNamespacedPod({ namespace: 'kube-system' });
    const items = await collectAll<ResourceWrapper>(
      stack,
      `${proxy()}/namespaces/kube-system/pod?limit=1000`,
    );
    expect(items.map((i) => i.resource.metadata.name)).toEqual(
      direct.items.map((p) => p.metadata?.name).sort(),
    );
    expect(new Set(items.map((i) => i.resource.metadata.namespace))).toEqual(new Set(['kube-system']));
  });

  it('answers an empty page for a namespace with nothing of that type', async () => {
    const res = await stack.get<ResourceWrapper[]>(`${proxy()}/namespaces/no-such-namespace/pod`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-total')).toBe('0');
  });
});

describe('resourceType', () => {
  it.each(['pod', 'Pod', 'POD', 'pOd'])('accepts the case variant %s', async (variant) => {
    const res = await stack.get<ResourceWrapper[]>(`${proxy()}/${variant}?limit=1`);
    expect(res.status).toBe(200);
    expect(res.body[0]?.resource.kind).toBe('Pod');
  });

  it('refuses a plural with a hint and the accepted values', async () => {
    const res = await stack.get<Problem>(`${proxy()}/pods`);
    expect(res.status).toBe(400);
    expect(res.contentType).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('invalid_resource_type');
    expect(res.body.detail).toContain('did you mean pod?');
    expect(res.body.detail).toContain(
      'node, namespace, deployment, statefulset, daemonset, job, cronjob, pod, service',
    );
  });

  it('refuses a kind the cluster does not serve, listing the nine first, then every other kind', async () => {
    const res = await stack.get<Problem>(`${proxy()}/gizmo`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_resource_type');
    const accepted = res.body.accepted as string[];
    expect(accepted.slice(0, RESOURCE_TYPES.length)).toEqual([...RESOURCE_TYPES]);
    expect(accepted).toEqual(expect.arrayContaining(['configmap', 'ingress', 'secret']));
  });

  it.each(['node', 'namespace', 'Node'])(
    'refuses the cluster-scoped %s under a namespace (endpoints 3 and 4)',
    async (t) => {
      for (const path of [`${proxy()}/namespaces/default/${t}`, `${proxy()}/namespaces/default/${t}/x`]) {
        const res = await stack.get<Problem>(path);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('invalid_resource_type');
        expect(res.body.detail).toContain('cluster-scoped');
      }
    },
  );
});

describe('single resources (2 and 4)', () => {
  it('wraps a pod with clusterId, workspaceId and resource, without managedFields or events', async () => {
    const [first] = (await stack.get<ResourceWrapper[]>(`${proxy()}/namespaces/kube-system/pod?limit=1`))
      .body;
    const name = first!.resource.metadata.name;
    const res = await stack.get<ResourceWrapper>(`${proxy()}/namespaces/kube-system/pod/${name}`);
    expect(res.status).toBe(200);
    expect(res.body.clusterId).toBe('sim-test');
    expect(res.body.workspaceId).toBe('default');
    expect(res.body.resource.metadata.name).toBe(name);
    expect(res.body.resource.metadata.managedFields).toBeUndefined();
    expect(res.body).not.toHaveProperty('events');
    expect(res.body.resource).not.toHaveProperty('events');
  });

  it('keeps the manifest exactly as the apiserver sent it, apart from managedFields', async () => {
    const [first] = (await stack.get<ResourceWrapper[]>(`${proxy()}/namespaces/kube-system/pod?limit=1`))
      .body;
    const name = first!.resource.metadata.name;
    const raw = (await fetch(`${stack.sim.url}/api/v1/namespaces/kube-system/pods/${name}`, {
      headers: { authorization: `Bearer ${DEFAULT_TOKEN}` },
    }).then((r) => r.json())) as {
      metadata: Record<string, unknown>;
    };
    expect(raw.metadata.managedFields).toBeDefined();
    delete raw.metadata.managedFields;
    const res = await stack.get<ResourceWrapper>(`${proxy()}/namespaces/kube-system/pod/${name}`);
    expect(res.body.resource).toEqual(raw);
  });

  /** Running pods from two namespaces, so one namespace's usage can be read before the other's. */
  async function runningPodsInTwoNamespaces(): Promise<[ResourceWrapper, ResourceWrapper]> {
    const pods = await collectAll<ResourceWrapper>(stack, `${proxy()}/pod?limit=1000`);
    const running = pods.filter(
      (p) => (p.resource.status as { phase?: string } | undefined)?.phase === 'Running',
    );
    // Namespaces from the end of the list: the earlier tests read usage in none of them.
    const last = running.at(-1)!;
    const other = running.findLast(
      (p) => p.resource.metadata.namespace !== last.resource.metadata.namespace,
    )!;
    return [last, other];
  }
  const podPath = (p: ResourceWrapper) =>
    `${proxy()}/namespaces/${p.resource.metadata.namespace}/pod/${p.resource.metadata.name}`;

  it('adds usage from metrics.k8s.io to a running pod, and leaves it out when metrics are down', async () => {
    const [first, second] = await runningPodsInTwoNamespaces();
    const withMetrics = await stack.get<ResourceWrapper>(podPath(first));
    expect(withMetrics.body.usage?.cpu).toMatch(/^\d+m$/);
    expect(withMetrics.body.usage?.memory).toMatch(/^\d+Mi$/);
    stack.sim.faults.metricsDown = true;
    try {
      const without = await stack.get<ResourceWrapper>(podPath(second));
      expect(without.status).toBe(200);
      expect(without.body).not.toHaveProperty('usage');
    } finally {
      stack.sim.faults.metricsDown = false;
    }
  });

  it('reads usage once per namespace per 10 s: a second read of the namespace needs no metrics API', async () => {
    const [first] = await runningPodsInTwoNamespaces();
    const before = (await stack.get<ResourceWrapper>(podPath(first))).body.usage;
    stack.sim.faults.metricsDown = true;
    try {
      const again = await stack.get<ResourceWrapper>(podPath(first));
      expect(again.body.usage).toEqual(before);
    } finally {
      stack.sim.faults.metricsDown = false;
    }
  });

  it('answers a single object from the live watch cache: it needs no new request to the cluster', async () => {
    const [pod] = await runningPodsInTwoNamespaces();
    await stack.get(podPath(pod)); // the namespace's usage, read now so it is cached too
    stack.sim.faults.hang = true;
    try {
      const res = await stack.get<ResourceWrapper>(podPath(pod));
      expect(res.status).toBe(200);
      expect(res.body.resource.metadata.name).toBe(pod.resource.metadata.name);
      expect(res.body.resource.metadata.uid).toBe(pod.resource.metadata.uid);
      expect(res.body.usage?.cpu).toMatch(/^\d+m$/);
    } finally {
      stack.sim.faults.hang = false;
    }
  });

  it('answers a single object with the change the watch has delivered', async () => {
    const [pod] = await runningPodsInTwoNamespaces();
    const { namespace, name } = pod.resource.metadata;
    const current = stack.sim.store.peek('pods', namespace!, name)!;
    stack.sim.store.upsert({
      ...current,
      metadata: { ...current.metadata, labels: { ...current.metadata.labels, 'skiff-test': 'changed' } },
    });
    await eventually(async () => {
      const res = await stack.get<ResourceWrapper>(podPath(pod));
      expect(res.body.resource.metadata.labels?.['skiff-test']).toBe('changed');
    });
  });

  it('gets cluster-scoped objects on endpoint 2', async () => {
    const nodes = (await stack.get<ResourceWrapper[]>(`${proxy()}/node`)).body;
    const res = await stack.get<ResourceWrapper>(`${proxy()}/NODE/${nodes[0]!.resource.metadata.name}`);
    expect(res.status).toBe(200);
    expect(res.body.resource.kind).toBe('Node');
    const ns = await stack.get<ResourceWrapper>(`${proxy()}/namespace/kube-system`);
    expect(ns.body.resource.metadata.name).toBe('kube-system');
  });

  it('finds a namespaced object by name on endpoint 2 when the name is unique', async () => {
    const [first] = (await stack.get<ResourceWrapper[]>(`${proxy()}/namespaces/kube-system/pod?limit=1`))
      .body;
    const res = await stack.get<ResourceWrapper>(`${proxy()}/pod/${first!.resource.metadata.name}`);
    expect(res.status).toBe(200);
    expect(res.body.resource.metadata.namespace).toBe('kube-system');
  });

  it('refuses a name on endpoint 2 that several namespaces hold: 409 naming them, in order', async () => {
    // Created out of order, so the answer's order is the service's, not the fixture's.
    for (const namespace of ['twin-zz', 'twin-aa']) {
      stack.sim.store.upsert({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
      stack.sim.store.upsert({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'twin', namespace },
        spec: { containers: [{ name: 'main', image: 'busybox' }] },
      });
    }
    await eventually(async () => {
      const listed = await collectAll<ResourceWrapper>(stack, `${proxy()}/pod?limit=1000`);
      expect(listed.filter((w) => w.resource.metadata.name === 'twin')).toHaveLength(2);
    });
    const res = await stack.get<Problem & { namespaces: string[] }>(`${proxy()}/pod/twin`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
    expect(res.body.namespaces).toEqual(['twin-aa', 'twin-zz']);
    expect(res.body.detail).toBe(
      'pod "twin" exists in several namespaces (twin-aa, twin-zz); use /namespaces/{namespace}/pod/twin',
    );
    const one = await stack.get<ResourceWrapper>(`${proxy()}/namespaces/twin-zz/pod/twin`);
    expect(one.body.resource.metadata.namespace).toBe('twin-zz');
  });

  it('a name on endpoint 2 that no namespace holds is a 404 from the watch cache, without asking the cluster', async () => {
    await stack.get(`${proxy()}/pod?limit=1`);
    // A request to the cluster now would be refused: a 404 can only come from the cache.
    stack.sim.faults.unauthorized = true;
    const res = await stack.get<Problem>(`${proxy()}/pod/nowhere-at-all`).finally(() => {
      stack.sim.faults.unauthorized = false;
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('resource_not_found');
    expect(res.body.detail).toBe('pod "nowhere-at-all" not found');
  });

  it('maps an apiserver 404 to a 404 problem', async () => {
    const res = await stack.get<Problem>(`${proxy()}/namespaces/default/deployment/does-not-exist`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('resource_not_found');
    expect(res.body.detail).toContain('does-not-exist');
  });

  it.each([
    ['a namespace that is not a DNS label', '/namespaces/Bad_NS/pod/x'],
    ['a name that is not a DNS subdomain', '/namespaces/default/pod/Not..Valid'],
    ['a service name that starts with a digit', '/namespaces/default/service/1abc'],
    ['an overlong name', `/namespaces/default/pod/${'a'.repeat(254)}`],
  ])('refuses %s with 400 and never asks the cluster', async (_what, suffix) => {
    stack.sim.faults.hang = true;
    try {
      const res = await stack.get<Problem>(`${proxy()}${suffix}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_name');
    } finally {
      stack.sim.faults.hang = false;
    }
  });
});
