/**
 * How what Skiff records beyond events (issue 27: object changes, the logs of dead containers)
 * hears a cluster's resource caches. Each recorder registers once; every resource cache of a live
 * cluster then gets one observer per recorder that wants its kind.
 *
 * Rules: a snapshot's caches are never observed (cluster-caches.ts asks only for live clusters);
 * a recorder that throws is logged and the others still hear the change, because a bug in one
 * recorder must not stop a cache or another recorder; a cache is kept running by the idle sweep
 * while any recorder says it keeps watching it.
 */

import type { ResourceEntry } from '../cache/entries';
import type { CacheObserver } from '../cache/resource-cache';
import type { ResourceRecording } from '../clusters/cluster-caches';
import type { KindInfo } from '../clusters/kind-info';
import type { Logger } from '../logger';

/** One party that records from resource caches (history/changes, history/kept-logs). */
export interface ResourceRecorder {
  readonly name: string;
  /** The observer of a new cache of `kind` on a live cluster, or undefined when it does not record that kind. */
  observer(clusterId: string, kind: KindInfo): CacheObserver<ResourceEntry> | undefined;
  /** True while the cache of `kind` must keep its watch when nobody reads it. */
  keepsWatching(clusterId: string, kind: KindInfo): boolean;
}

export class RecordingHooks implements ResourceRecording {
  private readonly recorders: ResourceRecorder[] = [];
  /** Live clusters some resource cache was made for: "viewed" for `--record-changes viewed`. */
  private readonly viewed = new Set<string>();
  private readonly viewedListeners: ((clusterId: string) => void)[] = [];

  constructor(private readonly logger: Logger) {}

  add(recorder: ResourceRecorder): void {
    this.recorders.push(recorder);
  }

  /** True once a resource cache of the live cluster was made (someone read it). */
  wasViewed(clusterId: string): boolean {
    return this.viewed.has(clusterId);
  }

  /** Calls `listener` the first time each live cluster is viewed. */
  onViewed(listener: (clusterId: string) => void): void {
    this.viewedListeners.push(listener);
  }

  observer(clusterId: string, kind: KindInfo): CacheObserver<ResourceEntry> | undefined {
    if (!this.viewed.has(clusterId)) {
      this.viewed.add(clusterId);
      for (const l of this.viewedListeners) {
        try {
          l(clusterId);
        } catch (err) {
          this.logger.error({ err, clusterId }, 'a recorder failed on a newly viewed cluster');
        }
      }
    }
    const found: { name: string; o: CacheObserver<ResourceEntry> }[] = [];
    for (const r of this.recorders) {
      const o = r.observer(clusterId, kind);
      if (o) found.push({ name: r.name, o });
    }
    if (found.length === 0) return undefined;
    const each = (what: string, call: (o: CacheObserver<ResourceEntry>) => void) => {
      for (const { name, o } of found) {
        try {
          call(o);
        } catch (err) {
          this.logger.error({ err, recorder: name, clusterId, kind: kind.plural, what }, 'a recorder failed');
        }
      }
    };
    return {
      upserted: (entry, previous) => each('upserted', (o) => o.upserted(entry, previous)),
      removed: (key, previous) => each('removed', (o) => o.removed(key, previous)),
      listed: (entries) => each('listed', (o) => o.listed(entries)),
      stopped: () => each('stopped', (o) => o.stopped()),
    };
  }

  keepsWatching(clusterId: string, kind: KindInfo): boolean {
    return this.recorders.some((r) => r.keepsWatching(clusterId, kind));
  }
}
