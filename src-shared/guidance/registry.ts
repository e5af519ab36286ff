import { DEPLOYMENT_CONDITIONS, NODE_CONDITIONS } from './data/conditions';
import { CONTAINER_TERMINATED } from './data/container-terminated';
import { CONTAINER_WAITING } from './data/container-waiting';
import { CLUSTER_EVENTS } from './data/events-cluster';
import { NODE_EVENTS } from './data/events-node';
import { POD_LIFECYCLE_EVENTS } from './data/events-pod';
import { POD_RUNTIME_EVENTS } from './data/events-runtime';
import { STORAGE_EVENTS } from './data/events-storage';
import { WORKLOAD_EVENTS } from './data/events-workload';
import { EXIT_CODES } from './data/exit-codes';
import { HPA_CONDITIONS, OBJECT_CONDITIONS, REPLICASET_CONDITIONS } from './data/kinds-conditions';
import { INGRESS_STATUS, PVC_STATUS } from './data/kinds-status';
import { POD_CONDITIONS } from './data/pod-conditions';
import { POD_PHASES } from './data/pod-phase';
import type { GuidanceEntry, GuidanceSubject } from './types';

const ALL: readonly GuidanceEntry[] = [
  ...POD_PHASES,
  ...CONTAINER_WAITING,
  ...CONTAINER_TERMINATED,
  ...POD_CONDITIONS,
  ...NODE_CONDITIONS,
  ...DEPLOYMENT_CONDITIONS,
  ...POD_LIFECYCLE_EVENTS,
  ...POD_RUNTIME_EVENTS,
  ...NODE_EVENTS,
  ...WORKLOAD_EVENTS,
  ...STORAGE_EVENTS,
  ...CLUSTER_EVENTS,
  ...EXIT_CODES,
  ...PVC_STATUS,
  ...INGRESS_STATUS,
  ...HPA_CONDITIONS,
  ...REPLICASET_CONDITIONS,
  ...OBJECT_CONDITIONS,
];

/**
 * Order in which `guidanceForReason` prefers subjects when one word means several
 * things (OOMKilled is a container state and an event): the container state is the
 * most specific explanation, a pod phase the least. The kinds beyond the pod come after the pod's
 * own subjects, so a bare `Pending` or `Ready` still means what it meant for pods and nodes.
 */
const SUBJECT_PRIORITY: readonly GuidanceSubject[] = [
  'container-waiting',
  'container-terminated',
  'event-reason',
  'pod-condition',
  'node-condition',
  'deployment-condition',
  'pod-phase',
  'pvc-status',
  'ingress-status',
  'hpa-condition',
  'replicaset-condition',
  'object-condition',
  'exit-code',
];

function eq(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Every entry, in data order. */
export function listGuidance(): readonly GuidanceEntry[] {
  return ALL;
}

/**
 * The entry for one subject and match (its `match` or an alias, case-insensitive).
 * For conditions, pass `status` to get the entry for that status only — a healthy
 * status (Ready=True) then finds nothing; without it the first entry is returned.
 */
export function findGuidance(
  subject: GuidanceSubject,
  match: string,
  status?: string,
): GuidanceEntry | undefined {
  const candidates = ALL.filter(
    (e) => e.subject === subject && (eq(e.match, match) || e.aliases?.some((a) => eq(a, match))),
  );
  const exact = candidates.filter((e) => eq(e.match, match));
  const ordered = [...exact, ...candidates.filter((e) => !exact.includes(e))];
  if (status === undefined) return ordered[0];
  return ordered.find((e) => e.status === undefined || eq(e.status, status));
}

/**
 * The best entry for a bare reason string from any subject (a pod's status.reason,
 * an event reason, a condition reason). Exact `match` beats an alias; ties go by
 * `prefer`, then by SUBJECT_PRIORITY. `OutOf<resource>` admission reasons map to one entry.
 */
export function guidanceForReason(reason: string, prefer?: GuidanceSubject): GuidanceEntry | undefined {
  const order = prefer ? [prefer, ...SUBJECT_PRIORITY.filter((s) => s !== prefer)] : SUBJECT_PRIORITY;
  const rank = (e: GuidanceEntry) => order.indexOf(e.subject);
  const byRank = (a: GuidanceEntry, b: GuidanceEntry) => rank(a) - rank(b);
  const exact = ALL.filter((e) => eq(e.match, reason)).sort(byRank);
  if (exact[0]) return exact[0];
  const alias = ALL.filter((e) => e.aliases?.some((a) => eq(a, reason))).sort(byRank);
  if (alias[0]) return alias[0];
  if (/^OutOf./.test(reason)) return ALL.find((e) => e.id === 'event-outofcpu');
  return undefined;
}

/** The entry an explainer always gives (its own data): a missing one is a bug, not an unknown reason. */
export function requireGuidance(subject: GuidanceSubject, match: string): GuidanceEntry {
  const entry = findGuidance(subject, match);
  if (!entry) throw new Error(`no guidance entry for ${subject} ${match}`);
  return entry;
}
