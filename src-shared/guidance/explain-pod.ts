import { type ExitCodeExplanation, explainExitCode } from './exit-codes';
import { findGuidance, guidanceForReason } from './registry';
import { type FailedSchedulingInfo, parseFailedScheduling } from './scheduling';
import type { GuidanceEntry, GuidanceSeverity } from './types';

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
  spec?: { restartPolicy?: string } | null;
  status?: {
    phase?: string;
    reason?: string;
    message?: string;
    conditions?: readonly PodConditionLike[] | null;
    initContainerStatuses?: readonly ContainerStatusLike[] | null;
    containerStatuses?: readonly ContainerStatusLike[] | null;
  } | null;
};

export type PodFinding = {
  source: 'phase' | 'pod-reason' | 'waiting' | 'terminated' | 'last-terminated' | 'condition';
  /** Container name for container findings. */
  container?: string;
  initContainer?: boolean;
  /** The raw phase, reason or condition type as found on the object. */
  reason: string;
  /** The raw message from the object, if any. */
  message?: string;
  severity: GuidanceSeverity;
  guidance?: GuidanceEntry;
  exitCode?: ExitCodeExplanation;
  /** Present for an unschedulable PodScheduled condition whose message parses. */
  scheduling?: FailedSchedulingInfo;
};

function containerFindings(statuses: readonly ContainerStatusLike[], init: boolean): PodFinding[] {
  const out: PodFinding[] = [];
  for (const cs of statuses) {
    const base = init ? { container: cs.name, initContainer: true } : { container: cs.name };
    const waiting = cs.state?.waiting;
    const terminated = cs.state?.terminated;
    if (waiting?.reason) {
      const guidance = findGuidance('container-waiting', waiting.reason);
      out.push({
        ...base,
        source: 'waiting',
        reason: waiting.reason,
        ...(waiting.message ? { message: waiting.message } : {}),
        severity: guidance?.severity ?? 'warning',
        ...(guidance ? { guidance } : {}),
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
  const findings: PodFinding[] = [];
  if (status.phase) {
    const guidance = findGuidance('pod-phase', status.phase);
    findings.push({
      source: 'phase',
      reason: status.phase,
      severity: guidance?.severity ?? 'warning',
      ...(guidance ? { guidance } : {}),
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
  findings.push(...containerFindings(status.initContainerStatuses ?? [], true));
  findings.push(...containerFindings(status.containerStatuses ?? [], false));
  findings.push(...conditionFindings(status.conditions ?? [], status.phase));
  return findings;
}
