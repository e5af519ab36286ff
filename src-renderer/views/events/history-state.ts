import { create } from 'zustand';
import { NO_RANGE, type TimeRange } from './history-range';

/**
 * The events view's history choices: the time range the chart and the table share, grouping,
 * whether recorded events the cluster no longer has are shown, and whether the timeline chart is
 * unfolded. Kept beside the view (the filters live in state/events) and for the window's life, so
 * leaving the view keeps them; the fold also outlives the window (localStorage), being a liking
 * for how much room the list gets rather than a question asked of the data.
 */
interface HistoryState {
  range: TimeRange;
  grouped: boolean;
  showExpired: boolean;
  chartOpen: boolean;
  setRange(range: TimeRange): void;
  resetRange(): void;
  setGrouped(on: boolean): void;
  setShowExpired(on: boolean): void;
  setChartOpen(open: boolean): void;
}

const CHART_KEY = 'skiff.events.chartFolded';

function storedChartOpen(): boolean {
  try {
    return window.localStorage.getItem(CHART_KEY) !== '1';
  } catch {
    return true;
  }
}

export const useEventHistory = create<HistoryState>()((set) => ({
  range: NO_RANGE,
  grouped: false,
  showExpired: false,
  chartOpen: typeof window === 'undefined' ? true : storedChartOpen(),
  setRange: (range) => set({ range }),
  resetRange: () => set({ range: NO_RANGE }),
  setGrouped: (grouped) => set({ grouped }),
  setShowExpired: (showExpired) => set({ showExpired }),
  setChartOpen(chartOpen) {
    try {
      if (chartOpen) window.localStorage.removeItem(CHART_KEY);
      else window.localStorage.setItem(CHART_KEY, '1');
    } catch {
      // Storage can be disabled; the fold then lasts for this window only.
    }
    set({ chartOpen });
  },
}));
