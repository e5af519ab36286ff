/**
 * Scale-out: extra namespaces (team-01…), Deployments and Services until the requested pod
 * count is reached, and extra events until the requested event count is reached. Mostly
 * healthy, with a seeded sprinkle of restarts, crash loops and failing readiness probes.
 */

import { HOUR, MINUTE, SECOND } from '../time';
import type { Pod } from '../types';
import type { Gen } from './context';
import { buildDeployment } from './deployment';
import { kubeletEvent, schedulerEvent } from './events';
import type { LogProfileId } from './log-profiles';
import { buildNamespace } from './namespaces';
import type { PodState } from './pods';
import { buildService } from './services';

const APPS = [
  'orders',
  'inventory',
  'billing',
  'search',
  'notifications',
  'recommendations',
  'auth',
  'catalog',
  'reviews',
  'shipping',
  'analytics',
  'gateway',
];
const LOGS: LogProfileId[] = ['worker', 'checkout', 'payments', 'nginx'];
const SIZES = [
  { cpu: '50m', memory: '64Mi' },
  { cpu: '100m', memory: '128Mi' },
  { cpu: '250m', memory: '256Mi' },
  { cpu: '500m', memory: '512Mi' },
];

function fillerNamespaceName(i: number): string {
  return `team-${String(i + 1).padStart(2, '0')}`;
}

function fillerState(gen: Gen): PodState {
  const r = gen.rng.next();
  if (r < 0.006)
    return {
      kind: 'crashloop',
      restarts: gen.rng.int(1, 60),
      exitCode: gen.rng.pick([1, 2, 137]),
      lastFinishedAgoMs: gen.rng.int(5, 300) * SECOND,
    };
  if (r < 0.016)
    return {
      kind: 'running',
      restarts: gen.rng.int(1, 5),
      lastExit: { exitCode: 1, reason: 'Error', agoMs: gen.rng.int(1, 600) * MINUTE },
    };
  if (r < 0.021) return { kind: 'running', ready: false };
  return { kind: 'running' };
}

export function buildFillerPods(gen: Gen, podCount: number, namespaceCount: number): Pod[] {
  const pods: Pod[] = [];
  if (podCount <= 0) return pods;
  const nsCount = Math.max(1, namespaceCount);
  for (let i = 0; i < nsCount; i++)
    buildNamespace(gen, fillerNamespaceName(i), gen.rng.int(2, 25) * 24 * HOUR, {
      team: fillerNamespaceName(i),
    });
  const perNs = Math.ceil(podCount / nsCount);
  let remaining = podCount;
  for (let n = 0; n < nsCount && remaining > 0; n++) {
    const ns = fillerNamespaceName(n);
    let inNs = Math.min(perNs, remaining);
    for (let d = 0; inNs > 0; d++) {
      const base = APPS[d % APPS.length] as string;
      const name = d < APPS.length ? base : `${base}-${Math.floor(d / APPS.length) + 1}`;
      const replicas = Math.min(inNs, gen.rng.int(3, 15));
      const states = Array.from({ length: replicas }, () => fillerState(gen));
      const size = gen.rng.pick(SIZES);
      const labels = { app: name, team: ns };
      const created = gen.rng.int(1, 20) * 24 * HOUR;
      pods.push(
        ...buildDeployment(gen, {
          namespace: ns,
          name,
          labels,
          selector: { app: name },
          replicas,
          strategy: gen.rng.chance(0.8) ? 'RollingUpdate' : 'Recreate',
          createdAgoMs: created,
          manager: gen.rng.pick(['helm', 'argocd-controller', 'kubectl']),
          states,
          template: {
            id: `${ns}/${name}`,
            shape: 'filler',
            labels,
            containers: [
              {
                name: 'app',
                image: `registry.example.com/${ns}/${name}:1.${gen.rng.int(0, 30)}.${gen.rng.int(0, 9)}`,
                log: gen.rng.pick(LOGS),
                ports: [{ name: 'http', containerPort: 8080 }],
                requests: size,
                limits: { memory: size.memory },
                readiness: { path: '/ready', port: 8080 },
              },
            ],
          },
        }),
      );
      buildService(gen, {
        namespace: ns,
        name,
        selector: { app: name },
        ports: [{ name: 'http', port: 80, targetPort: 'http' }],
        createdAgoMs: created,
        manager: 'helm',
      });
      inNs -= replicas;
      remaining -= replicas;
    }
  }
  for (const pod of pods) {
    const cs = pod.status.containerStatuses?.[0];
    if (cs?.state.waiting?.reason === 'CrashLoopBackOff') {
      gen.crashers.push({
        namespace: pod.metadata.namespace ?? '',
        pod: pod.metadata.name,
        container: 'app',
        mode: 'crashloop',
      });
      kubeletEvent(gen, pod, {
        reason: 'BackOff',
        type: 'Warning',
        message: `Back-off restarting failed container app in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
        count: cs.restartCount * 3,
        firstAgoMs: 55 * MINUTE,
        lastAgoMs: 30 * SECOND,
      });
    } else if (cs && !cs.ready && cs.state.running) {
      kubeletEvent(gen, pod, {
        reason: 'Unhealthy',
        type: 'Warning',
        message:
          'Readiness probe failed: Get "http://10.244.1.9:8080/ready": dial tcp 10.244.1.9:8080: connect: connection refused',
        count: 300,
        firstAgoMs: 55 * MINUTE,
        lastAgoMs: 10 * SECOND,
      });
    }
  }
  return pods;
}

const FILLER_CYCLE = [
  ['Pulled', 'Normal'],
  ['Created', 'Normal'],
  ['Started', 'Normal'],
  ['Unhealthy', 'Warning'],
  ['Killing', 'Normal'],
  ['BackOff', 'Warning'],
] as const;

/** Adds events about the given pods until the cluster holds `target` events. */
export function buildFillerEvents(gen: Gen, pods: Pod[], target: number): void {
  if (pods.length === 0) return;
  let i = 0;
  while (gen.events.length < target) {
    const pod = pods[i % pods.length] as Pod;
    const round = Math.floor(i / pods.length);
    const ago = gen.rng.int(10, 3600) * SECOND;
    if (round === 0) {
      schedulerEvent(gen, pod, {
        reason: 'Scheduled',
        message: `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${pod.spec.nodeName ?? 'worker-1'}`,
        firstAgoMs: ago,
        action: 'Binding',
      });
    } else {
      const [reason, type] = FILLER_CYCLE[(round - 1) % FILLER_CYCLE.length] as (typeof FILLER_CYCLE)[number];
      const image = pod.spec.containers[0]?.image ?? '';
      const message =
        reason === 'Pulled'
          ? `Container image "${image}" already present on machine`
          : reason === 'Created'
            ? 'Created container: app'
            : reason === 'Started'
              ? 'Started container app'
              : reason === 'Unhealthy'
                ? 'Readiness probe failed: HTTP probe failed with statuscode: 500'
                : reason === 'Killing'
                  ? 'Container app failed liveness probe, will be restarted'
                  : `Back-off restarting failed container app in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
      kubeletEvent(gen, pod, {
        reason,
        type,
        message,
        count: gen.rng.int(1, 20),
        firstAgoMs: ago + 5 * MINUTE,
        lastAgoMs: ago,
      });
    }
    i++;
  }
}
