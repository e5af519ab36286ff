import { CELL_PAD_REM, minRem } from './fitColumns';

/**
 * A badge column is as wide as its longest badge, so no status is ever cut ("CrashLoopBackOf",
 * "CreateContainerC"): the track's minimum becomes the widest badge the list holds. Each distinct
 * text is measured once, as a real (hidden) badge, so the page's own font and badges.css decide;
 * a canvas measure was tried and came out narrower than the rendered badge. Where nothing is laid
 * out (tests), a generous per-character estimate stands in. The track's growth (its fr) is kept.
 */

/** Sub-pixel rounding, in rem. */
const SLACK_REM = 0.1;
/** Without layout: bold capitals at the badge's 0.75rem run near 0.68em, plus 0.8rem padding. */
const estimate = (text: string) => text.length * 0.68 * 0.75 + 0.8;

const widths = new Map<string, number>();
let probe: HTMLSpanElement | null = null;

function measure(text: string): number {
  if (typeof document === 'undefined' || !document.body) return estimate(text);
  if (!probe?.isConnected) {
    probe = document.createElement('span');
    probe.className = 'badge';
    probe.setAttribute('aria-hidden', 'true');
    probe.style.cssText = 'position:absolute;left:-10000px;top:0;visibility:hidden;pointer-events:none';
    document.body.appendChild(probe);
  }
  probe.textContent = text;
  const px = probe.getBoundingClientRect().width;
  const rem = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  return px > 0 ? px / rem : estimate(text);
}

/** The rem a badge showing `text` needs, padding included (rem-relative, so zoom keeps it true). */
export function badgeRem(text: string): number {
  let w = widths.get(text);
  if (w === undefined) {
    w = Math.ceil((measure(text) + SLACK_REM) * 4) / 4;
    widths.set(text, w);
  }
  return w;
}

/**
 * Each badge column's track with its minimum raised to its widest badge among `rows` plus the
 * cell's padding ("minmax(9rem, 1.2fr)" → "minmax(13.65rem, 1.2fr)"; a fixed "6rem" → "13.65rem").
 * Columns without badges, and those already wide enough, come back as they were.
 */
export function sizeBadgeColumns<R, C extends { id: string; width: string; badge?: (row: R) => string }>(
  columns: readonly C[],
  rows: readonly R[],
): C[] {
  return columns.map((c) => {
    const text = c.badge;
    if (!text) return c;
    const seen = new Set<string>();
    for (const r of rows) seen.add(text(r));
    let widest = 0;
    for (const t of seen) widest = Math.max(widest, badgeRem(t));
    // The track holds the cell's padding beside the badge.
    const need = widest + CELL_PAD_REM;
    const min = minRem(c);
    if (need <= min) return c;
    const m = /^minmax\(\s*[\d.]+rem\s*,(.*)\)$/.exec(c.width);
    return { ...c, width: m ? `minmax(${need}rem,${m[1]})` : `${need}rem` };
  });
}
