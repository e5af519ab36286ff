/**
 * What the usage tests share: a SampledCluster reading the simulator over real HTTP (its token,
 * bounded by the timeout given), a sampler on a test backend, and a logger whose lines a test reads.
 */

import type { Simulator } from '@skiff/kube-simulator';
import { DEFAULT_TOKEN } from '@skiff/kube-simulator';
import { pino } from 'pino';
import type { Logger } from '../../logger';
import type { StorageBackend } from '../../storage/backend';
import { resolveUsageOptions, type UsageOptions } from './options';
import { type SampledCluster, UsageSampler } from './sampler';

export const simCluster = (sim: Simulator, clusterId = 'sim', frozen?: unknown): SampledCluster => ({
  clusterId,
  ...(frozen !== undefined ? { frozen } : {}),
  timeoutMs: 5_000,
  client: {
    async getJson<T>(path: string, opts: { timeoutMs: number }): Promise<T> {
      const res = await fetch(`${sim.url}${path}`, {
        headers: { authorization: `Bearer ${DEFAULT_TOKEN}` },
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status}`);
      return (await res.json()) as T;
    },
  },
});

export function capturingLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (s: string) => lines.push(JSON.parse(s)) });
  return { logger, lines };
}

export function sampler(
  backend: StorageBackend,
  clusters: () => readonly SampledCluster[],
  opts: {
    options?: UsageOptions;
    isRecorded?: (id: string) => boolean;
    now?: () => number;
    logger?: Logger;
  } = {},
): UsageSampler {
  return new UsageSampler({
    backend,
    options: resolveUsageOptions({ intervalMs: 30_000, ...opts.options }),
    clusters,
    isRecorded: opts.isRecorded ?? (() => true),
    logger: opts.logger ?? pino({ level: 'silent' }),
    now: opts.now ?? Date.now,
  });
}

/** Every row of the table, ordered, with containers parsed. */
export async function allRows(backend: StorageBackend) {
  const rows = await backend.all<{
    cluster_id: string;
    subject: string;
    namespace: string;
    name: string;
    time_ms: number;
    resolution_ms: number;
    containers: string;
  }>('SELECT * FROM usage_samples ORDER BY cluster_id, subject, namespace, name, time_ms');
  return rows.map((r) => ({ ...r, containers: JSON.parse(r.containers) as Record<string, unknown> }));
}
