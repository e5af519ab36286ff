/**
 * Troubleshooting knowledge base shown beside resource status and events: what a
 * phase/reason/condition/exit code means, its usual causes, and what to check next,
 * with actions that point at the data in Skiff that answers each check.
 */
export type { ExitCodeExplanation } from './exit-codes';
export { explainExitCode, signalName } from './exit-codes';
export { explainConditions } from './explain-conditions';
export { explainIngress } from './explain-ingress';
export { explainEvents, explainObject, MAX_EVENT_FINDINGS } from './explain-object';
export type {
  ContainerStateLike,
  ContainerStatusLike,
  PodConditionLike,
  PodFinding,
  PodLike,
} from './explain-pod';
export { explainPod } from './explain-pod';
export { explainPvc } from './explain-pvc';
export type {
  ConditionLike,
  EventLike,
  ExplainContext,
  Finding,
  FindingSource,
  ObjectLike,
} from './findings';
export type { NamedObject, UsedKind, UsedObject } from './refs';
export { messageChecks, podUses, refKey, refOf, refsInMessage } from './refs';
export { findGuidance, guidanceForReason, listGuidance } from './registry';
export type { FailedSchedulingInfo, SchedulingReason } from './scheduling';
export { parseFailedScheduling, schedulingReasonHint } from './scheduling';
export type {
  ConditionStatus,
  GuidanceAction,
  GuidanceCheck,
  GuidanceEntry,
  GuidanceFieldPath,
  GuidanceRef,
  GuidanceSeverity,
  GuidanceSubject,
  PlaceholderValues,
} from './types';
export { describeAction, fillPlaceholders } from './types';
