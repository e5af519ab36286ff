/**
 * The changes watch (`GET …/changes?watch=true`): the feed's new rows as they are committed, in the
 * event watch's framing (events/watch/framing.ts), control records, bounds and per-credential slots.
 *
 * Rules:
 * - Fed from committed rows only: woken by the recorder's signal (StorageBackend.listen on
 *   CHANGES_CHANNEL: NOTIFY on PostgreSQL, so any replica's writes wake it), by a re-listen, and by a
 *   poll at every heartbeat check, it reads the cluster's rows after the last id it read, in id
 *   order; the client pulling a chunk is what reads the next rows, so a slow client holds no queue.
 * - Ids are change_history ids, the feed items' `id`. A new watch replays the newest matching
 *   changes (at most REPLAY_MAX, oldest first; `sendInitialEvents=false`: none), then SYNCED with
 *   the id it stands at. Last-Event-ID resumes after that id while the cluster still has its row
 *   (or it is 0: the feed was empty then); any other value gets RESET, then the replay. BOOKMARK
 *   moves a client past rows its filter left out; HEARTBEAT (a comment over SSE) keeps it alive.
 * - A watch ends with its client, its credential (ERROR: the credential's problem), or when
 *   `--authorize rbac` no longer lets it read what it asked for (the filter is computed again at
 *   every credential check, as the event watch does); its slot is given back however it ends.
 */
import type { ChangeWatchRecord } from '../../../../src-shared/contract/change-operations';
import type { StreamBody } from '../../../../src-shared/contract/define';
import type { Problem } from '../../../../src-shared/contract/problem';
import type { CallContext } from '../../context';
import { ProblemError } from '../../errors';
import { type Framing, framingFor } from '../../events/watch/framing';
import {
  type EventWatchOptions,
  type ResolvedWatchOptions,
  resolveWatchOptions,
} from '../../events/watch/options';
import { WatchSlots } from '../../events/watch/slots';
import type { StorageBackend } from '../../storage/backend';
import type { RecordedSource } from '../source';
import { CHANGES_CHANNEL } from './options';
import { type FeedFilter, feedWhere, matchesFeed } from './reads-feed';
import { clusterChangeOf, ROW_COLUMNS, type StoredChange } from './reads-rows';

/** The newest changes a new watch replays before SYNCED. */
export const REPLAY_MAX = 1000;
/** Rows read per batch, and records per chunk. */
const BATCH = 500;

export interface ChangeWatchInputs {
  source: RecordedSource;
  /** The request's filter, computed again at every credential check (`--authorize rbac`). */
  filter: FeedFilter;
  refilter: (() => Promise<FeedFilter>) | undefined;
  framing: Framing;
  lastEventId: string | undefined;
  sendInitial: boolean;
  options: ResolvedWatchOptions;
  /** Subscribes to the recorder's signal; answers the unsubscribe. Absent for a snapshot. */
  subscribe: ((wake: () => void) => Promise<() => Promise<void>>) | undefined;
  /** Rejects once the caller's credential no longer holds. */
  recheck: (() => Promise<unknown>) | undefined;
  signal: AbortSignal;
  onEnd: () => void;
}

function problemOf(err: unknown): Problem {
  if (err instanceof ProblemError) return err.toProblem();
  return new ProblemError('invalid_token', 'the credential of this watch no longer holds').toProblem();
}

/** The id of the cluster's newest row (0 when it has none): where a watch stands once synced. */
async function headOf(source: RecordedSource): Promise<number> {
  const r = await source.db.get<{ id: number }>(
    'SELECT id FROM change_history WHERE cluster_id = $cluster ORDER BY time_ms DESC, id DESC LIMIT 1',
    { cluster: source.clusterId },
  );
  return r?.id ?? 0;
}

/** Whether a watch can resume after `id`: the feed was empty (0), or the cluster still has that row. */
async function resumable(source: RecordedSource, id: number): Promise<boolean> {
  if (id === 0) return true;
  const r = await source.db.get(
    'SELECT 1 AS held FROM change_history WHERE id = $id AND cluster_id = $cluster',
    {
      id,
      cluster: source.clusterId,
    },
  );
  return r !== undefined;
}

/** The cluster's rows after `after`, up to `upTo` when given, in id order: every row, matching or not. */
function rowsAfter(source: RecordedSource, after: number, upTo?: number): Promise<StoredChange[]> {
  return source.db.all<StoredChange>(
    `SELECT ${ROW_COLUMNS} FROM change_history WHERE cluster_id = $cluster AND id > $after
       ${upTo !== undefined ? 'AND id <= $upTo' : ''} ORDER BY id LIMIT $batch`,
    { cluster: source.clusterId, after, batch: BATCH, ...(upTo !== undefined ? { upTo } : {}) },
  );
}

/** The newest matching changes at or before `head`, oldest first. */
async function replayOf(source: RecordedSource, f: FeedFilter, head: number): Promise<StoredChange[]> {
  const w = feedWhere(source, f);
  const rows = await source.db.all<StoredChange>(
    `SELECT ${ROW_COLUMNS} FROM change_history WHERE ${w.sql} AND id <= $head
     ORDER BY time_ms DESC, id DESC LIMIT $max`,
    { ...w.params, head, max: REPLAY_MAX },
  );
  return rows.reverse();
}

/** A client's id as a RESET names it: quoted, cut short. */
const shown = (id: string) => JSON.stringify(id.length > 64 ? `${id.slice(0, 64)}…` : id);

/** One client's changes watch as text chunks. */
export async function* changeStream(w: ChangeWatchInputs): AsyncGenerator<string, void, undefined> {
  const { source, framing, options } = w;
  let filter = w.filter;
  let wake: (() => void) | null = null;
  let poke = false;
  const notify = () => {
    poke = true;
    const f = wake;
    wake = null;
    f?.();
  };
  let heartbeatDue = false;
  let lastOutput = Date.now();
  let credentialProblem: Problem | undefined;
  let checking = false;
  const checker = setInterval(() => {
    if (checking || credentialProblem || (!w.recheck && !w.refilter)) return;
    checking = true;
    (async () => {
      await w.recheck?.();
      if (w.refilter) filter = await w.refilter();
    })().then(
      () => {
        checking = false;
      },
      (err: unknown) => {
        checking = false;
        credentialProblem = problemOf(err);
        notify();
      },
    );
  }, options.credentialCheckMs);
  const beat = setInterval(
    () => {
      if (Date.now() - lastOutput >= options.heartbeatMs) heartbeatDue = true;
      // Also a poll: a signal lost on the way (a dropped LISTEN connection) costs one tick at most.
      notify();
    },
    Math.max(10, Math.floor(options.heartbeatMs / 4)),
  );
  w.signal.addEventListener('abort', notify);
  let unsubscribe: (() => Promise<void>) | undefined;
  const json = (r: ChangeWatchRecord) => framing.record(r, JSON.stringify(r));
  const added = (r: StoredChange) => json({ type: 'ADDED', id: String(r.id), change: clusterChangeOf(r) });
  const out = (text: string) => {
    lastOutput = Date.now();
    return text;
  };

  try {
    // Subscribed before the head is read: a row committed after it wakes this watch.
    unsubscribe = await w.subscribe?.(notify);
    const head = await headOf(source);
    const asked = w.lastEventId;
    const resumeAt = asked !== undefined && /^\d{1,20}$/.test(asked) ? Number(asked) : undefined;
    const resumed = resumeAt !== undefined && (await resumable(source, resumeAt));
    yield out(framing.opening());
    if (asked !== undefined && !resumed) {
      const why =
        resumeAt === undefined ? 'not an id this watch sends' : 'no longer kept, or from another database';
      yield out(
        json({
          type: 'RESET',
          reason: `Last-Event-ID ${shown(asked)} cannot be resumed from (${why}); the newest changes follow`,
        }),
      );
    }
    let cursor = head;
    if (resumed) {
      // The changes missed since the id, up to where the watch now stands.
      cursor = resumeAt;
      for (;;) {
        const rows = await rowsAfter(source, cursor, head);
        if (rows.length === 0 || w.signal.aborted) break;
        cursor = rows.at(-1)!.id;
        const text = rows
          .filter((r) => matchesFeed(source, r, filter))
          .map(added)
          .join('');
        if (text !== '') yield out(text);
      }
      cursor = head;
    } else if (asked !== undefined || w.sendInitial) {
      const replay = await replayOf(source, filter, head);
      for (let i = 0; i < replay.length && !w.signal.aborted; i += BATCH)
        yield out(
          replay
            .slice(i, i + BATCH)
            .map(added)
            .join(''),
        );
    }
    yield out(json({ type: 'SYNCED', id: String(head) }));
    let sentId = head;

    for (;;) {
      if (w.signal.aborted) return;
      if (credentialProblem) {
        yield json({ type: 'ERROR', problem: credentialProblem });
        return;
      }
      if (poke) {
        poke = false;
        const rows = await rowsAfter(source, cursor);
        if (rows.length > 0) {
          cursor = rows.at(-1)!.id;
          // More may follow: read on before waiting.
          if (rows.length === BATCH) poke = true;
          const matching = rows.filter((r) => matchesFeed(source, r, filter));
          if (matching.length > 0) {
            sentId = cursor;
            yield out(matching.map(added).join(''));
          }
          continue;
        }
      }
      if (heartbeatDue) {
        heartbeatDue = false;
        // Rows this filter left out moved the feed on: say so, or a resume would start further back.
        if (cursor > sentId) {
          sentId = cursor;
          yield out(json({ type: 'BOOKMARK', id: String(sentId) }));
        } else yield out(framing.heartbeat());
        continue;
      }
      if (poke || credentialProblem || w.signal.aborted) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    clearInterval(checker);
    clearInterval(beat);
    w.signal.removeEventListener('abort', notify);
    await unsubscribe?.().catch(() => {});
    w.onEnd();
  }
}

/** What a watch resolves once its slot is held. */
export interface WatchTarget {
  source: RecordedSource | undefined;
  filter: FeedFilter;
  /** `--authorize rbac`: the filter computed again (a grant taken away rejects). */
  refilter: (() => Promise<FeedFilter>) | undefined;
}

/** The open changes watches of the service: their slots (per credential), bounds and signal. */
export class ChangeWatches {
  private readonly opts: ResolvedWatchOptions;
  private readonly slots: WatchSlots;

  constructor(
    private readonly signals: Pick<StorageBackend, 'listen'> | undefined,
    options: EventWatchOptions = {},
  ) {
    this.opts = resolveWatchOptions(options);
    this.slots = new WatchSlots(this.opts.maxPerCredential);
  }

  /** Open watches, all credentials together. */
  get open(): number {
    return this.slots.total;
  }

  async watch(
    resolve: () => Promise<WatchTarget>,
    query: { lastEventId?: string | undefined; sendInitialEvents?: boolean | undefined },
    ctx: CallContext,
  ): Promise<StreamBody> {
    const release = this.slots.take(ctx.principal);
    try {
      const target = await resolve();
      const framing = framingFor(ctx.mediaType ?? 'text/event-stream', this.opts.retryMs);
      ctx.signal.addEventListener('abort', release, { once: true });
      const source: RecordedSource = target.source ?? EMPTY(ctx);
      const signals = this.signals;
      return {
        contentType: framing.contentType,
        chunks: changeStream({
          source,
          filter: target.filter,
          refilter: target.refilter,
          framing,
          // An empty id is none, as EventSource treats it.
          lastEventId: query.lastEventId || undefined,
          sendInitial: query.sendInitialEvents !== false,
          options: this.opts,
          subscribe:
            source.frozen || !signals
              ? undefined
              : (wake) =>
                  signals.listen(
                    CHANGES_CHANNEL,
                    (clusterId) => {
                      if (clusterId === source.clusterId) wake();
                    },
                    wake,
                  ),
          recheck: ctx.recheck,
          signal: ctx.signal,
          onEnd: release,
        }),
      };
    } catch (err) {
      release();
      throw err;
    }
  }
}

/** A snapshot without recorded tables: a source that holds no rows. */
function EMPTY(_ctx: CallContext): RecordedSource {
  return {
    db: { all: async () => [], get: async () => undefined, run: async () => 0 },
    clusterId: '',
    frozen: true,
  };
}
