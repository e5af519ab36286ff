/**
 * What the fault-injection tests share: a stack whose kubeconfig names a fault proxy, and the
 * checks that say "this answer is a proper cluster problem" and "the cache equals the cluster".
 */

import type { SimStore, Simulator } from '@skiff/kube-simulator';
import { expect } from 'vitest';
import type { Cluster, ResourceWrapper } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import { type FaultProxy, portOf, startFaultProxy } from './fault-proxy.test-support';
import {
  CLUSTER_ID,
  type HttpResult,
  type Stack,
  type StackOptions,
  startStack,
} from './harness.test-support';

export interface ProxiedStack {
  stack: Stack;
  proxy: FaultProxy;
  close(): Promise<void>;
}

/** startStack with the kubeconfig naming a fault proxy; `stack.direct()` and `stack.sim` bypass it. */
export async function startProxiedStack(opts: StackOptions = {}): Promise<ProxiedStack> {
  let proxy: FaultProxy | undefined;
  const stack = await startStack({
    ...opts,
    clusterServer: async (sim: Simulator) => {
      proxy = await startFaultProxy(portOf(sim.url));
      return proxy.url;
    },
  });
  const p = proxy as FaultProxy;
  return {
    stack,
    proxy: p,
    async close() {
      await stack.close();
      await p.close();
    },
  };
}

/** RFC 3339 in UTC, as x-Stale-Since and lastSyncedAt carry it. */
export const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export const STALE = 'x-stale-since';

/** Short watch retries so a broken watch, and its recovery, show within seconds; the defaults (1 s, 30 s, 30 s) suit production. */
export const QUICK_WATCH = { baseMs: 100, capMs: 1_000, stableAfterMs: 1_000 };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function podsPath(stack: Stack, namespace?: string): string {
  const ns = namespace ? `/namespaces/${namespace}` : '';
  // The demo clusters hold far fewer than 1,000 pods: one page is the whole list.
  return `${stack.cluster}/kubernetes-proxy${ns}/pod?limit=1000`;
}

export function eventsPath(stack: Stack): string {
  return `${stack.cluster}/kubernetes-events?limit=50`;
}

export function expectClusterProblem(res: HttpResult, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.contentType).toMatch(/^application\/problem\+json/);
  const body = res.body as Problem;
  expect(body).toMatchObject({ status, code });
  expect(typeof body.detail).toBe('string');
}

/** The time a stale answer says its data is from, checked to be RFC 3339 UTC. */
export function staleSince(res: HttpResult): number | undefined {
  const value = res.headers.get(STALE);
  if (value === null) return undefined;
  expect(value).toMatch(RFC3339_UTC);
  return Date.parse(value);
}

/** Identity and version of every pod: equal keys mean the same pods at the same resourceVersions. */
interface Identified {
  metadata: { namespace?: string; name: string; uid?: string; resourceVersion?: string };
}

export function podKeys(objects: readonly Identified[]): string[] {
  return objects
    .map(
      (o) =>
        `${o.metadata.namespace}/${o.metadata.name} uid=${o.metadata.uid} rv=${o.metadata.resourceVersion}`,
    )
    .sort();
}

/** Throws unless a fresh (no x-Stale-Since) 200 pod list through /v1 equals the simulator's own pods. */
export async function expectPodsEqualCluster(stack: Stack, store: SimStore): Promise<void> {
  const res = await stack.get<ResourceWrapper[]>(podsPath(stack));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.headers.get(STALE)).toBeNull();
  expect(podKeys(res.body.map((w) => w.resource))).toEqual(podKeys(store.list('pods')));
  expect(res.headers.get('x-total')).toBe(String(store.count('pods')));
}

export async function clusterRecord(stack: Stack): Promise<Cluster> {
  const res = await stack.get<Cluster[]>('/v1/workspaces/default/clusters');
  expect(res.status).toBe(200);
  const found = res.body.find((c) => c.clusterId === CLUSTER_ID);
  if (!found) throw new Error(`no cluster ${CLUSTER_ID} in ${JSON.stringify(res.body)}`);
  return found;
}

/** A pod the simulator stores as a user would create it; `tag` lands in a label so edits are visible. */
export function scratchPod(name: string, namespace = 'default', tag = '0') {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: { app: 'fault-test', tag } },
    spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] },
    status: { phase: 'Running' as const },
  };
}

/** Labels-only edit of a stored pod: a MODIFIED the cache must take in. */
export function relabel(store: SimStore, namespace: string, name: string, tag: string): void {
  const pod = store.get('pods', namespace, name);
  if (!pod) throw new Error(`no pod ${namespace}/${name}`);
  store.upsert({ ...pod, metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, tag } } });
}
