/**
 * Pod specs from templates. Replicas share one spec object (the store never mutates stored
 * objects in place); workloads get the pre-admission template without token volume and
 * default tolerations, as a real Deployment's spec.template looks.
 */

import { safeSuffix } from '../random';
import type { ContainerTemplate, PodTemplate } from './pod-types';

// Keyed by template object: templates are rebuilt per generation run (seeds may differ).
const specCache = new WeakMap<PodTemplate, Record<string, unknown>>();

function probe(p: { path: string; port: number }, period: number) {
  return {
    httpGet: { path: p.path, port: p.port, scheme: 'HTTP' },
    timeoutSeconds: 1,
    periodSeconds: period,
    successThreshold: 1,
    failureThreshold: 3,
  };
}

function containerSpec(c: ContainerTemplate, tokenVolume: string) {
  const resources: Record<string, unknown> = {};
  if (c.limits) resources.limits = c.limits;
  if (c.requests) resources.requests = c.requests;
  return {
    name: c.name,
    image: c.image,
    ...(c.args ? { args: c.args } : {}),
    ...(c.ports ? { ports: c.ports.map((p) => ({ ...p, protocol: p.protocol ?? 'TCP' })) } : {}),
    ...(c.env ? { env: c.env } : {}),
    resources,
    volumeMounts: [
      ...(c.volumeMounts ?? []),
      { name: tokenVolume, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
    ],
    ...(c.liveness ? { livenessProbe: probe(c.liveness, 10) } : {}),
    ...(c.readiness ? { readinessProbe: probe(c.readiness, 5) } : {}),
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: c.image.endsWith(':latest') ? 'Always' : 'IfNotPresent',
  };
}

const BASE_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];
const DAEMON_TOLERATIONS = [
  { operator: 'Exists' },
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
];

/** The template part of a pod spec (no nodeName), shared by all replicas. */
export function templateSpec(t: PodTemplate): Record<string, unknown> {
  const hit = specCache.get(t);
  if (hit) return hit;
  const tokenVolume = `kube-api-access-${safeSuffix(t.id, 5)}`;
  const sa = t.serviceAccountName ?? 'default';
  const spec = {
    volumes: [
      ...(t.volumes ?? []),
      {
        name: tokenVolume,
        projected: {
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            {
              downwardAPI: {
                items: [
                  { path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } },
                ],
              },
            },
          ],
          defaultMode: 420,
        },
      },
    ],
    ...(t.initContainers
      ? { initContainers: t.initContainers.map((c) => containerSpec(c, tokenVolume)) }
      : {}),
    containers: t.containers.map((c) => containerSpec(c, tokenVolume)),
    restartPolicy: t.restartPolicy ?? 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    ...(t.nodeSelector ? { nodeSelector: t.nodeSelector } : {}),
    serviceAccountName: sa,
    serviceAccount: sa,
    securityContext: {},
    schedulerName: 'default-scheduler',
    tolerations: t.tolerateEverything ? DAEMON_TOLERATIONS : BASE_TOLERATIONS,
    ...(t.priorityClassName
      ? { priorityClassName: t.priorityClassName, priority: 2000001000 }
      : { priority: 0 }),
    enableServiceLinks: true,
    preemptionPolicy: 'PreemptLowerPriority',
  };
  specCache.set(t, spec);
  return spec;
}

const workloadSpecCache = new WeakMap<PodTemplate, Record<string, unknown>>();

/** The pod template as stored in a workload: before admission adds tokens and tolerations. */
export function workloadTemplateSpec(t: PodTemplate): Record<string, unknown> {
  const hit = workloadSpecCache.get(t);
  if (hit) return hit;
  const strip = (c: ContainerTemplate) => {
    const { volumeMounts, ...rest } = containerSpec(c, '');
    const own = volumeMounts.slice(0, -1);
    return own.length > 0 ? { ...rest, volumeMounts: own } : rest;
  };
  const spec = {
    ...(t.volumes ? { volumes: t.volumes } : {}),
    ...(t.initContainers ? { initContainers: t.initContainers.map(strip) } : {}),
    containers: t.containers.map(strip),
    restartPolicy: t.restartPolicy ?? 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    ...(t.nodeSelector ? { nodeSelector: t.nodeSelector } : {}),
    ...(t.serviceAccountName
      ? { serviceAccountName: t.serviceAccountName, serviceAccount: t.serviceAccountName }
      : {}),
    securityContext: {},
    schedulerName: 'default-scheduler',
    ...(t.tolerateEverything ? { tolerations: [{ operator: 'Exists' }] } : {}),
    ...(t.priorityClassName ? { priorityClassName: t.priorityClassName } : {}),
  };
  workloadSpecCache.set(t, spec);
  return spec;
}

export function qosClass(t: PodTemplate): string {
  const all = [...t.containers, ...(t.initContainers ?? [])];
  if (all.every((c) => !c.requests && !c.limits)) return 'BestEffort';
  const guaranteed = all.every(
    (c) =>
      c.limits?.cpu &&
      c.limits.memory &&
      (!c.requests || (c.requests.cpu === c.limits.cpu && c.requests.memory === c.limits.memory)),
  );
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
