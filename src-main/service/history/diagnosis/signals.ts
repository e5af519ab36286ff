/**
 * Whether an object is failing, read from the object alone, and when its failure started (the
 * onset) once the evidence outside it (its events, its kept logs) is added.
 *
 * Rules (docs/api.md "Diagnosis"):
 * - Failing: a pod with a container waiting in CrashLoopBackOff, or restarted after a failed exit
 *   and not ready (a crash loop between two back-offs), in ImagePullBackOff/ErrImagePull or any
 *   other waiting reason but ContainerCreating/PodInitializing; a Pending or Failed pod; a Job whose
 *   Failed condition is True; a Node whose Ready condition is not True; a Deployment whose
 *   Progressing condition is False. Every other object is not failing; a kind not listed here is
 *   not diagnosed. Neither is an error: the answer says so in its signals.
 * - Onset candidates: a condition's lastTransitionTime, a container's last termination, a Pending
 *   pod's creation, and the evidence the caller adds (first BackOff or Warning event, first kept
 *   failed run). The onset is the earliest candidate; with none, the failure is taken to start now.
 * - Pure: no clock but the one passed in, no I/O; a malformed field is ignored, never thrown on.
 */
import type { DiagnosisSignal } from '../../../../src-shared/contract/diagnosis-operations';

/** The parts of an object this module reads; anything else may be anything. */
export interface ObjectJson {
  kind?: unknown;
  metadata?: { creationTimestamp?: unknown; [k: string]: unknown };
  spec?: unknown;
  status?: unknown;
}

/** One thing that says when the failure started. */
export interface Candidate {
  type: string;
  message: string;
  timeMs: number;
}

export interface StatusReading {
  /** What says it is failing now; empty when it is not. */
  failures: { type: string; message: string }[];
  candidates: Candidate[];
  /** Which event reasons date the failure: `BackOff` for a back-off, any Warning for the rest. */
  events: 'backoff' | 'warning' | 'none';
  /** False for a kind this module does not diagnose. */
  diagnosed: boolean;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj) : []);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** Epoch ms of an RFC 3339 text; undefined for anything else. */
export function timeOf(v: unknown): number | undefined {
  const t = typeof v === 'string' ? Date.parse(v) : Number.NaN;
  return Number.isNaN(t) ? undefined : t;
}

const STARTING = new Set(['ContainerCreating', 'PodInitializing']);
const PULL = new Set(['ImagePullBackOff', 'ErrImagePull']);

function condition(status: Json, type: string): Json | undefined {
  return list(status.conditions).find((c) => c.type === type);
}

function readPod(o: ObjectJson): StatusReading {
  const status = obj(o.status);
  const failures: StatusReading['failures'] = [];
  const candidates: Candidate[] = [];
  let backoff = false;
  const containers = [...list(status.initContainerStatuses), ...list(status.containerStatuses)];
  for (const c of containers) {
    const name = text(c.name) ?? '?';
    const waiting = text(obj(obj(c.state).waiting).reason);
    const last = obj(obj(c.lastState).terminated);
    const restarts = typeof c.restartCount === 'number' ? c.restartCount : 0;
    const lastExit = typeof last.exitCode === 'number' ? last.exitCode : undefined;
    const failedLast = lastExit !== undefined && lastExit !== 0;
    if (waiting === 'CrashLoopBackOff' || (restarts > 0 && failedLast && c.ready !== true)) {
      backoff = true;
      failures.push({
        type: 'CrashLoopBackOff',
        message: `container ${name} is crash-looping: restarted ${restarts} times, last exit code ${lastExit ?? 'unknown'}${text(last.reason) ? ` (${text(last.reason)})` : ''}`,
      });
    } else if (waiting && PULL.has(waiting)) {
      backoff = true;
      failures.push({
        type: 'ImagePullBackOff',
        message: `container ${name} cannot pull its image (${waiting})`,
      });
    } else if (waiting && !STARTING.has(waiting)) {
      failures.push({ type: waiting, message: `container ${name} is waiting: ${waiting}` });
    }
    const finished = timeOf(last.finishedAt);
    if (failedLast && finished !== undefined)
      candidates.push({
        type: restarts <= 1 ? 'FirstRestart' : 'LastRestart',
        message: `container ${name} exited with code ${lastExit}${restarts > 1 ? ` (restart ${restarts}; earlier ones were not kept by the kubelet)` : ''}`,
        timeMs: finished,
      });
  }
  const phase = text(status.phase);
  const scheduled = condition(status, 'PodScheduled');
  if (phase === 'Pending') {
    if (scheduled?.status === 'False') {
      failures.push({
        type: 'Unschedulable',
        message: `the pod cannot be scheduled: ${text(scheduled.message) ?? text(scheduled.reason) ?? 'no reason given'}`,
      });
      const at = timeOf(scheduled.lastTransitionTime);
      if (at !== undefined)
        candidates.push({ type: 'ConditionTransition', message: 'PodScheduled became False', timeMs: at });
    } else if (failures.length === 0) failures.push({ type: 'Pending', message: 'the pod is Pending' });
    const created = timeOf(o.metadata?.creationTimestamp);
    if (created !== undefined)
      candidates.push({ type: 'Created', message: 'the pod was created', timeMs: created });
  } else if (phase === 'Failed') {
    failures.push({
      type: 'PodFailed',
      message: `the pod failed${text(status.reason) ? `: ${text(status.reason)}` : ''}`,
    });
  }
  const events = failures.length === 0 ? 'none' : backoff ? 'backoff' : 'warning';
  return { failures, candidates: failures.length === 0 ? [] : candidates, events, diagnosed: true };
}

/** A condition that, with the status given, means the object is failing since its transition. */
function byCondition(
  o: ObjectJson,
  type: string,
  failing: (status: unknown) => boolean,
  failure: (c: Json) => { type: string; message: string },
): StatusReading {
  const c = condition(obj(o.status), type);
  if (!c || !failing(c.status)) return { failures: [], candidates: [], events: 'none', diagnosed: true };
  const at = timeOf(c.lastTransitionTime);
  const f = failure(c);
  return {
    failures: [f],
    candidates:
      at === undefined
        ? []
        : [{ type: 'ConditionTransition', message: `${type} became ${String(c.status)}`, timeMs: at }],
    events: 'none',
    diagnosed: true,
  };
}

const words = (c: Json) => text(c.message) ?? text(c.reason) ?? 'no reason given';

export function readStatus(kind: string, o: ObjectJson): StatusReading {
  switch (kind) {
    case 'Pod':
      return readPod(o);
    case 'Job':
      return byCondition(
        o,
        'Failed',
        (s) => s === 'True',
        (c) => ({ type: 'JobFailed', message: `the Job failed: ${words(c)}` }),
      );
    case 'Node':
      return byCondition(
        o,
        'Ready',
        (s) => s !== 'True',
        (c) => ({ type: 'NodeNotReady', message: `the node is not Ready: ${words(c)}` }),
      );
    case 'Deployment':
      return byCondition(
        o,
        'Progressing',
        (s) => s === 'False',
        (c) => ({
          type: text(c.reason) ?? 'NotProgressing',
          message: `the Deployment is not progressing: ${words(c)}`,
        }),
      );
    default:
      return { failures: [], candidates: [], events: 'none', diagnosed: false };
  }
}

/**
 * The signals of a diagnosis, oldest candidate first after the failures, with the onset (epoch
 * ms) marked: the earliest candidate, or `now` (the service's clock, or a snapshot's takenAt) when
 * there is none. Not failing: onset undefined and one signal saying why.
 */
export function onsetOf(
  kind: string,
  failures: readonly { type: string; message: string }[],
  candidates: readonly Candidate[],
  diagnosed: boolean,
  now: number,
): { onsetMs: number | undefined; signals: DiagnosisSignal[] } {
  if (failures.length === 0) {
    const message = diagnosed
      ? `the ${kind} is not failing: nothing in its status says so`
      : `Skiff diagnoses Pods, Jobs, Nodes and Deployments; a ${kind} is not diagnosed`;
    return { onsetMs: undefined, signals: [{ type: diagnosed ? 'NotFailing' : 'NotDiagnosed', message }] };
  }
  const signals: DiagnosisSignal[] = failures.map((f) => ({ type: f.type, message: f.message }));
  const ordered = [...candidates].sort((a, b) => a.timeMs - b.timeMs);
  const first = ordered[0];
  for (const [i, c] of ordered.entries())
    signals.push({
      type: c.type,
      message: c.message,
      time: new Date(c.timeMs).toISOString(),
      ...(i === 0 ? { onset: true as const } : {}),
    });
  if (first) return { onsetMs: first.timeMs, signals };
  signals.push({
    type: 'OnsetUnknown',
    message: 'nothing recorded says when the failure started: the window counts back from now',
    time: new Date(now).toISOString(),
    onset: true,
  });
  return { onsetMs: now, signals };
}
