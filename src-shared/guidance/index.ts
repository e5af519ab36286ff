/**
 * Troubleshooting knowledge base shown beside resource status and events: what a
 * phase/reason/condition/exit code means, its usual causes, and what to check next,
 * with actions that point at the data in Skiff that answers each check.
 */
export type { ExitCodeExplanation } from './exit-codes';
export { explainExitCode, signalName } from './exit-codes';
export type {
  ContainerStateLike,
  ContainerStatusLike,
  PodConditionLike,
  PodFinding,
  PodLike,
} from './explain-pod';
export { explainPod } from './explain-pod';
export { findGuidance, guidanceForReason, listGuidance } from './registry';
export type { FailedSchedulingInfo, SchedulingReason } from './scheduling';
export { parseFailedScheduling, schedulingReasonHint } from './scheduling';
export type {
  ConditionStatus,
  GuidanceAction,
  GuidanceCheck,
  GuidanceEntry,
  GuidanceFieldPath,
  GuidanceSeverity,
  GuidanceSubject,
  PlaceholderValues,
} from './types';
export { describeAction, fillPlaceholders } from './types';
