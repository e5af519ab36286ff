/**
 * What a usage read answers beside the samples: a series' rows as points, a pod's containers'
 * requests and limits, its OOM kills, a node's capacity and allocatable.
 *
 * Rules: pure functions of the objects and rows given, except the two lookups of recorded rows,
 * which read through the RecordedSource they are given (app database or a snapshot's tables) and
 * never see past its asOfMs. A figure that does not parse is left out, never 0. An OOM kill is
 * named once per container and instant whichever sources name it.
 */
import type { NodeUsage, PodUsage, UsagePoint } from '../../../../src-shared/contract/usage-operations';
import { parseQuantity } from '../../../../src-shared/kube/quantity';
import type { RecordedSource } from '../source';
import type { ContainerUsage } from './samples';
import type { SeriesRow } from './store';

type Bound = { cpuMillicores?: number; memoryBytes?: number };

const iso = (ms: number) => new Date(ms).toISOString();

export function toPoints(rows: readonly SeriesRow[]): UsagePoint[] {
  return rows.map((r) => ({ time: iso(r.time_ms), containers: JSON.parse(r.containers) as ContainerUsage }));
}

/** A resource list ({cpu, memory}) as figures; absent or unreadable figures left out. */
export function bound(list: unknown): Bound {
  const l = (list ?? {}) as { cpu?: unknown; memory?: unknown };
  const out: Bound = {};
  const cores = typeof l.cpu === 'string' || typeof l.cpu === 'number' ? parseQuantity(l.cpu) : Number.NaN;
  const bytes =
    typeof l.memory === 'string' || typeof l.memory === 'number' ? parseQuantity(l.memory) : Number.NaN;
  if (cores >= 0) out.cpuMillicores = Math.round(cores * 1e6) / 1e3;
  if (bytes >= 0) out.memoryBytes = Math.round(bytes);
  return out;
}

interface PodLike {
  spec?: { containers?: { name?: unknown; resources?: { requests?: unknown; limits?: unknown } }[] };
  status?: {
    containerStatuses?: {
      name?: unknown;
      state?: { terminated?: { reason?: unknown; finishedAt?: unknown } };
      lastState?: { terminated?: { reason?: unknown; finishedAt?: unknown } };
    }[];
  };
}

/** Each (app) container's requests and limits, in the pod's order. */
export function containerBounds(pod: unknown): PodUsage['containers'] {
  const containers = (pod as PodLike | undefined)?.spec?.containers;
  if (!Array.isArray(containers)) return [];
  return containers
    .filter((c) => typeof c?.name === 'string')
    .map((c) => ({
      name: c.name as string,
      requests: bound(c.resources?.requests),
      limits: bound(c.resources?.limits),
    }));
}

export interface OomKill {
  container: string;
  ms: number;
}

/** The OOM kills a pod's containerStatuses still show (the current and the previous instance). */
export function statusOomKills(pod: unknown): OomKill[] {
  const statuses = (pod as PodLike | undefined)?.status?.containerStatuses;
  if (!Array.isArray(statuses)) return [];
  const kills: OomKill[] = [];
  for (const s of statuses) {
    if (typeof s?.name !== 'string') continue;
    for (const t of [s.state?.terminated, s.lastState?.terminated]) {
      const ms = typeof t?.finishedAt === 'string' ? Date.parse(t.finishedAt) : Number.NaN;
      if (t?.reason === 'OOMKilled' && !Number.isNaN(ms)) kills.push({ container: s.name, ms });
    }
  }
  return kills;
}

/** The kills within [sinceMs, untilMs], oldest first, each (container, instant) once. */
export function oomKillsWithin(
  kills: readonly OomKill[],
  sinceMs: number,
  untilMs: number,
): PodUsage['oomKills'] {
  const seen = new Set<string>();
  return [...kills]
    .filter((k) => k.ms >= sinceMs && k.ms <= untilMs)
    .sort((a, b) => a.ms - b.ms || a.container.localeCompare(b.container))
    .filter((k) => {
      const key = `${k.container}@${k.ms}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((k) => ({ container: k.container, time: iso(k.ms) }));
}

/** A node's capacity and allocatable, each left out when the node says nothing of it. */
export function nodeBounds(node: unknown): Omit<NodeUsage, 'points'> {
  const status = (node as { status?: { capacity?: unknown; allocatable?: unknown } } | undefined)?.status;
  const out: Omit<NodeUsage, 'points'> = {};
  if (status?.capacity) out.capacity = bound(status.capacity);
  if (status?.allocatable) out.allocatable = bound(status.allocatable);
  return out;
}

/**
 * The last whole copy of an object the change history holds (its first sight, every Nth change or
 * its deletion), or undefined: what a usage read shows of a pod or node the cluster no longer has.
 */
export async function lastRecordedObject(
  source: RecordedSource,
  resourceType: string,
  namespace: string,
  name: string,
): Promise<unknown> {
  const row = await source.db.get<{ object: string }>(
    `SELECT object FROM change_history
      WHERE cluster_id = $cluster AND resource_type = $type AND namespace = $namespace AND name = $name
        AND object IS NOT NULL AND time_ms <= $until
      ORDER BY time_ms DESC, id DESC LIMIT 1`,
    {
      cluster: source.clusterId,
      type: resourceType,
      namespace,
      name,
      until: source.asOfMs ?? Number.MAX_SAFE_INTEGER,
    },
  );
  return row ? (JSON.parse(row.object) as unknown) : undefined;
}

/** The OOM kills the kept logs of a pod's dead containers name. */
export async function keptOomKills(
  source: RecordedSource,
  namespace: string,
  pod: string,
): Promise<OomKill[]> {
  const rows = await source.db.all<{ container: string; finished_ms: number }>(
    `SELECT container, finished_ms FROM kept_logs
      WHERE cluster_id = $cluster AND namespace = $namespace AND pod = $pod AND reason = 'OOMKilled'
        AND finished_ms <= $until
      ORDER BY finished_ms`,
    { cluster: source.clusterId, namespace, pod, until: source.asOfMs ?? Number.MAX_SAFE_INTEGER },
  );
  return rows.map((r) => ({ container: r.container, ms: r.finished_ms }));
}
