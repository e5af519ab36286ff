/**
 * What Skiff records of a cluster beyond its events (issue 27), as the rest of the service sees
 * it: the hooks the resource caches are observed through, and one slot per feature — object
 * changes (changes/), usage samples (usage/), the logs of dead containers (kept-logs/) — which
 * the diagnosis (diagnosis/) and the snapshot capture read.
 *
 * Rules: each feature owns its folder, its table (storage migration 8) and its options; it is
 * created in createService after the storage and before the registry, registers its recorder on
 * `hooks` there, and is closed by `close()` (features close in reverse order of creation). A
 * snapshot's recorded data is read from its file, never recorded into the app's database.
 */
import type { Logger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import type { ChangeHistory } from './changes/index';
import { RecordingHooks } from './hooks';
import type { KeptLogs } from './kept-logs/index';
import type { UsageHistory } from './usage/index';

export interface RecordedFeature {
  /** Stops timers and writes what is pending; called once, at the service's close. */
  close(): Promise<void>;
}

export class Recorded {
  readonly hooks: RecordingHooks;
  /** Object changes (changes/): which clusters are recorded, flush/version for reads; absent until createService makes it. */
  changes?: ChangeHistory;
  /** The logs of dead containers of recorded clusters (kept-logs/); absent until createService makes it. */
  keptLogs?: KeptLogs;
  /** Usage samples of recorded clusters (usage/); absent until createService makes it. */
  usage?: UsageHistory;
  private readonly features: RecordedFeature[] = [];

  constructor(
    readonly deps: {
      backend: StorageBackend;
      logger: Logger;
      now: () => number;
    },
  ) {
    this.hooks = new RecordingHooks(deps.logger);
  }

  /** Registers a feature to be closed with the service; answers it. */
  own<F extends RecordedFeature>(feature: F): F {
    this.features.push(feature);
    return feature;
  }

  async close(): Promise<void> {
    for (const f of [...this.features].reverse()) {
      try {
        await f.close();
      } catch (err) {
        this.deps.logger.error({ err }, 'a recorder did not close cleanly');
      }
    }
  }
}
