/**
 * One client's event watch as text chunks: the state (or the changes missed since Last-Event-ID),
 * SYNCED, then the changes as they happen.
 *
 * Rules: no change falls between the state sent and the changes after it; a slow client grows a
 * bounded queue, never a socket buffer, and past the bound it is ended with an ERROR; a watch ends
 * with its credential, its client, or its cache, and always gives its slot back.
 */
import type { EventWatchRecord } from '../../../../src-shared/contract/event-watch-operations';
import type { Problem } from '../../../../src-shared/contract/problem';
import type { ResourceCache } from '../../cache/resource-cache';
import { ProblemError } from '../../errors';
import { type EventEntry, eventRecord } from '../entries';
import type { EventFeed, FeedChange, FeedChangeType } from '../feed';
import { type EventFilter, eventRows, matchesEvent } from '../filter';
import type { Framing } from './framing';
import type { ResolvedWatchOptions } from './options';

export interface WatchInputs {
  feed: EventFeed;
  cache: ResourceCache<EventEntry>;
  workspaceId: string;
  /** The request's filters with the monitoring flags as they are now (read for every batch). */
  filter: () => EventFilter;
  framing: Framing;
  /**
   * Where the client stands (Last-Event-ID, as sent); undefined for a new watch. Anything but an
   * id the feed still holds, not an id at all included, gets RESET and the current state.
   */
  lastEventId: string | undefined;
  /** A new watch starts with the current state as ADDED records unless this is false. */
  sendInitial: boolean;
  options: ResolvedWatchOptions;
  /** Rejects once the caller's credential no longer holds. */
  recheck: (() => Promise<unknown>) | undefined;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /** Aborted here when the client fell too far behind (the transport then cuts it off if stuck). */
  stop: AbortController;
  /** Called once when the stream ends, however it ends. */
  onEnd: () => void;
}

/** Records per chunk: big enough that a replay of 100,000 events is a few hundred writes. */
const BATCH = 500;

type Change = { type: FeedChangeType; seq: number; entry: EventEntry };

/** What a reader with this filter sees of a change: an event may enter or leave the filter. */
function seen(c: FeedChange, f: EventFilter): Change | null {
  const now = matchesEvent(c.entry, f);
  if (c.type === 'MODIFIED' && c.previous) {
    const before = matchesEvent(c.previous, f);
    if (now) return { type: before ? 'MODIFIED' : 'ADDED', seq: c.seq, entry: c.entry };
    return before ? { type: 'DELETED', seq: c.seq, entry: c.previous } : null;
  }
  return now ? { type: c.type, seq: c.seq, entry: c.entry } : null;
}

/** A change id as the feed numbers them, or undefined for a value that is none. */
function feedId(id: string): number | undefined {
  return /^\d{1,20}$/.test(id) ? Number(id) : undefined;
}

/** A client's id as a RESET names it: an id as it is, anything else quoted and cut short. */
function shownId(id: string, resumeAt: number | undefined): string {
  if (resumeAt !== undefined) return id;
  return JSON.stringify(id.length > 64 ? `${id.slice(0, 64)}…` : id);
}

function problemOf(err: unknown): Problem {
  if (err instanceof ProblemError) return err.toProblem();
  return new ProblemError('invalid_token', 'the credential of this watch no longer holds').toProblem();
}

/**
 * One client's event watch as text chunks. Everything from subscribing to reading where the
 * client resumes happens before the first await, so no change can fall between the state sent
 * and the changes that follow it. Changes wait in a queue bounded by `maxBacklog`; the transport
 * pulls a chunk only when the client took the last one, so a slow client grows that queue, never
 * a socket buffer, and past the bound it is ended with an ERROR saying so.
 */
export async function* watchStream(w: WatchInputs): AsyncGenerator<string, void, undefined> {
  const { feed, cache, framing, options } = w;
  const pending: FeedChange[] = [];
  let overflowed = false;
  let gap = false;
  let credentialProblem: Problem | undefined;
  let heartbeatDue = false;
  let sentStale: string | undefined;
  let lastOutput = Date.now();
  let wake: (() => void) | null = null;
  const notify = () => {
    const f = wake;
    wake = null;
    f?.();
  };
  const unsubscribe = feed.subscribe({
    change(c) {
      if (overflowed) return;
      pending.push(c);
      if (pending.length > options.maxBacklog) {
        overflowed = true;
        pending.length = 0;
        w.stop.abort();
      }
      notify();
    },
    gap() {
      gap = true;
      notify();
    },
  });
  w.signal.addEventListener('abort', notify);
  let checking = false;
  const checker = setInterval(() => {
    // Keeps the cache from being swept as unused while someone watches it.
    cache.lastUsed = Date.now();
    if (cache.staleSince !== sentStale) notify();
    if (!w.recheck || checking || credentialProblem) return;
    checking = true;
    w.recheck().then(
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
      if (Date.now() - lastOutput >= options.heartbeatMs) {
        heartbeatDue = true;
        notify();
      }
    },
    Math.max(10, Math.floor(options.heartbeatMs / 4)),
  );

  const json = (r: EventWatchRecord) => framing.record(r, JSON.stringify(r));
  const change = (c: Change, withId: boolean): string =>
    json({
      type: c.type,
      ...(withId ? { id: String(c.seq) } : {}),
      event: eventRecord(c.entry, w.workspaceId),
    });
  const out = (text: string) => {
    lastOutput = Date.now();
    return text;
  };

  try {
    // Synchronous up to the first yield: subscribed, then the state or the missed changes read.
    const head = feed.head;
    const resumeAt = w.lastEventId === undefined ? undefined : feedId(w.lastEventId);
    const missed = resumeAt === undefined ? undefined : feed.since(resumeAt);
    const resumed = missed !== undefined;
    let replay: readonly EventEntry[] = [];
    if (!resumed && (w.lastEventId !== undefined || w.sendInitial))
      replay = eventRows(cache.read().view, w.filter());

    yield out(framing.opening());
    if (w.lastEventId !== undefined && !resumed) {
      const why =
        resumeAt === undefined
          ? 'not an id this watch sends'
          : 'older than the changes kept, or from another run';
      yield out(
        json({
          type: 'RESET',
          reason: `Last-Event-ID ${shownId(w.lastEventId, resumeAt)} cannot be resumed from (${why}); the current state follows`,
        }),
      );
    }
    for (let i = 0; i < replay.length && !w.signal.aborted && !overflowed; i += BATCH) {
      let text = '';
      for (const entry of replay.slice(i, i + BATCH)) text += change({ type: 'ADDED', seq: 0, entry }, false);
      yield out(text);
    }
    if (missed) {
      for (let i = 0; i < missed.length && !w.signal.aborted && !overflowed; i += BATCH) {
        const f = w.filter();
        let text = '';
        for (const c of missed.slice(i, i + BATCH)) {
          const s = seen(c, f);
          if (s) text += change(s, true);
        }
        if (text !== '') yield out(text);
      }
    }
    // Fell behind while the state was still going out: the ERROR below says so, no SYNCED first.
    if (!overflowed) yield out(json({ type: 'SYNCED', id: String(head) }));
    // Where a resume would start: before the SYNCED, only where the client came from.
    let sentId: number | undefined = overflowed ? resumeAt : head;

    for (;;) {
      if (w.signal.aborted) return;
      if (overflowed) {
        yield json({
          type: 'ERROR',
          problem: new ProblemError(
            'client_too_slow',
            `this client fell more than ${options.maxBacklog} changes behind; reconnect with Last-Event-ID to resume`,
            sentId === undefined ? {} : { lastEventId: String(sentId) },
          ).toProblem(),
        });
        return;
      }
      if (credentialProblem) {
        yield json({ type: 'ERROR', problem: credentialProblem });
        return;
      }
      if (gap) {
        yield json({
          type: 'ERROR',
          problem: new ProblemError(
            'cluster_unreachable',
            'the service closed its connection to this cluster; reconnect to watch again',
          ).toProblem(),
        });
        return;
      }
      if (pending.length > 0) {
        const batch = pending.splice(0, BATCH);
        const f = w.filter();
        let text = '';
        for (const c of batch) {
          const s = seen(c, f);
          if (!s) continue;
          text += change(s, true);
          sentId = s.seq;
        }
        if (text !== '') yield out(text);
        continue;
      }
      const stale = cache.staleSince;
      if (stale !== sentStale) {
        sentStale = stale;
        const cause = cache.staleCause;
        yield out(
          json(
            stale === undefined
              ? { type: 'STATUS', stale: false }
              : {
                  type: 'STATUS',
                  stale: true,
                  staleSince: stale,
                  ...(cause ? { problem: cause.toProblem() } : {}),
                },
          ),
        );
        continue;
      }
      if (heartbeatDue) {
        heartbeatDue = false;
        // Changes this filter left out moved the feed on: say so, or a resume would start further back.
        if (sentId !== undefined && feed.head > sentId) {
          sentId = feed.head;
          yield out(json({ type: 'BOOKMARK', id: String(sentId) }));
        } else yield out(framing.heartbeat());
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    unsubscribe();
    clearInterval(checker);
    clearInterval(beat);
    w.signal.removeEventListener('abort', notify);
    w.onEnd();
  }
}
