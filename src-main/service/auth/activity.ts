import type {
  ActivityEntry,
  ActivityType,
  ClientDescription,
} from '../../../src-shared/contract/auth-models';
import type { StorageBackend } from '../storage/backend';
import { newId } from './secrets';
import { iso, type StoredActivity } from './state';

export const DEFAULT_ACTIVITY_RETENTION_DAYS = 90;
export const DEFAULT_ACTIVITY_MAX_ENTRIES = 100_000;
const DAY_MS = 24 * 3_600_000;
/** Rows one pruning transaction deletes at most, so no single turn of the event loop runs long. */
const PRUNE_BATCH = 1_000;

export type ActivityInput = Pick<StoredActivity, 'type' | 'accountId'> &
  Partial<Pick<StoredActivity, 'at' | 'sessionId' | 'apiKeyId' | 'client' | 'detail'>> & {
    /** Who did it, when not the session the entry is about (a logout from another session, an admin). */
    actorAccountId?: string | null;
    actorSessionId?: string | null;
  };

export interface ActivityFilter {
  /** Undefined: every account (the handler allows that to administrators only). */
  accountId?: string | undefined;
  sessionId?: string | undefined;
  types?: readonly ActivityType[] | undefined;
  /** Epoch ms, inclusive. */
  since?: number | undefined;
  /** Epoch ms, exclusive. */
  until?: number | undefined;
}

export interface ActivityLimits {
  retentionDays?: number;
  maxEntries?: number;
}

interface ActivityRow {
  seq: number;
  activity_id: string;
  type: string;
  at: number;
  account_id: string;
  username: string | null;
  session_id: string | null;
  api_key_id: string | null;
  actor_account_id: string | null;
  actor_username: string | null;
  actor_session_id: string | null;
  client: string | null;
  detail: string | null;
}

const SELECT = `SELECT a.*, acc.username AS username, actor.username AS actor_username
  FROM activity a
  LEFT JOIN accounts acc ON acc.account_id = a.account_id
  LEFT JOIN accounts actor ON actor.account_id = a.actor_account_id`;

/**
 * `a.type` is one of a JSON list of types: SQLite's json_each, PostgreSQL's jsonb array. The
 * parameter is cast to text first: typed jsonb, the client would send the list as a JSON string.
 */
const TYPE_IN = {
  sqlite: 'a.type IN (SELECT value FROM json_each($types))',
  postgres: 'a.type IN (SELECT jsonb_array_elements_text(CAST(CAST($types AS text) AS jsonb)))',
} as const;

/** The WHERE clause for `f` and its parameters; only present filters appear, so indexes apply. */
function where(
  f: ActivityFilter,
  dialect: StorageBackend['dialect'],
): { sql: string; params: Record<string, string | number> } {
  const parts: string[] = [];
  const params: Record<string, string | number> = {};
  if (f.accountId !== undefined) {
    parts.push('a.account_id = $account');
    params.account = f.accountId;
  }
  if (f.sessionId !== undefined) {
    parts.push('a.session_id = $session');
    params.session = f.sessionId;
  }
  if (f.types !== undefined && f.types.length > 0) {
    parts.push(TYPE_IN[dialect]);
    params.types = JSON.stringify(f.types);
  }
  if (f.since !== undefined) {
    parts.push('a.at >= $since');
    params.since = f.since;
  }
  if (f.until !== undefined) {
    parts.push('a.at < $until');
    params.until = f.until;
  }
  return { sql: parts.length > 0 ? ` WHERE ${parts.join(' AND ')}` : '', params };
}

function toEntry(r: ActivityRow): ActivityEntry {
  return {
    activityId: r.activity_id,
    type: r.type as ActivityType,
    at: iso(r.at),
    accountId: r.account_id,
    username: r.username,
    sessionId: r.session_id,
    apiKeyId: r.api_key_id,
    by:
      r.actor_account_id === null
        ? null
        : { accountId: r.actor_account_id, username: r.actor_username, sessionId: r.actor_session_id },
    // Written by record() from a validated description; read back whole.
    client: r.client === null ? null : (JSON.parse(r.client) as ClientDescription),
    detail: r.detail,
  };
}

/**
 * The security activity log: what happened to which account and session, from which device, in
 * the activity table. Each entry is one INSERT. The log is bounded by age (`retentionDays`) and
 * by count (`maxEntries`); both are enforced by pruning in batches of PRUNE_BATCH rows on later
 * turns of the event loop, never inside the request that wrote the entry. With replicas each
 * counts its own inserts from the count it loaded; a prune re-counts, so the bound holds whoever
 * wrote the rows.
 */
export class ActivityLog {
  readonly retentionMs: number;
  readonly maxEntries: number;
  private count = 0;
  private pruneScheduled = false;
  /** Rows allowed past maxEntries before a prune runs, so pruning deletes many rows at once, not one per insert. */
  private readonly slack: number;

  private constructor(
    private readonly db: StorageBackend,
    private readonly now: () => number,
    limits: ActivityLimits,
  ) {
    this.retentionMs = (limits.retentionDays ?? DEFAULT_ACTIVITY_RETENTION_DAYS) * DAY_MS;
    this.maxEntries = limits.maxEntries ?? DEFAULT_ACTIVITY_MAX_ENTRIES;
    this.slack = Math.max(1, Math.min(PRUNE_BATCH, Math.floor(this.maxEntries / 100)));
  }

  static async load(
    db: StorageBackend,
    now: () => number,
    limits: ActivityLimits = {},
  ): Promise<ActivityLog> {
    const log = new ActivityLog(db, now, limits);
    log.count = await log.counted();
    return log;
  }

  private async counted(): Promise<number> {
    return (await this.db.get<{ n: number }>('SELECT count(*) AS n FROM activity'))?.n ?? 0;
  }

  async record(input: ActivityInput): Promise<void> {
    const written = await this.db.transaction(`activity ${input.type}`, async (tx) => {
      await tx.run(
        `INSERT INTO activity (activity_id, type, at, account_id, session_id, api_key_id, actor_account_id,
           actor_session_id, client, detail)
         VALUES ($id, $type, $at, $account, $session, $key, $actor, $actorSession, $client, $detail)`,
        {
          id: newId(),
          type: input.type,
          at: input.at ?? this.now(),
          account: input.accountId,
          session: input.sessionId ?? null,
          key: input.apiKeyId ?? null,
          actor: input.actorAccountId ?? null,
          actorSession: input.actorSessionId ?? null,
          client: input.client ? JSON.stringify(input.client) : null,
          detail: input.detail ?? null,
        },
      );
    });
    if (!written) return;
    this.count++;
    if (this.count > this.maxEntries + this.slack) this.schedulePrune();
  }

  /** Newest first; an expiry is stamped with when it happened, which may be before it was noticed. */
  async page(
    filter: ActivityFilter,
    limit: number,
    offset: number,
  ): Promise<{ items: ActivityEntry[]; total: number }> {
    const w = where(filter, this.db.dialect);
    const total =
      (await this.db.get<{ n: number }>(`SELECT count(*) AS n FROM activity a${w.sql}`, w.params))?.n ?? 0;
    const rows = await this.db.all<ActivityRow>(
      `${SELECT}${w.sql} ORDER BY a.at DESC, a.seq DESC LIMIT $limit OFFSET $offset`,
      { ...w.params, limit, offset },
    );
    return { items: rows.map(toEntry), total };
  }

  /**
   * Every matching entry, newest first, `size` at a time: each batch is its own short query that
   * starts after the last row of the one before, so an export of the whole log holds no
   * transaction open and no more than one batch in memory.
   */
  async *batches(filter: ActivityFilter, size = 500): AsyncGenerator<ActivityEntry[]> {
    const w = where(filter, this.db.dialect);
    const keyset = `${w.sql ? `${w.sql} AND` : ' WHERE'} (a.at < $lastAt OR (a.at = $lastAt AND a.seq < $lastSeq))`;
    let last: { at: number; seq: number } | undefined;
    for (;;) {
      const rows = last
        ? await this.db.all<ActivityRow>(`${SELECT}${keyset} ORDER BY a.at DESC, a.seq DESC LIMIT $size`, {
            ...w.params,
            lastAt: last.at,
            lastSeq: last.seq,
            size,
          })
        : await this.db.all<ActivityRow>(`${SELECT}${w.sql} ORDER BY a.at DESC, a.seq DESC LIMIT $size`, {
            ...w.params,
            size,
          });
      if (rows.length === 0) return;
      yield rows.map(toEntry);
      if (rows.length < size) return;
      const tail = rows.at(-1)!;
      last = { at: tail.at, seq: tail.seq };
    }
  }

  async forget(accountId: string): Promise<void> {
    let removed = 0;
    await this.db.transaction('forget activity', async (tx) => {
      removed = await tx.run('DELETE FROM activity WHERE account_id = $id', { id: accountId });
    });
    this.count -= removed;
  }

  get size(): number {
    return this.count;
  }

  /** Deletes one batch of entries past their age or over the cap; true when more remain to delete. */
  async pruneBatch(): Promise<boolean> {
    if (this.db.isSealed) return false;
    const oldest = this.now() - this.retentionMs;
    let removed = 0;
    // Other replicas insert too: the cap is checked against the table, not this one's count.
    if (this.db.dialect === 'postgres') this.count = await this.counted();
    const over = this.count - this.maxEntries;
    await this.db.transaction('prune activity', async (tx) => {
      removed = await tx.run(
        'DELETE FROM activity WHERE seq IN (SELECT seq FROM activity WHERE at < $oldest ORDER BY at LIMIT $n)',
        { oldest, n: PRUNE_BATCH },
      );
      const stillOver = over - removed;
      if (stillOver > 0) {
        removed += await tx.run(
          'DELETE FROM activity WHERE seq IN (SELECT seq FROM activity ORDER BY at, seq LIMIT $n)',
          { n: Math.min(stillOver, PRUNE_BATCH) },
        );
      }
    });
    this.count -= removed;
    return removed === PRUNE_BATCH || this.count > this.maxEntries;
  }

  /** Prunes on later turns of the event loop, one batch per turn, until nothing is due. */
  schedulePrune(): void {
    if (this.pruneScheduled || this.db.isSealed) return;
    this.pruneScheduled = true;
    setImmediate(() => {
      this.pruneScheduled = false;
      this.pruneBatch().then(
        (more) => {
          if (more) this.schedulePrune();
        },
        () => {
          // A busy or full disk: the next record or sweep tries again.
        },
      );
    }).unref();
  }
}
