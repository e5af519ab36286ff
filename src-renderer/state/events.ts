import { create } from 'zustand';

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
