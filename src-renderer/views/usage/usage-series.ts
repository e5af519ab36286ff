/**
 * Recorded usage as the charts draw it: one time axis (seconds), one line per container, and the
 * flat lines beside them (requests, limits; a node's capacity and allocatable), plus the OOM kills
 * to mark on the memory chart.
 *
 * Rules: pure functions. A container absent from a sample is a gap (null), never 0; a bound a
 * container does not set is no line; a line is labelled with its container only when the pod has
 * more than one, so a one-container pod reads "Limit", not "app limit". Kills outside the points'
 * time range are still kept: the chart's x range is widened to show them.
 */
import type { NodeUsage, PodUsage } from '../../../src-shared/contract/usage-operations';

export type Resource = 'cpu' | 'memory';
export type LineKind = 'usage' | 'request' | 'limit' | 'allocatable' | 'capacity';

export interface ChartLine {
  label: string;
  kind: LineKind;
  /** One value per x (null: no figure then). */
  values: (number | null)[];
}

export interface ChartModel {
  /** Seconds since the epoch, ascending. */
  xs: number[];
  lines: ChartLine[];
  /** OOM kills (memory chart only), seconds, with the container they killed. */
  markers: { x: number; label: string }[];
  /** The latest usage figure of each usage line, for the text beside the chart. */
  latest: { label: string; value: number }[];
}

const FIELD = { cpu: 'cpuMillicores', memory: 'memoryBytes' } as const;

/** Millicores as cores, bytes as bytes: what the format helpers take. */
const scale = (resource: Resource, v: number) => (resource === 'cpu' ? v / 1000 : v);

function timeAxis(points: readonly { time: string }[]): number[] {
  return points.map((p) => Date.parse(p.time) / 1000);
}

function latestOf(lines: readonly ChartLine[]): ChartModel['latest'] {
  const out: ChartModel['latest'] = [];
  for (const l of lines) {
    if (l.kind !== 'usage') continue;
    for (let i = l.values.length - 1; i >= 0; i--) {
      const v = l.values[i];
      if (v !== null && v !== undefined) {
        out.push({ label: l.label, value: v });
        break;
      }
    }
  }
  return out;
}

const flat = (n: number, v: number) => Array.from({ length: n }, () => v);

/** A pod's chart of one resource. */
export function podChart(usage: PodUsage, resource: Resource): ChartModel {
  const xs = timeAxis(usage.points);
  const names = new Set(usage.containers.map((c) => c.name));
  for (const p of usage.points) for (const n of Object.keys(p.containers)) names.add(n);
  const many = names.size > 1;
  const named = (name: string, what: string) => (many ? `${name} ${what}` : what);
  const lines: ChartLine[] = [];
  for (const name of names) {
    lines.push({
      label: many ? name : 'Used',
      kind: 'usage',
      values: usage.points.map((p) => {
        const f = p.containers[name];
        return f ? scale(resource, f[FIELD[resource]]) : null;
      }),
    });
  }
  for (const c of usage.containers) {
    const request = c.requests[FIELD[resource]];
    const limit = c.limits[FIELD[resource]];
    if (request !== undefined)
      lines.push({
        label: named(c.name, 'request'),
        kind: 'request',
        values: flat(xs.length, scale(resource, request)),
      });
    if (limit !== undefined)
      lines.push({
        label: named(c.name, 'limit'),
        kind: 'limit',
        values: flat(xs.length, scale(resource, limit)),
      });
  }
  const markers =
    resource === 'memory'
      ? usage.oomKills.map((k) => ({
          x: Date.parse(k.time) / 1000,
          label: many ? `${k.container} OOMKilled` : 'OOMKilled',
        }))
      : [];
  return { xs, lines, markers, latest: latestOf(lines) };
}

/** A node's chart of one resource. */
export function nodeChart(usage: NodeUsage, resource: Resource): ChartModel {
  const xs = timeAxis(usage.points);
  const lines: ChartLine[] = [
    {
      label: 'Used',
      kind: 'usage',
      values: usage.points.map((p) => {
        const f = Object.values(p.containers)[0];
        return f ? scale(resource, f[FIELD[resource]]) : null;
      }),
    },
  ];
  const allocatable = usage.allocatable?.[FIELD[resource]];
  const capacity = usage.capacity?.[FIELD[resource]];
  if (allocatable !== undefined)
    lines.push({
      label: 'Allocatable',
      kind: 'allocatable',
      values: flat(xs.length, scale(resource, allocatable)),
    });
  if (capacity !== undefined)
    lines.push({ label: 'Capacity', kind: 'capacity', values: flat(xs.length, scale(resource, capacity)) });
  return { xs, lines, markers: [], latest: latestOf(lines) };
}

/** The x range to draw: the points' and the markers', at least a minute wide. */
export function xRange(model: ChartModel): [number, number] | undefined {
  const all = [...model.xs, ...model.markers.map((m) => m.x)];
  if (all.length === 0) return undefined;
  const min = Math.min(...all);
  const max = Math.max(...all);
  return [min, Math.max(max, min + 60)];
}
