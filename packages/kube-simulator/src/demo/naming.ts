/**
 * Generated names the way the controllers build them. They derive from the namespace and
 * workload name only (never from the seed), so tests can rely on them across seeds.
 */

import { hash32, safeSuffix } from '../random';

/** pod-template-hash: 9 or 10 characters from the controller's vowel-free alphabet. */
export function templateHash(namespace: string, workload: string, revision: number): string {
  const key = `${namespace}/${workload}/rev${revision}`;
  return safeSuffix(key, 9 + (hash32(key) % 2));
}

export function replicaSetName(namespace: string, deployment: string, revision: number): string {
  return `${deployment}-${templateHash(namespace, deployment, revision)}`;
}

/** generateName suffix: five characters, as the apiserver's SimpleNameGenerator makes them. */
export function generatedSuffix(namespace: string, owner: string, index: number): string {
  return safeSuffix(`${namespace}/${owner}/${index}`, 5);
}

export function deploymentPodName(
  namespace: string,
  deployment: string,
  revision: number,
  index: number,
): string {
  const rs = replicaSetName(namespace, deployment, revision);
  return `${rs}-${generatedSuffix(namespace, rs, index)}`;
}

export function ownedPodName(namespace: string, owner: string, index: number): string {
  return `${owner}-${generatedSuffix(namespace, owner, index)}`;
}

/** CronJob jobs are named after their scheduled time in minutes since the epoch. */
export function cronJobName(cronJob: string, scheduledMs: number): string {
  return `${cronJob}-${Math.floor(scheduledMs / 60_000)}`;
}
