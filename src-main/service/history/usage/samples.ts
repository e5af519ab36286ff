/**
 * metrics.k8s.io answers as usage sample rows, and the merge of many samples into one point.
 *
 * Rules: pure functions of their input. Figures are millicores and bytes (cpu rounded to
 * thousandths of a millicore, memory to whole bytes); a container whose figures do not parse is
 * left out rather than written as 0, and an item without a name or without any readable container
 * is no row. A node's one entry is named after the node. Merging keeps CPU's mean (a rate: the
 * mean over 5 minutes is what it used) and memory's maximum (a level: the peak is what an OOM
 * kill answers to), per container, over the samples that hold that container.
 */
import { parseQuantity } from '../../../../src-shared/kube/quantity';

export interface UsageFigures {
  cpuMillicores: number;
  memoryBytes: number;
}

/** Usage by container name (a node: one entry, named after the node). */
export type ContainerUsage = Record<string, UsageFigures>;

export type UsageSubject = 'pod' | 'node';

export interface SampleRow {
  subject: UsageSubject;
  /** '' for a node. */
  namespace: string;
  name: string;
  containers: ContainerUsage;
}

interface MetricsUsage {
  cpu?: unknown;
  memory?: unknown;
}

interface MetricsItem {
  metadata?: { name?: unknown; namespace?: unknown };
  containers?: unknown;
  usage?: MetricsUsage;
}

/** One usage figure pair, or undefined when either does not parse (or is negative). */
export function figures(usage: MetricsUsage | undefined): UsageFigures | undefined {
  const cores = typeof usage?.cpu === 'string' ? parseQuantity(usage.cpu) : Number.NaN;
  const bytes = typeof usage?.memory === 'string' ? parseQuantity(usage.memory) : Number.NaN;
  if (!(cores >= 0) || !(bytes >= 0)) return undefined;
  return { cpuMillicores: Math.round(cores * 1e6) / 1e3, memoryBytes: Math.round(bytes) };
}

function itemsOf(list: unknown): MetricsItem[] {
  const items = (list as { items?: unknown } | null | undefined)?.items;
  return Array.isArray(items) ? (items as MetricsItem[]) : [];
}

/** A PodMetricsList as one row per pod with at least one readable container. */
export function podRows(list: unknown): SampleRow[] {
  const rows: SampleRow[] = [];
  for (const item of itemsOf(list)) {
    const { name, namespace } = item.metadata ?? {};
    if (typeof name !== 'string' || typeof namespace !== 'string' || !Array.isArray(item.containers))
      continue;
    const containers: ContainerUsage = {};
    for (const c of item.containers as { name?: unknown; usage?: MetricsUsage }[]) {
      const f = figures(c?.usage);
      if (typeof c?.name === 'string' && f) containers[c.name] = f;
    }
    if (Object.keys(containers).length > 0) rows.push({ subject: 'pod', namespace, name, containers });
  }
  return rows;
}

/** A NodeMetricsList as one row per node whose figures parse. */
export function nodeRows(list: unknown): SampleRow[] {
  const rows: SampleRow[] = [];
  for (const item of itemsOf(list)) {
    const name = item.metadata?.name;
    const f = figures(item.usage);
    if (typeof name === 'string' && f)
      rows.push({ subject: 'node', namespace: '', name, containers: { [name]: f } });
  }
  return rows;
}

/** Many samples of one series as one point: CPU's mean and memory's maximum, per container. */
export function mergeSamples(samples: readonly ContainerUsage[]): ContainerUsage {
  const sums = new Map<string, { cpu: number; n: number; memory: number }>();
  for (const sample of samples) {
    for (const [name, f] of Object.entries(sample)) {
      const s = sums.get(name);
      if (s) {
        s.cpu += f.cpuMillicores;
        s.n += 1;
        s.memory = Math.max(s.memory, f.memoryBytes);
      } else sums.set(name, { cpu: f.cpuMillicores, n: 1, memory: f.memoryBytes });
    }
  }
  const merged: ContainerUsage = {};
  for (const [name, s] of sums)
    merged[name] = { cpuMillicores: Math.round((s.cpu / s.n) * 1e3) / 1e3, memoryBytes: s.memory };
  return merged;
}
