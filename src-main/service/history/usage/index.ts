/**
 * Usage over time (issue 27 §2) as the rest of the service sees it: the sampler of recorded
 * clusters (slot `recorded.usage`) and the series reads the usage endpoints answer.
 *
 * Rules: reads take a RecordedSource (history/source.ts), so a snapshot answers from its own
 * tables and never past its takenAt; with `--usage-interval off` nothing is sampled but what was
 * recorded is still read. Closed with the service (Recorded.own): timers stop, the tick in flight
 * ends, leases go back.
 */
import type { Logger } from '../../logger';
import type { StorageBackend } from '../../storage/backend';
import type { RecordedSource } from '../source';
import { type ResolvedUsageOptions, resolveUsageOptions, type UsageOptions } from './options';
import { type SampledCluster, UsageSampler } from './sampler';
import { readSeries, type Series, type SeriesRow } from './store';

export { parseUsageInterval, type UsageOptions } from './options';

/** A RecordedFeature (history/index.ts), by its shape: importing that module would make a cycle. */
export class UsageHistory {
  readonly options: ResolvedUsageOptions;
  readonly sampler: UsageSampler;

  constructor(deps: {
    backend: StorageBackend;
    options?: UsageOptions | undefined;
    clusters(): readonly SampledCluster[];
    isRecorded(clusterId: string): boolean;
    logger: Logger;
    now: () => number;
  }) {
    this.options = resolveUsageOptions(deps.options);
    this.sampler = new UsageSampler({ ...deps, options: this.options });
  }

  /** Starts sampling (after the registry exists: the first tick reads its clusters). */
  start(): void {
    this.sampler.start();
  }

  /** One series' rows within [sinceMs, untilMs], clamped to a snapshot's takenAt. */
  series(source: RecordedSource, series: Series, sinceMs: number, untilMs: number): Promise<SeriesRow[]> {
    const until = source.asOfMs === undefined ? untilMs : Math.min(untilMs, source.asOfMs);
    return readSeries(source.db, source.clusterId, series, sinceMs, until);
  }

  close(): Promise<void> {
    return this.sampler.close();
  }
}
