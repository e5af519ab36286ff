/**
 * The demo's "bad rollout" (issue 27 §4): shop/checkout is rolled out to an image whose new
 * version cannot parse its configuration, so the new ReplicaSet's pod crash-loops while the old
 * pods keep serving (a RollingUpdate with maxUnavailable 0 of 2), exactly what "what changed
 * before it started failing" should name.
 *
 * Rules: it runs only when asked (Simulator.runScenario, or SimulatorOptions.scenarios after a
 * delay), never at load, so the demo's objects, counts and screenshots stay as they always were
 * until then; it runs once (a second call changes nothing); every change goes through the store
 * (watches see a Deployment update, a ReplicaSet and a Pod added, Pod updates, and BackOff events
 * from the ticker's crash loop, which the returned Crasher drives); the crashing container's logs
 * say why it exits.
 */

import type { Crasher } from '../content';
import type { SimStore } from '../store';
import type { KubeObject, Pod } from '../types';
import { DemoLogSource } from './log-source';
import { generatedSuffix, replicaSetName } from './naming';

export const BAD_ROLLOUT = {
  namespace: 'shop',
  deployment: 'checkout',
  container: 'checkout',
  image: 'registry.example.com/shop/checkout:3.8.3',
} as const;

type Json = Record<string, unknown>;
const now3339 = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** The pod the new ReplicaSet starts (its name is fixed: tests and e2e look for it). */
export function badRolloutPodName(): string {
  const rs = replicaSetName(BAD_ROLLOUT.namespace, BAD_ROLLOUT.deployment, 2);
  return `${rs}-${generatedSuffix(BAD_ROLLOUT.namespace, rs, 0)}`;
}

/** Rolls checkout out to the bad image; the crasher the ticker loops. Nothing when already done. */
export function badRollout(store: SimStore): Crasher[] {
  const { namespace: ns, deployment: name, container } = BAD_ROLLOUT;
  const deploy = store.get('deployments', ns, name);
  if (!deploy) throw new Error(`deployments "${name}" not found in namespace ${ns}`);
  const spec = deploy.spec as Json & {
    template: { metadata?: { labels?: Record<string, string> }; spec: Pod['spec'] };
  };
  const app = spec.template.spec.containers.find((c) => c.name === container);
  if (!app || app.image === BAD_ROLLOUT.image) return [];
  const revision = Number(deploy.metadata.annotations?.['deployment.kubernetes.io/revision'] ?? '1') + 1;
  const rsName = replicaSetName(ns, name, revision);
  const podName = `${rsName}-${generatedSuffix(ns, rsName, 0)}`;
  const now = store.now();

  // The user's write (a new template: new image, new generation), then the controller's (the
  // revision annotation and the status), as an apiserver sees them.
  app.image = BAD_ROLLOUT.image;
  deploy.metadata.generation = (deploy.metadata.generation ?? 1) + 1;
  const written = store.upsert(deploy);
  written.metadata.annotations = {
    ...written.metadata.annotations,
    'deployment.kubernetes.io/revision': String(revision),
  };
  const status = (written.status ?? {}) as Json & { conditions?: Json[] };
  const replicas = Number(spec.replicas ?? 1);
  written.status = {
    ...status,
    observedGeneration: written.metadata.generation,
    replicas: replicas + 1,
    updatedReplicas: 1,
    unavailableReplicas: 1,
    conditions: (status.conditions ?? []).map((c) =>
      c.type === 'Progressing'
        ? {
            ...c,
            status: 'True',
            reason: 'ReplicaSetUpdated',
            message: `ReplicaSet "${rsName}" is progressing.`,
            lastUpdateTime: now3339(now),
          }
        : c,
    ),
  };
  const updated = store.upsert(written);

  const hash = rsName.slice(name.length + 1);
  const labels = { ...(spec.template.metadata?.labels ?? {}), 'pod-template-hash': hash };
  const owner = (o: KubeObject) => ({
    apiVersion: o.apiVersion,
    kind: o.kind,
    name: o.metadata.name,
    uid: o.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  });
  const rs = store.upsert({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: rsName,
      namespace: ns,
      labels,
      annotations: {
        'deployment.kubernetes.io/desired-replicas': String(replicas),
        'deployment.kubernetes.io/max-replicas': String(replicas + 1),
        'deployment.kubernetes.io/revision': String(revision),
      },
      ownerReferences: [owner(updated)],
    },
    spec: {
      replicas: 1,
      selector: {
        matchLabels: {
          ...((spec.selector as { matchLabels?: object })?.matchLabels ?? {}),
          'pod-template-hash': hash,
        },
      },
      template: { metadata: { labels }, spec: structuredClone(spec.template.spec) },
    },
    status: { replicas: 1, fullyLabeledReplicas: 1, observedGeneration: 1 },
  } as unknown as KubeObject);

  // Its pod: scheduled where an old one runs, init done, containers about to start.
  const old = (store.list('pods', ns) as Pod[]).find((p) => p.metadata.name.startsWith(`${name}-`));
  const podSpec = structuredClone(spec.template.spec);
  const waiting = (c: { name: string; image: string }) => ({
    name: c.name,
    image: c.image,
    imageID: '',
    ready: false,
    started: false,
    restartCount: 0,
    state: { waiting: { reason: 'ContainerCreating' } },
    lastState: {},
  });
  const at = now3339(now);
  store.upsert({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podName,
      generateName: `${rsName}-`,
      namespace: ns,
      labels,
      ownerReferences: [owner(rs)],
    },
    spec: { ...podSpec, nodeName: old?.spec.nodeName ?? 'worker-1' },
    status: {
      phase: 'Running',
      hostIP: old?.status.hostIP,
      podIP: '10.244.2.77',
      startTime: at,
      conditions: [
        { type: 'PodScheduled', status: 'True', lastTransitionTime: at },
        { type: 'Initialized', status: 'True', lastTransitionTime: at },
        { type: 'ContainersReady', status: 'False', lastTransitionTime: at, reason: 'ContainersNotReady' },
        { type: 'Ready', status: 'False', lastTransitionTime: at, reason: 'ContainersNotReady' },
      ],
      initContainerStatuses: (podSpec.initContainers ?? []).map((c) => ({
        ...waiting(c),
        ready: true,
        state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: at, finishedAt: at } },
      })),
      containerStatuses: podSpec.containers.map(waiting),
    },
  } as unknown as KubeObject);
  if (store.logs.source instanceof DemoLogSource) {
    store.logs.source.assign(ns, podName, container, 'checkout-bad');
    for (const c of podSpec.containers)
      if (c.name !== container)
        store.logs.source.assign(ns, podName, c.name, c.name === 'envoy' ? 'envoy' : 'checkout');
  }
  for (const c of podSpec.containers) store.startContainer(ns, podName, c.name);
  return [{ namespace: ns, pod: podName, container, mode: 'crashloop' }];
}
