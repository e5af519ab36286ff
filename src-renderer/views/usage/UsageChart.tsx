import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { type ChartLine, type ChartModel, type LineKind, xRange } from './usage-series';

/**
 * One resource's recorded usage as lines over time (uPlot on a canvas, like the events timeline):
 * each container's usage solid, requests and allocatable dotted, limits and capacity dashed, and
 * each OOM kill a vertical mark on the memory chart. The canvas is described for screen readers by
 * its aria-label; the key under it names every line and the latest figures, and the kills are
 * listed in text too, so nothing is told by colour or canvas alone.
 */

const HEIGHT = 150;

const readTheme = () => document.documentElement.getAttribute('data-theme') ?? 'light';

/** The resolved theme: uPlot paints a canvas, so it is redrawn when this changes. */
function useDataTheme(): string {
  const [theme, setTheme] = useState(readTheme);
  useEffect(() => {
    const mo = new MutationObserver(() => setTheme(readTheme()));
    mo.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => mo.disconnect();
  }, []);
  return theme;
}

const DASH: Record<LineKind, number[] | undefined> = {
  usage: undefined,
  request: [2, 4],
  allocatable: [2, 4],
  limit: [8, 5],
  capacity: [8, 5],
};

const data = (m: ChartModel): uPlot.AlignedData => [m.xs, ...m.lines.map((l) => l.values)];

const clock = (sec: number) =>
  new Date(sec * 1000).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

export function UsageChart({
  title,
  model,
  format,
  testId,
}: {
  title: string;
  model: ChartModel;
  format: (v: number) => string;
  testId: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(model);
  latest.current = model;
  const theme = useDataTheme();
  // The chart is rebuilt when the set of lines changes (a container appears), not for new points.
  const shape = model.lines.map((l) => `${l.kind}:${l.label}`).join('|');

  // biome-ignore lint/correctness/useExhaustiveDependencies: theme and shape are the triggers; the data is read from latest
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const css = getComputedStyle(document.documentElement);
    const colour = (name: string) => css.getPropertyValue(name).trim();
    const palette = [
      colour('--accent'),
      colour('--ok-text'),
      colour('--warn-text'),
      colour('--neutral-text'),
    ];
    const bad = colour('--bad-text');
    const muted = colour('--muted');
    const axis = {
      stroke: muted,
      grid: { stroke: colour('--border'), width: 1 },
      ticks: { stroke: colour('--border'), width: 1 },
    };
    let used = 0;
    const stroke = (l: ChartLine) => {
      if (l.kind === 'limit' || l.kind === 'capacity') return bad;
      if (l.kind === 'request' || l.kind === 'allocatable') return muted;
      return palette[used++ % palette.length]!;
    };
    const opts: uPlot.Options = {
      width: Math.max(el.clientWidth, 100),
      height: HEIGHT,
      legend: { show: false },
      padding: [8, 16, 0, 0],
      scales: {
        x: { time: true, range: (_u, min, max) => xRange(latest.current) ?? [min, max] },
        y: { range: (_u, _min, max) => [0, Math.max(max * 1.1, 1e-3)] },
      },
      axes: [axis, { ...axis, size: 56, values: (_u, splits) => splits.map((v) => format(v)) }],
      series: [
        {},
        ...latest.current.lines.map((l) => {
          const dash = DASH[l.kind];
          return {
            label: l.label,
            stroke: stroke(l),
            width: l.kind === 'usage' ? 2 : 1.5,
            ...(dash ? { dash } : {}),
            points: { show: false },
            spanGaps: false,
          };
        }),
      ],
      cursor: { y: false, drag: { x: false, y: false }, points: { show: false } },
      hooks: {
        draw: [
          (u) => {
            // The OOM kills: a vertical mark at each, across the whole plot.
            const { ctx } = u;
            const { top, height } = u.bbox;
            let drawn = 0;
            ctx.save();
            ctx.strokeStyle = bad;
            ctx.lineWidth = 2 * uPlot.pxRatio;
            for (const m of latest.current.markers) {
              const x = u.valToPos(m.x, 'x', true);
              if (!Number.isFinite(x)) continue;
              ctx.beginPath();
              ctx.moveTo(x, top);
              ctx.lineTo(x, top + height);
              ctx.stroke();
              drawn++;
            }
            ctx.restore();
            u.root.setAttribute('data-markers', String(drawn));
            u.root.setAttribute('data-points', String(latest.current.xs.length));
          },
        ],
      },
    };
    const u = new uPlot(opts, data(latest.current), el);
    const ro = new ResizeObserver(() => {
      if (el.clientWidth > 0 && el.clientWidth !== u.width)
        u.setSize({ width: el.clientWidth, height: HEIGHT });
    });
    ro.observe(el);
    plot.current = u;
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [theme, shape]);

  useEffect(() => {
    plot.current?.setData(data(model));
  }, [model]);

  const now = model.latest.map((l) => `${l.label} ${format(l.value)}`).join(', ');
  const bounds = model.lines
    .filter((l) => l.kind !== 'usage' && l.values.length > 0)
    .map((l) => `${l.label} ${format(l.values[0] as number)}`)
    .join(', ');
  const label = `${title} over time: ${model.xs.length} sample${model.xs.length === 1 ? '' : 's'}${now ? `, latest ${now}` : ''}${bounds ? `; ${bounds}` : ''}${model.markers.length ? `; ${model.markers.length} OOM kill${model.markers.length === 1 ? '' : 's'} marked` : ''}.`;
  return (
    <figure className="usage-chart" data-testid={testId}>
      <figcaption className="usage-chart-title">{title}</figcaption>
      <div ref={host} className="usage-canvas" role="img" aria-label={label} />
      <ul className="usage-key muted" aria-hidden="true">
        {model.lines.map((l) => (
          <li key={`${l.kind}:${l.label}`} className={`usage-key-${l.kind}`}>
            <span className="usage-swatch" /> {l.label}
            {l.kind === 'usage'
              ? (() => {
                  const v = model.latest.find((x) => x.label === l.label)?.value;
                  return v === undefined ? '' : ` ${format(v)}`;
                })()
              : l.values.length > 0
                ? ` ${format(l.values[0] as number)}`
                : ''}
          </li>
        ))}
      </ul>
      {model.markers.length > 0 && (
        <ul className="usage-markers" data-testid={`${testId}-oom`}>
          {model.markers.map((m) => (
            <li key={`${m.x}:${m.label}`}>
              {m.label} at {clock(m.x)}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
