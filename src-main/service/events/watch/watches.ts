/**
 * The event watch (watchEvents) as a feature: the open watches of the whole service, their
 * per-credential slots, and what one watch streams (stream.ts) from its cluster's event feed
 * (../feed.ts; framing, resume and bounds here in watch/).
 *
 * Rules: a watch's slot is taken before anything else, its cluster resolved included, so a 429
 * costs no lookup and no cluster work; every way a watch ends gives its slot back (a client that
 * leaves before the first chunk was pulled included); the same filters as the list apply, with the
 * monitoring flags read as they are now for every batch, so a change applies to open watches; so
 * are the namespaces the caller may list events in (`--authorize rbac`, ../access.ts), checked again
 * with the credential: a grant taken away ends a watch of its namespace with a 403 ERROR, and
 * drops that namespace's events from a watch across namespaces; a review that cannot be answered
 * ends the watch too (503), since the decisions it serves by would outlive their 30 s.
 */
import type { StreamBody } from '../../../../src-shared/contract/define';
import type { CallContext } from '../../context';
import { eventNamespaces } from '../access';
import { durationsEnd } from '../clock';
import { type EventQuery, resolveEventFilter } from '../query';
import { syncedEvents } from '../source';
import type { EventsTarget } from '../target';
import { framingFor } from './framing';
import { type EventWatchOptions, type ResolvedWatchOptions, resolveWatchOptions } from './options';
import { WatchSlots } from './slots';
import { watchStream } from './stream';

export interface WatchQuery extends EventQuery {
  lastEventId?: string | undefined;
  sendInitialEvents?: boolean | undefined;
}

export class EventWatches {
  private readonly opts: ResolvedWatchOptions;
  private readonly slots: WatchSlots;

  constructor(
    options: EventWatchOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.opts = resolveWatchOptions(options);
    this.slots = new WatchSlots(this.opts.maxPerCredential);
  }

  /** Open watches, all credentials together (tests check that ended streams gave theirs back). */
  get open(): number {
    return this.slots.total;
  }

  /** Starts one watch: `resolve` finds its cluster once its slot is held. */
  async watch(resolve: () => EventsTarget, query: WatchQuery, ctx: CallContext): Promise<StreamBody> {
    const release = this.slots.take(ctx.principal);
    try {
      const target = resolve();
      // `--authorize rbac`: a namespace named is checked now (403), and the namespaces a watch
      // across them may see are checked again with the credential (the authorizer caches them).
      let allowed = await eventNamespaces(target, query.namespace, ctx.signal);
      const cache = await syncedEvents(target, ctx.signal);
      const asOf = durationsEnd(target.cluster, this.now());
      const stop = new AbortController();
      const framing = framingFor(ctx.mediaType ?? 'text/event-stream', this.opts.retryMs);
      // A client that leaves before the first chunk was pulled never runs the stream's own cleanup.
      ctx.signal.addEventListener('abort', release, { once: true });
      return {
        contentType: framing.contentType,
        stop: stop.signal,
        chunks: watchStream({
          feed: target.cluster.eventFeed,
          cache,
          workspaceId: target.workspaceId,
          filter: () => resolveEventFilter(query, asOf, target.currentFlags(), allowed),
          framing,
          // An empty id is none, as EventSource treats it.
          lastEventId: query.lastEventId || undefined,
          sendInitial: query.sendInitialEvents !== false,
          options: this.opts,
          recheck: target.access.open
            ? ctx.recheck
            : async () => {
                await ctx.recheck?.();
                // Fails closed: a refusal ends the watch, and so does a review that cannot be
                // answered (503 authorization_unavailable), rather than serving on with decisions
                // past their 30 s; the client's reconnect is asked again from scratch.
                allowed = await eventNamespaces(target, query.namespace, ctx.signal);
              },
          signal: ctx.signal,
          stop,
          onEnd: release,
        }),
      };
    } catch (err) {
      release();
      throw err;
    }
  }
}
