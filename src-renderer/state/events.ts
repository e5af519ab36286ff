import { useEffect, useRef, useState } from 'react';
import { create } from 'zustand';
import type { EventWatchRecord } from '../../src-shared/contract/event-watch-operations';
import type { EventRecord } from '../../src-shared/contract/models';
import {
  followEvents,
  httpWatchTransport,
  ipcWatchTransport,
  type WatchState,
  type WatchTransport,
} from '../api/event-stream';
import { LiveEvents } from '../api/event-stream-model';
import type { Scope } from '../api/queries';
import { getConnection } from './connection';

export interface EventFilters {
  warningsOnly: boolean;
  reason: string;
  namespace: string;
  /** Involved object kind, e.g. Pod. */
  kind: string;
  /** Involved object name. */
  name: string;
}

interface EventsState extends EventFilters {
  expanded: string | null;
  setFilters(patch: Partial<EventFilters>): void;
  toggle(eventId: string): void;
}

export const EMPTY_FILTERS: EventFilters = {
  warningsOnly: false,
  reason: '',
  namespace: '',
  kind: '',
  name: '',
};

export const useEventsView = create<EventsState>()((set, get) => ({
  ...EMPTY_FILTERS,
  expanded: null,
  setFilters: (patch) => set(patch),
  toggle: (eventId) => set({ expanded: get().expanded === eventId ? null : eventId }),
}));

/** What the events view shows from the live watch. */
export interface LiveView {
  /** The first `count` events in the list's order; undefined until the state has arrived. */
  events: EventRecord[] | undefined;
  total: number;
  watch: WatchState;
  /** A connection failed since the watch last synced: the view polls the list until it syncs again. */
  down: boolean;
  /**
   * Counts batches of changes, at most one step per TIMELINE_REFRESH_MS: what the timeline and
   * other summaries refetch on instead of polling.
   */
  changes: number;
}

/** The timeline follows changes at most this often (a busy cluster changes every second). */
const TIMELINE_REFRESH_MS = 5_000;

function transport(): WatchTransport {
  if (typeof window !== 'undefined' && window.skiffEvents) return ipcWatchTransport(window.skiffEvents);
  const keeper = getConnection().keeper;
  return httpWatchTransport(
    window.location.origin,
    async () => keeper?.authorize(),
    keeper ? () => keeper.refresh() : undefined,
  );
}

/**
 * Follows the event watch for these filters while `enabled` (null scope: nothing). Records are
 * applied once per animation frame in one batch, so a replay of 100,000 events or a burst costs
 * one sort and one render per frame, not one per record.
 */
export function useLiveEvents(scope: Scope | null, query: Record<string, string>, count: number): LiveView {
  const [watch, setWatch] = useState<WatchState>({ kind: 'connecting' });
  const [down, setDown] = useState(false);
  const [changes, setChanges] = useState(0);
  const [, setVersion] = useState(0);
  const model = useRef<LiveEvents | null>(null);
  const key = scope ? `${scope.workspaceId}/${scope.clusterId}/${JSON.stringify(query)}` : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for scope and query
  useEffect(() => {
    if (!scope) return;
    const live = new LiveEvents();
    model.current = live;
    let queued: EventWatchRecord[] = [];
    let frame: number | null = null;
    let lastStep = 0;
    let step: ReturnType<typeof setTimeout> | null = null;
    const stepChanges = () => {
      step = null;
      lastStep = Date.now();
      setChanges((n) => n + 1);
    };
    const flush = () => {
      frame = null;
      const batch = queued;
      queued = [];
      const before = live.version;
      live.apply(batch);
      if (live.version === before) return;
      setVersion(live.version);
      step ??= setTimeout(stepChanges, Math.max(0, lastStep + TIMELINE_REFRESH_MS - Date.now()));
    };
    const follow = followEvents(transport(), scope, query, {
      records(records) {
        queued.push(...records);
        frame ??= requestAnimationFrame(flush);
      },
      state(state) {
        setWatch(state);
        if (state.kind === 'down') setDown(true);
        else if (state.kind === 'live') setDown(false);
      },
    });
    return () => {
      follow.close();
      if (frame !== null) cancelAnimationFrame(frame);
      if (step !== null) clearTimeout(step);
      model.current = null;
      setWatch({ kind: 'connecting' });
      setDown(false);
    };
  }, [key]);
  const live = model.current;
  return {
    events: live?.synced ? live.first(count) : undefined,
    total: live?.size ?? 0,
    watch,
    down,
    changes,
  };
}
