/**
 * "Why is this pod broken", from the pod alone: no look-ups, so the renderer runs it offline on the
 * object it shows. Steps that name another object (the claims of a Pending pod, the ConfigMaps and
 * Secrets of a pod stuck creating its containers) carry a ref; whether those exist is for a caller
 * with the caches to say (explain-object.ts).
 */

import { explainExitCode } from './exit-codes';
import type { Finding } from './findings';
import {
  mergeChecks,
  messageChecks,
  type PodSpecRefsLike,
  podUses,
  type UsedObject,
  usedObjectChecks,
} from './refs';
import { findGuidance, guidanceForReason } from './registry';
import { parseFailedScheduling } from './scheduling';
import type { GuidanceCheck } from './types';

// Structural subsets of core/v1 Pod: only the fields read here, so both
// @kubernetes/client-node objects and plain JSON from the API fit.
export type ContainerStateLike = {
  waiting?: { reason?: string; message?: string } | null;
  running?: object | null;
  terminated?: { exitCode: number; signal?: number; reason?: string; message?: string } | null;
};

export type ContainerStatusLike = {
  name: string;
  ready?: boolean;
  restartCount?: number;
  state?: ContainerStateLike | null;
  lastState?: ContainerStateLike | null;
};

export type PodConditionLike = { type: string; status: string; reason?: string; message?: string };

export type PodLike = {
  metadata?: { namespace?: string } | null;
  spec?: ({ restartPolicy?: string } & PodSpecRefsLike) | null;
  status?: {
    phase?: string;
    reason?: string;
    message?: string;
    conditions?: readonly PodConditionLike[] | null;
    initContainerStatuses?: readonly ContainerStatusLike[] | null;
    containerStatuses?: readonly ContainerStatusLike[] | null;
  } | null;
};

export type PodFinding = Finding & {
  source: 'phase' | 'pod-reason' | 'waiting' | 'terminated' | 'last-terminated' | 'condition';
};

/** Waiting reasons caused by a missing ConfigMap, Secret or claim: their steps name each one. */
const WAITS_ON_OBJECTS: Readonly<Record<string, (u: UsedObject) => boolean>> = {
  // Volumes are mounted before any container is created.
  ContainerCreating: (u) => u.via.startsWith('volume '),
  // env and envFrom are resolved per container.
  CreateContainerConfigError: (u) => !u.via.startsWith('volume '),
};

function containerFindings(
  statuses: readonly ContainerStatusLike[],
  init: boolean,
  uses: readonly UsedObject[],
  namespace: string | undefined,
): PodFinding[] {
  const out: PodFinding[] = [];
  for (const cs of statuses) {
    const base = init ? { container: cs.name, initContainer: true } : { container: cs.name };
    const waiting = cs.state?.waiting;
    const terminated = cs.state?.terminated;
    if (waiting?.reason) {
      const guidance = findGuidance('container-waiting', waiting.reason);
      const usedHere = WAITS_ON_OBJECTS[waiting.reason];
      const checks = usedHere
        ? mergeChecks(usedObjectChecks(uses.filter(usedHere)), messageChecks(waiting.message, namespace))
        : [];
      out.push({
        ...base,
        source: 'waiting',
        reason: waiting.reason,
        ...(waiting.message ? { message: waiting.message } : {}),
        severity: guidance?.severity ?? 'warning',
        ...(guidance ? { guidance } : {}),
        ...(checks.length > 0 ? { checks } : {}),
      });
    }
    // A completed init container is the normal case; only failed ones are findings.
    if (terminated && !(init && terminated.exitCode === 0)) {
      out.push(terminatedFinding(base, 'terminated', terminated));
    }
    // lastState explains a restarting container (e.g. OOMKilled behind CrashLoopBackOff).
    const last = cs.lastState?.terminated;
    if (last && (waiting || (cs.restartCount ?? 0) > 0)) {
      out.push(terminatedFinding(base, 'last-terminated', last));
    }
  }
  return out;
}

function terminatedFinding(
  base: { container: string; initContainer?: boolean },
  source: 'terminated' | 'last-terminated',
  t: NonNullable<ContainerStateLike['terminated']>,
): PodFinding {
  const exitCode = explainExitCode(t.exitCode, t.signal);
  const reason = t.reason ?? (t.exitCode === 0 ? 'Completed' : 'Error');
  const guidance = findGuidance('container-terminated', reason);
  return {
    ...base,
    source,
    reason,
    ...(t.message ? { message: t.message } : {}),
    severity: guidance?.severity ?? (t.exitCode === 0 ? 'info' : 'error'),
    ...(guidance ? { guidance } : {}),
    exitCode,
  };
}

function conditionFindings(conditions: readonly PodConditionLike[], phase: string | undefined): PodFinding[] {
  const out: PodFinding[] = [];
  for (const c of conditions) {
    const bad = c.type === 'DisruptionTarget' ? c.status === 'True' : c.status !== 'True';
    // A finished pod is expectedly not Ready; that is not a problem to report.
    if (!bad || c.reason === 'PodCompleted' || phase === 'Succeeded') continue;
    const guidance = findGuidance('pod-condition', c.type, c.status);
    const finding: PodFinding = {
      source: 'condition',
      reason: c.type,
      ...(c.message ? { message: c.message } : {}),
      severity: guidance?.severity ?? 'warning',
      ...(guidance ? { guidance } : {}),
    };
    if (c.type === 'PodScheduled' && c.message) {
      const scheduling = parseFailedScheduling(c.message);
      if (scheduling) finding.scheduling = scheduling;
    }
    out.push(finding);
  }
  return out;
}

/**
 * "Why is this pod broken": findings in reading order — phase, pod-level reason
 * (Evicted, DeadlineExceeded, …), init containers, containers (current state, then
 * the last termination with its exit code), then failing conditions.
 */
export function explainPod(pod: PodLike): PodFinding[] {
  const status = pod.status ?? {};
  const namespace = pod.metadata?.namespace;
  const uses = podUses(namespace, pod.spec);
  const findings: PodFinding[] = [];
  if (status.phase) {
    const guidance = findGuidance('pod-phase', status.phase);
    // A claim that is not Bound keeps a pod Pending: name each one.
    const checks: GuidanceCheck[] =
      status.phase === 'Pending'
        ? uses
            .filter((u) => u.kind === 'PersistentVolumeClaim')
            .map((u) => ({
              text: `PersistentVolumeClaim ${u.ref.name} (${u.via}) must be Bound.`,
              ref: u.ref,
            }))
        : [];
    findings.push({
      source: 'phase',
      reason: status.phase,
      severity: guidance?.severity ?? 'warning',
      ...(guidance ? { guidance } : {}),
      ...(checks.length > 0 ? { checks } : {}),
    });
  }
  if (status.reason) {
    const guidance = guidanceForReason(status.reason);
    findings.push({
      source: 'pod-reason',
      reason: status.reason,
      ...(status.message ? { message: status.message } : {}),
      severity: guidance?.severity ?? 'warning',
      ...(guidance ? { guidance } : {}),
    });
  }
  findings.push(...containerFindings(status.initContainerStatuses ?? [], true, uses, namespace));
  findings.push(...containerFindings(status.containerStatuses ?? [], false, uses, namespace));
  findings.push(...conditionFindings(status.conditions ?? [], status.phase));
  return findings;
}
