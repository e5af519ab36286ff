import { create } from 'zustand';

/**
 * The tree's own state. Node ids: 'group:<id>' for a kind group, 'crd:<api group>' for a custom
 * resource group, 'kind:<resourceType>' for a kind. Groups start open, so what is collapsed is
 * kept (a group that appears later, a new CRD's, shows its kinds at once).
 */
interface TreeState {
  collapsed: ReadonlySet<string>;
  /** The item that holds the tree's single tab stop (roving tabindex). */
  focusId: string | null;
  /** Whether kinds with no objects (in the chosen namespace) are listed. */
  showEmpty: boolean;
  isOpen(id: string): boolean;
  toggle(id: string, open?: boolean): void;
  setFocus(id: string): void;
  setShowEmpty(show: boolean): void;
}

export const useTree = create<TreeState>()((set, get) => ({
  collapsed: new Set(),
  focusId: null,
  showEmpty: false,
  isOpen: (id) => !get().collapsed.has(id),
  toggle(id, open) {
    const next = new Set(get().collapsed);
    const want = open ?? next.has(id);
    if (want) next.delete(id);
    else next.add(id);
    set({ collapsed: next });
  },
  setFocus: (id) => set({ focusId: id }),
  setShowEmpty: (showEmpty) => set({ showEmpty }),
}));
