import { create } from 'zustand';

/**
 * The detail pane's width, chosen with the drag handle, kept across navigation and restarts.
 * null means "not chosen": the stylesheet's default (34% of the area) applies.
 */

const KEY = 'skiff.detailPaneWidth';

/**
 * Bounds in rem: the pane's narrowest, and what the list keeps beside it: a narrowed name and a
 * status as wide as "CreateContainerConfigError" (fitColumns.ts, badgeWidth.ts).
 */
export const PANE_MIN_REM = 23;
export const LIST_MIN_REM = 23.5;

function stored(): number | null {
  try {
    const v = Number(window.localStorage.getItem(KEY));
    return Number.isFinite(v) && v > 0 ? v : null;
  } catch {
    return null;
  }
}

interface PaneWidthState {
  /** Pixels, or null for the default. */
  width: number | null;
  set(width: number | null): void;
}

export const usePaneWidth = create<PaneWidthState>()((set) => ({
  width: typeof window === 'undefined' ? null : stored(),
  set(width) {
    try {
      if (width === null) window.localStorage.removeItem(KEY);
      else window.localStorage.setItem(KEY, String(Math.round(width)));
    } catch {
      // Storage can be disabled; the width then lasts for this window only.
    }
    set({ width });
  },
}));
