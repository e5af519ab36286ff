import type { Page } from '@playwright/test';

/**
 * The in-page half of the renderer bench: one pass over the 10,000-pod table from top to bottom,
 * paced by time (so a late frame jumps further rather than stretching the pass), recording every
 * frame's interval, every Long Animation Frame with its script attribution, and every pod-list
 * poll that answered during the pass (a 200 is a live update, a 304 an unchanged page).
 */

export interface LoafScript {
  invoker: string;
  invokerType: string;
  sourceURL: string;
  sourceFunctionName: string;
  sourceCharPosition: number;
  duration: number;
  forcedStyleAndLayoutDuration: number;
}

export interface Loaf {
  startTime: number;
  duration: number;
  blockingDuration: number;
  /** Milliseconds from the frame's start to its rendering update (rAF callbacks, style, layout). */
  renderStart: number;
  styleAndLayoutStart: number;
  scripts: LoafScript[];
}

export interface Poll {
  /** When the response ended, relative to the pass's start. */
  at: number;
  status: number;
}

export interface ScrollPass {
  frames: number[];
  /** Frame intervals ending within a second after a changed (200) list response arrived. */
  framesAfterUpdate: number[];
  loafs: Loaf[];
  polls: Poll[];
}

/** Scrolls the pod list's table from top to bottom in `durationMs`. */
export function scrollPass(page: Page, durationMs: number): Promise<ScrollPass> {
  return page.evaluate(
    ({ durationMs }) =>
      new Promise<ScrollPass>((resolve) => {
        const loafs: Loaf[] = [];
        const po = new PerformanceObserver((list) => {
          for (const e of list.getEntries() as unknown as Loaf[]) {
            loafs.push({
              startTime: e.startTime,
              duration: e.duration,
              blockingDuration: e.blockingDuration,
              renderStart: e.renderStart ? e.renderStart - e.startTime : 0,
              styleAndLayoutStart: e.styleAndLayoutStart ? e.styleAndLayoutStart - e.startTime : 0,
              scripts: e.scripts.map((s) => ({
                invoker: s.invoker,
                invokerType: s.invokerType,
                sourceURL: s.sourceURL,
                sourceFunctionName: s.sourceFunctionName,
                sourceCharPosition: s.sourceCharPosition,
                duration: s.duration,
                forcedStyleAndLayoutDuration: s.forcedStyleAndLayoutDuration,
              })),
            });
          }
        });
        po.observe({ type: 'long-animation-frame', buffered: false });
        const scroller = document
          .querySelector('[data-kind="pod"] table[role=grid]')!
          .closest('.vt') as HTMLElement;
        scroller.scrollTop = 0;
        // Read once: reading the scroll size in every frame would force a layout the app does not.
        const max = scroller.scrollHeight - scroller.clientHeight;
        const frames: number[] = [];
        const frameEnds: number[] = [];
        let start = -1;
        let last = 0;
        const step = (t: number) => {
          if (start < 0) start = t;
          else {
            frames.push(t - last);
            frameEnds.push(t);
          }
          last = t;
          const f = Math.min(1, (t - start) / durationMs);
          scroller.scrollTop = Math.round(f * max);
          if (f < 1) {
            requestAnimationFrame(step);
            return;
          }
          // One more frame so the last scroll's work is measured too.
          requestAnimationFrame((end) => {
            frames.push(end - last);
            frameEnds.push(end);
            // The LoAF entries of the last frames are delivered a task later.
            setTimeout(() => {
              po.disconnect();
              const polls = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
                .filter((e) => e.name.includes('/kubernetes-proxy/pod') && e.responseEnd >= start)
                .map((e) => ({ at: e.responseEnd - start, status: e.responseStatus }));
              const updates = polls.filter((p) => p.status === 200).map((p) => p.at + start);
              const framesAfterUpdate = frames.filter((_, i) =>
                updates.some((u) => frameEnds[i]! >= u && frameEnds[i]! - u <= 1_000),
              );
              resolve({ frames, framesAfterUpdate, loafs, polls });
            }, 100);
          });
        };
        requestAnimationFrame(step);
      }),
    { durationMs },
  );
}

/** Where a LoAF's time went, summed over entries: the scripts by attribution, and the rest. */
export function loafAttribution(loafs: readonly Loaf[]): {
  scripts: Array<{ what: string; count: number; total: number; max: number; forced: number }>;
  scriptMs: number;
  renderMs: number;
  styleLayoutMs: number;
} {
  const byWhat = new Map<string, { count: number; total: number; max: number; forced: number }>();
  let scriptMs = 0;
  let renderMs = 0;
  let styleLayoutMs = 0;
  for (const l of loafs) {
    for (const s of l.scripts) {
      const file = s.sourceURL.split('/').at(-1) ?? '';
      const fn = s.sourceFunctionName || '(anonymous)';
      const what = `${s.invoker} → ${fn}${file ? ` (${file}:${s.sourceCharPosition})` : ''}`;
      const agg = byWhat.get(what) ?? { count: 0, total: 0, max: 0, forced: 0 };
      agg.count++;
      agg.forced += s.forcedStyleAndLayoutDuration;
      agg.total += s.duration;
      agg.max = Math.max(agg.max, s.duration);
      byWhat.set(what, agg);
      scriptMs += s.duration;
    }
    // The rendering update runs from renderStart to the end; style and layout are its tail.
    if (l.renderStart > 0) renderMs += l.duration - l.renderStart;
    if (l.styleAndLayoutStart > 0) styleLayoutMs += l.duration - l.styleAndLayoutStart;
  }
  const scripts = [...byWhat].map(([what, a]) => ({ what, ...a })).sort((a, b) => b.total - a.total);
  return { scripts, scriptMs, renderMs, styleLayoutMs };
}
