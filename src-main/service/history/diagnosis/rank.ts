/**
 * Which recorded changes of the related objects a diagnosis lists, and in what order.
 *
 * Rules (docs/api.md "Diagnosis"):
 * - Left out: a change of the failing object or of an owner that touches only `/status` and
 *   `/metadata` (a controller reporting the rollout or the failure, e.g. the revision annotation
 *   and the replica counts, not a cause; a node's status is kept: its conditions are the cause),
 *   and the failing object's own `created` (when it began, not what changed before).
 * - Score = directness × closeness. Directness: the object itself 1, an owner (its pod template)
 *   0.8, what it uses 0.6, its HorizontalPodAutoscaler 0.5, its node 0.4, its namespace's
 *   ResourceQuota and LimitRange 0.3. Closeness: 1 at the onset, falling linearly to 0.5 at the
 *   window's start, counted in whole minutes (a change 3 min before is as close as one 3 min 40 s
 *   before, so the tie-breaks below decide between a rollout and what it created).
 * - Ties: an update before a creation before a deletion, then the later change, then the row id.
 * - Pure: rows in, ordered list out.
 */
import type { ChangeBefore, DiagnosisRelation } from '../../../../src-shared/contract/diagnosis-operations';

export const DIRECTNESS: Record<DiagnosisRelation, number> = {
  self: 1,
  owner: 0.8,
  uses: 0.6,
  autoscaler: 0.5,
  node: 0.4,
  namespace: 0.3,
};

const MINUTE = 60_000;
const CHANGE_ORDER = { updated: 0, created: 1, deleted: 2 } as const;

/** A change row as read, with how its object touches the failing one. */
export interface RankedRow extends ChangeBefore {
  id: number;
}

const REPORTED = ['/status', '/metadata'];

/** True when every operation of the patch is under `/status` or `/metadata`: a controller's report. */
export function reportOnly(patch: readonly { path: string }[]): boolean {
  return (
    patch.length > 0 &&
    patch.every((op) => REPORTED.some((top) => op.path === top || op.path.startsWith(`${top}/`)))
  );
}

/** Whether a change says anything about why the failing object fails. */
export function kept(row: Pick<ChangeBefore, 'relation' | 'change' | 'patch'>): boolean {
  if (row.relation === 'self' && row.change === 'created') return false;
  if ((row.relation === 'self' || row.relation === 'owner') && row.change === 'updated')
    return !reportOnly(row.patch);
  return true;
}

export function scoreOf(relation: DiagnosisRelation, beforeOnsetMs: number, windowMs: number): number {
  const minutes = Math.floor(Math.max(0, beforeOnsetMs) / MINUTE) * MINUTE;
  return DIRECTNESS[relation] * (1 - 0.5 * Math.min(1, minutes / windowMs));
}

/** The rows worth listing, likeliest cause first, at most `max`. */
export function rankChanges(rows: readonly RankedRow[], windowMs: number, max: number): RankedRow[] {
  const scored = rows
    .filter(kept)
    .map((row) => ({ row, score: scoreOf(row.relation, row.beforeOnsetMs, windowMs) }));
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      CHANGE_ORDER[a.row.change] - CHANGE_ORDER[b.row.change] ||
      a.row.beforeOnsetMs - b.row.beforeOnsetMs ||
      b.row.id - a.row.id,
  );
  return scored.slice(0, max).map((s) => s.row);
}
