import type { Stack } from '../test-support/harness.test-support';

let counter = 0;
/** A name no other test uses: each test creates the objects it reads. */
export const uniqueName = (tag: string) => `${tag}-${++counter}-${Math.random().toString(36).slice(2, 7)}`;

export interface PodFixture {
  labels?: Record<string, string>;
  containers: string[];
  initContainers?: string[];
  /** Containers left waiting to start, with this reason (the others are started). */
  waiting?: Record<string, string>;
  /** Default: a Ready node of the demo cluster. */
  nodeName?: string;
  restartPolicy?: string;
}

/** A namespace of the test's own. */
export function addNamespace(stack: Stack, tag = 'logs'): string {
  const ns = uniqueName(tag);
  stack.sim.store.upsert({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  return ns;
}

function readyNode(stack: Stack): string {
  const node = stack.sim.store.list('nodes').find((n) => {
    const conditions = (n.status as { conditions?: { type: string; status: string }[] } | undefined)
      ?.conditions;
    return conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
  });
  if (!node) throw new Error('the demo cluster has no Ready node');
  return node.metadata.name;
}

/** A pod with its containers running (each a fresh instance with an empty log), unless `waiting`. */
export function addPod(stack: Stack, namespace: string, name: string, f: PodFixture): void {
  const status = (c: string) => ({
    name: c,
    image: `example/${c}:1`,
    imageID: '',
    ready: false,
    started: false,
    restartCount: 0,
    state: { waiting: { reason: f.waiting?.[c] ?? 'ContainerCreating' } },
    lastState: {},
  });
  const inits = f.initContainers ?? [];
  stack.sim.store.upsert({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: f.labels ?? {} },
    spec: {
      nodeName: f.nodeName ?? readyNode(stack),
      restartPolicy: f.restartPolicy ?? 'Always',
      containers: f.containers.map((c) => ({ name: c, image: `example/${c}:1` })),
      ...(inits.length > 0
        ? { initContainers: inits.map((c) => ({ name: c, image: `example/${c}:1` })) }
        : {}),
    },
    status: {
      phase: 'Running',
      conditions: [],
      containerStatuses: f.containers.map(status),
      ...(inits.length > 0 ? { initContainerStatuses: inits.map(status) } : {}),
    },
  });
  for (const c of [...f.containers, ...inits])
    if (f.waiting?.[c] === undefined) stack.sim.store.startContainer(namespace, name, c);
}

/** A deployment selecting `labels` (none: a deployment without a selector). */
export function addDeployment(
  stack: Stack,
  namespace: string,
  name: string,
  labels: Record<string, string> | undefined,
): void {
  stack.sim.store.upsert({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas: 1,
      ...(labels ? { selector: { matchLabels: labels } } : {}),
      template: { metadata: { labels: labels ?? {} }, spec: { containers: [{ name: 'app', image: 'x' }] } },
    },
  });
}

/** Writes lines to a running container's log. */
export function write(stack: Stack, ns: string, pod: string, container: string, ...lines: string[]): void {
  for (const l of lines) stack.sim.store.appendLog(ns, pod, container, l);
}
