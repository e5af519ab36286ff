import { create } from 'zustand';
import { NO_RANGE, type TimeRange } from './history-range';

/**
 * The events view's history choices: the time range the chart and the table share, grouping,
 * and whether recorded events the cluster no longer has are shown. Kept beside the view (the
 * filters live in state/events) and for the window's life, so leaving the view keeps them.
 */
interface HistoryState {
  range: TimeRange;
  grouped: boolean;
  showExpired: boolean;
  setRange(range: TimeRange): void;
  resetRange(): void;
  setGrouped(on: boolean): void;
  setShowExpired(on: boolean): void;
}

export const useEventHistory = create<HistoryState>()((set) => ({
  range: NO_RANGE,
  grouped: false,
  showExpired: false,
  setRange: (range) => set({ range }),
  resetRange: () => set({ range: NO_RANGE }),
  setGrouped: (grouped) => set({ grouped }),
  setShowExpired: (showExpired) => set({ showExpired }),
}));
