/** A watchStream over a real EventFeed and a real Collection, pulled chunk by chunk as the transport pulls it. */
import { type EventWatchRecord, NDJSON_WATCH } from '../../../../src-shared/contract/event-watch-operations';
import type { KubeObject } from '../../../../src-shared/contract/models';
import type { Problem } from '../../../../src-shared/contract/problem';
import { Collection } from '../../cache/collection';
import type { ResourceCache } from '../../cache/resource-cache';
import type { ProblemError } from '../../errors';
import { compareEventEntries, EVENT_INDEXES, type EventEntry, eventEntry } from '../entries';
import { EventFeed } from '../feed';
import type { EventFilter } from '../filter';
import { framingFor } from './framing';
import { type EventWatchOptions, resolveWatchOptions } from './options';
import { watchStream } from './stream';

let n = 0;
/** A real event entry as the cache keeps it; `at` is its lastTimestamp. */
export function event(reason: string, at = Date.UTC(2026, 0, 1, 0, n % 60)): EventEntry {
  n++;
  const ts = new Date(at).toISOString();
  const raw = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `ev-${n}`, namespace: 'shop', uid: `uid-${n}` },
    involvedObject: { kind: 'Pod', name: `pod-${n}`, namespace: 'shop', uid: `pod-uid-${n}` },
    reason,
    type: 'Warning',
    firstTimestamp: ts,
    lastTimestamp: ts,
    message: `m ${n}`,
  } as unknown as KubeObject;
  return eventEntry(raw, 'c1');
}

export interface Setup {
  state?: EventEntry[];
  /** 'head': the feed's head when the watch starts; any other string is sent as it is. */
  lastEventId?: number | string;
  sendInitial?: boolean;
  options?: EventWatchOptions;
  recheck?: () => Promise<unknown>;
  reason?: string;
  capacity?: number;
}

const running: Array<{ chunks: AsyncGenerator<string>; client: AbortController }> = [];

/** Ends every stream a test started (call it in afterEach): their timers stop with them. */
export async function endAll(): Promise<void> {
  for (const { chunks, client } of running.splice(0)) {
    // Gone first: that wakes a stream waiting for news, so a pull still open returns and it can end.
    client.abort();
    await chunks.return(undefined);
  }
}

/** A watch over a real feed and a real collection; the cache around them is reduced to what the stream reads. */
export function start(s: Setup = {}) {
  const feed = new EventFeed({ capacity: s.capacity ?? 2_000, now: () => 1 });
  const obs = feed.observer();
  obs.listed([]);
  const collection = new Collection(compareEventEntries, EVENT_INDEXES);
  for (const e of s.state ?? []) collection.upsert(e);
  const cache = {
    lastUsed: 0,
    staleSince: undefined as string | undefined,
    staleCause: undefined as ProblemError | undefined,
    read: () => ({ view: collection.view() }),
  };
  const filter: EventFilter = { reason: s.reason ?? 'Watched', resourceEvents: true, systemEvents: true };
  const client = new AbortController();
  const stop = new AbortController();
  let ends = 0;
  const start = feed.head;
  const chunks = watchStream({
    feed,
    cache: cache as unknown as ResourceCache<EventEntry>,
    workspaceId: 'default',
    filter: () => filter,
    framing: framingFor(NDJSON_WATCH, 1_000),
    lastEventId: s.lastEventId === 'head' ? String(feed.head) : s.lastEventId?.toString(),
    sendInitial: s.sendInitial ?? true,
    options: resolveWatchOptions({ heartbeatMs: 60_000, credentialCheckMs: 60_000, ...s.options }),
    recheck: s.recheck,
    signal: client.signal,
    stop,
    onEnd: () => ends++,
  });
  running.push({ chunks, client });
  /** The records of the next chunk; undefined once the stream ended. */
  const next = async (): Promise<EventWatchRecord[] | undefined> => {
    const r = await chunks.next();
    if (r.done) return undefined;
    return r.value
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as EventWatchRecord);
  };
  /** Pulls until a chunk holds a record of this type; returns everything pulled. */
  const until = async (type: EventWatchRecord['type']) => {
    const seen: EventWatchRecord[] = [];
    for (;;) {
      const got = await next();
      if (!got) throw new Error(`ended before ${type}: ${JSON.stringify(seen.map((r) => r.type))}`);
      seen.push(...got);
      if (got.some((r) => r.type === type)) return seen;
    }
  };
  const add = (e: EventEntry) => obs.upserted(e);
  return { feed, obs, cache, client, stop, next, until, add, start, ends: () => ends };
}

export const problemOf = (records: EventWatchRecord[]): Problem =>
  (records.find((r) => r.type === 'ERROR') as { problem: Problem }).problem;
export const changeIds = (records: EventWatchRecord[]) =>
  records.flatMap((r) => (r.type === 'ADDED' || r.type === 'MODIFIED' || r.type === 'DELETED' ? [r.id] : []));
