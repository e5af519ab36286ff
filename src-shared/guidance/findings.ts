import type { ExitCodeExplanation } from './exit-codes';
import type { FailedSchedulingInfo } from './scheduling';
import type { GuidanceCheck, GuidanceEntry, GuidanceRef, GuidanceSeverity } from './types';

/**
 * What an explanation of one object is made of, for every kind: findings, each a raw reason from
 * the object (a phase, a condition, an event reason) with the knowledge-base entry that explains
 * it and the steps that name the objects to look at next. Also the look-ups an explanation may
 * make, as an interface the service backs with its watch caches and a test backs with a table.
 */

export type FindingSource =
  | 'phase'
  | 'pod-reason'
  | 'waiting'
  | 'terminated'
  | 'last-terminated'
  | 'condition'
  /** Something the object's spec and status say together (a claim with no StorageClass). */
  | 'status'
  /** A Warning event about the object. */
  | 'event';

export type Finding = {
  source: FindingSource;
  /** Container name for container findings. */
  container?: string;
  initContainer?: boolean;
  /** The raw phase, reason or condition type as found on the object. */
  reason: string;
  /** For a condition: the condition's own reason (e.g. DoesNotExist), beside its type in `reason`. */
  conditionReason?: string;
  /** The raw message from the object or event, if any. */
  message?: string;
  severity: GuidanceSeverity;
  guidance?: GuidanceEntry;
  exitCode?: ExitCodeExplanation;
  /** Present for an unschedulable PodScheduled condition whose message parses. */
  scheduling?: FailedSchedulingInfo;
  /** Steps about this very object, before the entry's generic ones; each names the object it means. */
  checks?: GuidanceCheck[];
};

/** The fields of any Kubernetes object an explanation reads; everything else is `unknown`. */
export type ObjectLike = {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; uid?: string };
  spec?: unknown;
  status?: unknown;
};

/** An object as a list holds it: the API gives every one a name. */
export type ListedObject = ObjectLike & { metadata: { name: string; namespace?: string } };

/** An event about the object, as the events API records it. */
export type EventLike = { type: string; reason: string; message: string };

/** What an explanation may look up beyond the object itself. */
export interface ExplainContext {
  /**
   * The object a ref names: null when it does not exist, undefined when that cannot be known
   * (the kind is not served, or not readable with these credentials).
   */
  find(ref: GuidanceRef): Promise<ObjectLike | null | undefined>;
  /** Objects of one kind in one namespace (each has a name); undefined when they cannot be known. */
  list(resourceType: string, namespace: string): Promise<readonly ListedObject[] | undefined>;
  /** Objects of one kind in every namespace (the pods bound to nodes); undefined when they cannot be known. */
  listAll?(resourceType: string): Promise<readonly ListedObject[] | undefined>;
  /** The object's own events, oldest first. */
  events: readonly EventLike[];
}

/** A finding explained by `guidance` (when there is one); its severity falls back to `fallback`. */
export function finding(
  source: FindingSource,
  reason: string,
  guidance: GuidanceEntry | undefined,
  fallback: GuidanceSeverity,
  extra: Partial<Omit<Finding, 'source' | 'reason' | 'guidance' | 'severity'>> = {},
): Finding {
  const out: Finding = { source, reason, ...extra, severity: guidance?.severity ?? fallback };
  if (guidance) out.guidance = guidance;
  return out;
}

/** A finding explained by an entry that always exists: its severity is the entry's. */
export function explained(
  source: FindingSource,
  reason: string,
  guidance: GuidanceEntry,
  extra: Partial<Omit<Finding, 'source' | 'reason' | 'guidance' | 'severity'>> = {},
): Finding {
  return { source, reason, ...extra, severity: guidance.severity, guidance };
}

/** `status.conditions` of any object, if it has any that look like conditions. */
export type ConditionLike = { type: string; status: string; reason?: string; message?: string };
export function conditionsOf(obj: ObjectLike): ConditionLike[] {
  const status = obj.status as { conditions?: unknown } | null | undefined;
  const list = Array.isArray(status?.conditions) ? (status.conditions as unknown[]) : [];
  return list.filter(
    (c): c is ConditionLike =>
      typeof c === 'object' &&
      c !== null &&
      typeof (c as ConditionLike).type === 'string' &&
      typeof (c as ConditionLike).status === 'string',
  );
}
