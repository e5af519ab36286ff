/**
 * When object changes are recorded (issue 27 §1), which kinds are left out, and how long rows are
 * kept.
 *
 * - `viewed` (default): a kind of a live cluster is recorded from the first read of that kind (its
 *   resource cache is made), and its cache then keeps watching instead of stopping when idle.
 * - `all`: every kind every live cluster serves is watched and recorded from the start.
 * - `off`: nothing is recorded, and usage sampling and kept logs are off too (a cluster is
 *   "recorded" only when this is not off: ChangeHistory.isRecordedCluster).
 *
 * Rules: noisy kinds (Lease, EndpointSlice, Event of either API) are never recorded unless
 * `recordNoisyKinds`; retention and the per-cluster cap default to the event history's
 * (--event-retention, --event-history-max), so one pair of numbers bounds what is recorded.
 */
import type { KindInfo } from '../../clusters/kind-info';
import { DEFAULT_EVENT_HISTORY_MAX, DEFAULT_EVENT_RETENTION_MS } from '../../events/history/options';

export type RecordChangesMode = 'viewed' | 'all' | 'off';

export const RECORD_CHANGES_MODES: readonly RecordChangesMode[] = ['viewed', 'all', 'off'];

export interface ChangeHistoryOptions {
  record?: RecordChangesMode;
  /** `--record-noisy-kinds`: record Leases, EndpointSlices and Events too. Default false. */
  recordNoisyKinds?: boolean;
  /** Rows older than this (by time recorded) are pruned. Default: the event history's (7 days). */
  retentionMs?: number;
  /** At most this many rows per cluster; the oldest go first. Default: the event history's (1,000,000). */
  maxPerCluster?: number;
  /** A whole object is stored again after this many patches, so a version rebuilds from ≤ N patches. */
  wholeEvery?: number;
  /** How long changes wait to be written together. Default 500 ms. */
  flushMs?: number;
  /** How often retention runs. Default 1 minute. */
  pruneEveryMs?: number;
  /** How often a lease another replica holds is asked for again. Default 5 s. */
  leaseRetryMs?: number;
}

export interface ResolvedChangeOptions {
  record: RecordChangesMode;
  recordNoisyKinds: boolean;
  retentionMs: number;
  maxPerCluster: number;
  wholeEvery: number;
  flushMs: number;
  pruneEveryMs: number;
  leaseRetryMs: number;
}

export function resolveChangeOptions(o: ChangeHistoryOptions = {}): ResolvedChangeOptions {
  return {
    record: o.record ?? 'viewed',
    recordNoisyKinds: o.recordNoisyKinds ?? false,
    retentionMs: o.retentionMs ?? DEFAULT_EVENT_RETENTION_MS,
    maxPerCluster: o.maxPerCluster ?? DEFAULT_EVENT_HISTORY_MAX,
    wholeEvery: o.wholeEvery ?? 20,
    flushMs: o.flushMs ?? 500,
    pruneEveryMs: o.pruneEveryMs ?? 60_000,
    leaseRetryMs: o.leaseRetryMs ?? 5_000,
  };
}

/** The kinds left out unless --record-noisy-kinds, as `group/plural` (core group: empty). */
export const NOISY_KINDS: readonly string[] = [
  'coordination.k8s.io/leases',
  'discovery.k8s.io/endpointslices',
  '/events',
  'events.k8s.io/events',
];

export const isNoisyKind = (kind: Pick<KindInfo, 'group' | 'plural'>): boolean =>
  NOISY_KINDS.includes(`${kind.group}/${kind.plural}`);

/** Whether changes of `kind` are recorded under these options (the mode aside). */
export const recordsKind = (o: ResolvedChangeOptions, kind: Pick<KindInfo, 'group' | 'plural'>): boolean =>
  o.record !== 'off' && (o.recordNoisyKinds || !isNoisyKind(kind));

/**
 * The channel a committed batch of change rows is announced on (StorageBackend.notify), with the
 * cluster id as payload: the changes watch re-reads rows after the last id it sent.
 */
export const CHANGES_CHANNEL = 'skiff_changes';

/** The lease one replica holds to write a cluster's change rows (events use `recorder:`). */
export const changesLeaseKey = (clusterId: string) => `changes-recorder:${clusterId}`;
