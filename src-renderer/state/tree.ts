import { create } from 'zustand';

/** Tree node ids: 'namespaces', 'ns:*' (all namespaces), 'ns:<name>'. */
interface TreeState {
  expanded: ReadonlySet<string>;
  /** The item that holds the tree's single tab stop (roving tabindex). */
  focusId: string | null;
  toggle(id: string, open?: boolean): void;
  setFocus(id: string): void;
}

export const useTree = create<TreeState>()((set, get) => ({
  expanded: new Set(['cluster', 'namespaces']),
  focusId: null,
  toggle(id, open) {
    const next = new Set(get().expanded);
    const want = open ?? !next.has(id);
    if (want) next.add(id);
    else next.delete(id);
    set({ expanded: next });
  },
  setFocus: (id) => set({ focusId: id }),
}));
