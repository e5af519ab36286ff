import { create } from 'zustand';

export interface SortState {
  column: string;
  direction: 'asc' | 'desc';
}

export interface ListSettings {
  nameFilter: string;
  selectorText: string;
  sort: SortState;
}

const DEFAULT: ListSettings = {
  nameFilter: '',
  selectorText: '',
  sort: { column: 'name', direction: 'asc' },
};

interface ListsState {
  byKind: Partial<Record<string, ListSettings>>;
  update(kind: string, patch: Partial<ListSettings>): void;
}

/** Filters and sort order per kind, so switching from pods to nodes and back keeps what the person set. */
export const useLists = create<ListsState>()((set, get) => ({
  byKind: {},
  update(kind, patch) {
    const current = get().byKind[kind] ?? DEFAULT;
    set({ byKind: { ...get().byKind, [kind]: { ...current, ...patch } } });
  },
}));

export function useListSettings(kind: string): ListSettings {
  return useLists((s) => s.byKind[kind] ?? DEFAULT);
}
