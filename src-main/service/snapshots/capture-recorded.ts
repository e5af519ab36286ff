/**
 * The recorded part of a capture (format version 3): what Skiff had recorded of the cluster up to
 * the capture's start (takenAt) — its object changes, usage samples and the logs of dead
 * containers (issue 27) — read from the app's database (either backend) into the file's
 * change_history, usage_samples and kept_logs.
 *
 * Rules:
 * - The newest rows up to takenAt, within RECORDED_LIMITS (format.ts): changes and kept logs are
 *   read newest first through their tables' time indexes and the reading stops at the bounds;
 *   usage samples are many and small, so the time before which they are left out is found once
 *   and the rest read in key order. What is left out is one gap per part saying how many rows and
 *   why; a row over a value bound (fitsChange, …) is left out and counted, so every file passes
 *   its own check (recorded-tables.ts).
 * - Pending writes are flushed first (`flush`), so a change seen just before the capture is in it.
 * - With `--authorize rbac` only what the taker may read, as the API would let them read it: a
 *   change where they may `list` its kind (its namespace; a cluster-scoped kind cluster-wide; a
 *   kind the cluster no longer serves cannot be asked, so it is left out), pod usage where they
 *   may `list pods`, node usage with `list nodes` cluster-wide, kept logs where they may
 *   `get pods/log`. What is left out is a gap with reason `forbidden: …`.
 * - Nothing recorded (the service records nothing, or the CLI's capture) is no gap: the tables are
 *   empty, as the event history's part is.
 * - Batches of BATCH rows, yielding between them; one transaction for the part.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { SnapshotGap } from '../../../src-shared/contract/snapshot-models';
import type { ScopeAttributes } from '../auth/read-scope';
import type { Queryable } from '../storage/backend';
import { reasonOf } from './capture-logs';
import { type CaptureScope, inScope } from './capture-scope';
import { RECORDED_LIMITS } from './format';
import {
  type ChangeRow,
  fitsChange,
  fitsKeptLog,
  fitsUsage,
  type KeptLogRow,
  RECORDED_COLUMNS,
  recordedRowBytes,
  type UsageRow,
} from './recorded-tables';
import type { CaptureSource } from './source';
import type { SnapshotWriter } from './writer';

/** A part's bounds: rows, and bytes of text in all. */
export interface PartLimits {
  rows: number;
  totalBytes: number;
}

export interface RecordedRequest {
  /** The capture's start: nothing recorded after it is taken. */
  untilMs: number;
  gaps: SnapshotGap[];
  signal: AbortSignal;
  /** The parts' bounds: RECORDED_LIMITS' unless a test asks for smaller ones. */
  limits?: { changes: PartLimits; usage: PartLimits; keptLogs: PartLimits };
}

/** Rows read per query. */
export const BATCH = 1_000;
/** A row id above any the app gives (both backends' integer keys fit in 2^53). */
const LAST_ID = Number.MAX_SAFE_INTEGER;

const columns = (table: keyof typeof RECORDED_COLUMNS) => RECORDED_COLUMNS[table].join(', ');

const CHANGES_SQL = `SELECT ${columns('change_history')} FROM change_history
  WHERE cluster_id = $cluster AND (time_ms < $time OR (time_ms = $time AND id < $id))
  ORDER BY time_ms DESC, id DESC LIMIT $limit`;
const CHANGES_LEFT_SQL = `SELECT count(*) AS n FROM change_history
  WHERE cluster_id = $cluster AND (time_ms < $time OR (time_ms = $time AND id < $id))`;

const KEPT_SQL = `SELECT ${columns('kept_logs')} FROM kept_logs
  WHERE cluster_id = $cluster AND (kept_at < $time OR (kept_at = $time AND id < $id))
  ORDER BY kept_at DESC, id DESC LIMIT $limit`;
const KEPT_LEFT_SQL = `SELECT count(*) AS n FROM kept_logs
  WHERE cluster_id = $cluster AND (kept_at < $time OR (kept_at = $time AND id < $id))`;

const USAGE_CUTOFF_SQL = `SELECT time_ms FROM usage_samples WHERE cluster_id = $cluster AND time_ms <= $until
  ORDER BY time_ms DESC LIMIT 1 OFFSET $offset`;
const USAGE_LEFT_SQL = `SELECT count(*) AS n FROM usage_samples WHERE cluster_id = $cluster AND time_ms <= $cutoff`;
const USAGE_FIRST_SQL = `SELECT ${columns('usage_samples')} FROM usage_samples
  WHERE cluster_id = $cluster AND time_ms > $cutoff AND time_ms <= $until
  ORDER BY subject, namespace, name, time_ms LIMIT $limit`;
const USAGE_NEXT_SQL = `SELECT ${columns('usage_samples')} FROM usage_samples
  WHERE cluster_id = $cluster AND time_ms > $cutoff AND time_ms <= $until
    AND (subject, namespace, name, time_ms) > ($subject, $namespace, $name, $time)
  ORDER BY subject, namespace, name, time_ms LIMIT $limit`;

/** What a part left out: rows the taker may not read, rows over a value bound, older rows past the bounds. */
interface LeftOut {
  forbidden: number;
  tooLarge: number;
  older: number;
}

/** How many rows the part holds and their bytes, against its bounds. */
class Budget {
  rows = 0;
  bytes = 0;
  constructor(private readonly limits: PartLimits) {}
  /** Counts the row in when it fits; false when the part is full. */
  take(row: object): boolean {
    const b = recordedRowBytes(row);
    if (this.rows + 1 > this.limits.rows || this.bytes + b > this.limits.totalBytes) return false;
    this.rows++;
    this.bytes += b;
    return true;
  }
}

/** A part's gap, when it left something out; `what` names its rows (`changes`). */
export function leftOutGap(
  part: string,
  what: string,
  left: LeftOut,
  limits: PartLimits,
): SnapshotGap | undefined {
  const reasons: string[] = [];
  if (left.forbidden > 0)
    reasons.push(`forbidden: ${left.forbidden} ${what} the taker cannot read were left out`);
  if (left.tooLarge > 0) reasons.push(`${left.tooLarge} ${what} larger than a snapshot allows were left out`);
  if (left.older > 0)
    reasons.push(
      `the ${left.older} oldest ${what} were left out (a snapshot holds at most ${limits.rows} ${what} and ${limits.totalBytes / 2 ** 20} MiB of them)`,
    );
  return reasons.length > 0 ? { part, reason: reasons.join('; ') } : undefined;
}

/** Where a part may be read under `--authorize rbac`, cached per attributes; undefined: everywhere. */
function scopes(source: CaptureSource, signal: AbortSignal) {
  const known = new Map<string, Promise<CaptureScope>>();
  return (attrs: ScopeAttributes): Promise<CaptureScope> => {
    if (!source.scope) return Promise.resolve(undefined);
    const key = JSON.stringify(attrs);
    let s = known.get(key);
    if (!s) {
      s = source.scope(attrs, signal);
      known.set(key, s);
    }
    return s;
  };
}

type ScopeOf = ReturnType<typeof scopes>;

/** Whether the taker may read a change: `list` of its kind where it is; unknown kinds are not. */
function changeReadable(source: CaptureSource, scopeOf: ScopeOf, signal: AbortSignal) {
  let kinds: Promise<Map<string, { group: string; plural: string }>> | undefined;
  return async (r: ChangeRow): Promise<boolean> => {
    if (!source.scope) return true;
    kinds ??= source
      .discovery(signal)
      .then((d) => new Map(d.kinds.map((k) => [k.resourceType, { group: k.group, plural: k.plural }])));
    const kind = (await kinds).get(r.resource_type);
    if (!kind) return false;
    return inScope(await scopeOf({ verb: 'list', group: kind.group, resource: kind.plural }), r.namespace);
  };
}

async function captureChanges(
  db: Queryable,
  clusterId: string,
  source: CaptureSource,
  writer: SnapshotWriter,
  req: RecordedRequest,
  scopeOf: ScopeOf,
): Promise<void> {
  const readable = changeReadable(source, scopeOf, req.signal);
  const left: LeftOut = { forbidden: 0, tooLarge: 0, older: 0 };
  const limits = (req.limits ?? RECORDED_LIMITS).changes;
  const budget = new Budget(limits);
  let after = { time: req.untilMs, id: LAST_ID };
  for (;;) {
    const rows = await db.all<ChangeRow>(CHANGES_SQL, {
      cluster: clusterId,
      time: after.time,
      id: after.id,
      limit: BATCH,
    });
    let full = false;
    for (const r of rows) {
      if (!(await readable(r))) left.forbidden++;
      else if (!fitsChange(r)) left.tooLarge++;
      else if (!budget.take(r)) {
        full = true;
        break;
      } else writer.recorded('change_history', r);
      after = { time: r.time_ms, id: r.id };
    }
    if (full) {
      const count = await db.get<{ n: number }>(CHANGES_LEFT_SQL, { cluster: clusterId, ...after });
      left.older = Number(count?.n ?? 0);
      break;
    }
    if (rows.length < BATCH) break;
    await yieldToEventLoop();
    if (req.signal.aborted) throw req.signal.reason;
  }
  const gap = leftOutGap('changes', 'changes', left, limits);
  if (gap) req.gaps.push(gap);
}

async function captureKeptLogs(
  db: Queryable,
  clusterId: string,
  writer: SnapshotWriter,
  req: RecordedRequest,
  scopeOf: ScopeOf,
): Promise<void> {
  const scope = await scopeOf({ verb: 'get', group: '', resource: 'pods', subresource: 'log' });
  const left: LeftOut = { forbidden: 0, tooLarge: 0, older: 0 };
  const limits = (req.limits ?? RECORDED_LIMITS).keptLogs;
  const budget = new Budget(limits);
  // Kept logs are large: fewer per query.
  const limit = Math.max(1, Math.floor(BATCH / 10));
  let after = { time: req.untilMs, id: LAST_ID };
  for (;;) {
    const rows = await db.all<KeptLogRow>(KEPT_SQL, { cluster: clusterId, ...after, limit });
    let full = false;
    for (const r of rows) {
      if (!inScope(scope, r.namespace)) left.forbidden++;
      else if (!fitsKeptLog(r)) left.tooLarge++;
      else if (!budget.take(r)) {
        full = true;
        break;
      } else writer.recorded('kept_logs', r);
      after = { time: r.kept_at, id: r.id };
    }
    if (full) {
      const count = await db.get<{ n: number }>(KEPT_LEFT_SQL, { cluster: clusterId, ...after });
      left.older = Number(count?.n ?? 0);
      break;
    }
    if (rows.length < limit) break;
    await yieldToEventLoop();
    if (req.signal.aborted) throw req.signal.reason;
  }
  const gap = leftOutGap('keptLogs', 'kept logs', left, limits);
  if (gap) req.gaps.push(gap);
}

async function captureUsage(
  db: Queryable,
  clusterId: string,
  writer: SnapshotWriter,
  req: RecordedRequest,
  scopeOf: ScopeOf,
): Promise<void> {
  const pods = await scopeOf({ verb: 'list', group: '', resource: 'pods' });
  const nodes = await scopeOf({ verb: 'list', group: '', resource: 'nodes' });
  const readable = (r: UsageRow) => (r.subject === 'node' ? nodes === undefined : inScope(pods, r.namespace));
  const left: LeftOut = { forbidden: 0, tooLarge: 0, older: 0 };
  const limits = (req.limits ?? RECORDED_LIMITS).usage;
  const budget = new Budget(limits);
  const until = req.untilMs;
  // The newest `rows` samples are those after the time of the one past them (all of that
  // millisecond left out with it, so never more than the bound).
  const past = await db.get<{ time_ms: number }>(USAGE_CUTOFF_SQL, {
    cluster: clusterId,
    until,
    offset: limits.rows,
  });
  const cutoff = past ? past.time_ms : -1;
  if (past) {
    const count = await db.get<{ n: number }>(USAGE_LEFT_SQL, { cluster: clusterId, cutoff });
    left.older = Number(count?.n ?? 0);
  }
  let after: UsageRow | undefined;
  for (;;) {
    const rows = after
      ? await db.all<UsageRow>(USAGE_NEXT_SQL, {
          cluster: clusterId,
          cutoff,
          until,
          subject: after.subject,
          namespace: after.namespace,
          name: after.name,
          time: after.time_ms,
          limit: BATCH,
        })
      : await db.all<UsageRow>(USAGE_FIRST_SQL, { cluster: clusterId, cutoff, until, limit: BATCH });
    for (const r of rows) {
      if (!readable(r)) left.forbidden++;
      else if (!fitsUsage(r)) left.tooLarge++;
      // Past the bytes (far more than a cluster's samples take): the rest is left out as older.
      else if (!budget.take(r)) left.older++;
      else writer.recorded('usage_samples', r);
    }
    if (rows.length < BATCH) break;
    after = rows.at(-1);
    await yieldToEventLoop();
    if (req.signal.aborted) throw req.signal.reason;
  }
  const gap = leftOutGap('usage', 'usage samples', left, limits);
  if (gap) req.gaps.push(gap);
}

/** Writes the recorded part; a part that fails is a gap naming why, and the capture goes on. */
export async function captureRecorded(
  source: CaptureSource,
  writer: SnapshotWriter,
  req: RecordedRequest,
): Promise<void> {
  const recorded = source.recorded;
  if (!recorded) return;
  try {
    await recorded.flush?.();
  } catch {
    // What was written before is still taken; the flush's own failure is its recorder's to log.
  }
  const scopeOf = scopes(source, req.signal);
  const parts: Array<[string, () => Promise<void>]> = [
    ['changes', () => captureChanges(recorded.db, source.clusterId, source, writer, req, scopeOf)],
    ['usage', () => captureUsage(recorded.db, source.clusterId, writer, req, scopeOf)],
    ['keptLogs', () => captureKeptLogs(recorded.db, source.clusterId, writer, req, scopeOf)],
  ];
  for (const [part, capture] of parts) {
    writer.begin();
    try {
      await capture();
    } catch (err) {
      if (req.signal.aborted) throw req.signal.reason;
      req.gaps.push({ part, reason: reasonOf(err) });
    }
    writer.commit();
  }
}
