import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { plural } from '../../kube/format';
import { rangeFromSelection, type TimeRange } from './history-range';
import type { TimelineSeries } from './timeline-series';

const HEIGHT = 140;
/** Whole counts only on the y axis: a third of an event is not a thing. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6];

/** The resolved theme (html[data-theme]); uPlot paints a canvas, so it is redrawn when this changes. */
const readTheme = () => document.documentElement.getAttribute('data-theme') ?? 'light';

function useDataTheme(): string {
  const [theme, setTheme] = useState(readTheme);
  useEffect(() => {
    const mo = new MutationObserver(() => setTheme(readTheme()));
    mo.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => mo.disconnect();
  }, []);
  return theme;
}

const columns = (s: TimelineSeries): uPlot.AlignedData => [s.xs, s.totals, s.normals];

const clock = (sec: number) =>
  new Date(sec * 1000).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/**
 * Warnings and normals per time bucket as stacked bars (uPlot on a canvas). Dragging across it
 * selects a time range and hands it to `onSelect`; the chart itself never zooms, since the range
 * belongs to the whole view (the table follows it) and comes back as new buckets.
 */
export function TimelineChart({
  series,
  onSelect,
}: {
  series: TimelineSeries;
  onSelect: (range: TimeRange) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef({ series, onSelect });
  latest.current = { series, onSelect };
  const [hover, setHover] = useState<number | null>(null);
  const theme = useDataTheme();

  // biome-ignore lint/correctness/useExhaustiveDependencies: theme is the trigger; colours are read from the CSS it switched
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const css = getComputedStyle(document.documentElement);
    const colour = (name: string) => css.getPropertyValue(name).trim();
    const warn = colour('--bad-text');
    const normal = colour('--accent');
    const axis = {
      stroke: colour('--muted'),
      grid: { stroke: colour('--border'), width: 1 },
      ticks: { stroke: colour('--border'), width: 1 },
    };
    // Counts the bars laid out with some height, so the chart can say how many it drew.
    let drawn = 0;
    const bars = uPlot.paths.bars?.({
      align: 1,
      size: [0.9, Number.POSITIVE_INFINITY, 1],
      each: (_u, _si, _i, _l, _t, _w, h) => {
        if (h > 0) drawn++;
      },
    });
    const countedBars: uPlot.Series.PathBuilder = (u, si, i0, i1) => {
      drawn = 0;
      return bars ? bars(u, si, i0, i1) : null;
    };
    const sharedBars = uPlot.paths.bars?.({ align: 1, size: [0.9, Number.POSITIVE_INFINITY, 1] });
    const opts: uPlot.Options = {
      width: Math.max(el.clientWidth, 100),
      height: HEIGHT,
      legend: { show: false },
      padding: [8, 20, 0, 0],
      scales: {
        x: {
          time: true,
          // A single instant still gets a minute of width, or uPlot has no scale to draw on.
          range: () => {
            const { fromSec, untilSec } = latest.current.series;
            return [fromSec, Math.max(untilSec, fromSec + 60)];
          },
        },
        y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
      },
      axes: [
        axis,
        { ...axis, size: 44, incrs: COUNT_STEPS, values: (_u, splits) => splits.map((v) => String(v)) },
      ],
      series: [
        {},
        // The total in the warning colour, drawn first; the normals over its lower part stack the bars.
        { label: 'Warning', fill: warn, stroke: warn, width: 0, paths: countedBars, points: { show: false } },
        {
          label: 'Normal',
          fill: normal,
          stroke: normal,
          width: 0,
          ...(sharedBars ? { paths: sharedBars } : {}),
          points: { show: false },
        },
      ],
      cursor: { y: false, drag: { x: true, y: false, setScale: false }, points: { show: false } },
      hooks: {
        draw: [(u) => u.root.setAttribute('data-bars', String(drawn))],
        setCursor: [(u) => setHover(u.cursor.idx ?? null)],
        setSelect: [
          (u) => {
            const { left, width } = u.select;
            if (width < 2) return;
            const range = rangeFromSelection(u.posToVal(left, 'x'), u.posToVal(left + width, 'x'));
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            if (range) latest.current.onSelect(range);
          },
        ],
      },
    };
    const u = new uPlot(opts, columns(latest.current.series), el);
    plot.current = u;
    const ro = new ResizeObserver(() => {
      if (el.clientWidth > 0 && el.clientWidth !== u.width)
        u.setSize({ width: el.clientWidth, height: HEIGHT });
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [theme]);

  useEffect(() => {
    plot.current?.setData(columns(series));
  }, [series]);

  const summary = `${plural(series.totalWarning, 'warning')} and ${plural(series.totalNormal, 'normal event')} between ${new Date(series.fromSec * 1000).toLocaleString()} and ${new Date(series.untilSec * 1000).toLocaleString()}`;
  const i = hover !== null && hover < series.xs.length ? hover : null;
  return (
    <div className="timeline">
      <div
        ref={host}
        className="timeline-canvas"
        role="img"
        aria-label={`Event timeline: ${summary}. Drag across it to choose a time range.`}
        data-testid="event-timeline"
      />
      <p className="timeline-readout muted" aria-hidden="true">
        <span className="timeline-key timeline-key-warn" /> Warning{' '}
        <span className="timeline-key timeline-key-normal" /> Normal
        {i !== null && (
          <span className="timeline-hover">
            {' · '}
            {clock(series.xs[i]!)}–{clock(series.xs[i]! + series.bucketSec)}:{' '}
            {plural(series.warnings[i]!, 'warning')}, {series.normals[i]} normal
          </span>
        )}
      </p>
    </div>
  );
}
