/**
 * Where a simulator's cluster comes from: the engine (store, watch, HTTP, discovery, tables, logs,
 * metrics) serves whatever a ContentProvider puts in its store, and knows nothing of any content.
 * Two providers ship: the demo cluster (demo/provider.ts), the default, and captured content
 * (captured.ts), a frozen cluster read lazily from someone's capture. Rules: a provider only fills
 * the store it is given and names its log source, metrics and simulated life; it never starts a
 * timer or a server (the simulator does, and stops them on close).
 */

import type { LogSource } from './logs';
import type { MetricsProvider } from './metrics';
import type { SimStore } from './store';

/** A container the ticker crash-loops or OOM-kills now and then. */
export interface Crasher {
  namespace: string;
  pod: string;
  container: string;
  mode: 'crashloop' | 'oom';
}

/** An event the ticker repeats (count++ / series++) every `everyTicks` ticks. */
export interface RecurringEvent {
  namespace: string;
  name: string;
  everyTicks: number;
}

/** What a provider hands back once the store holds (or will hold, on first read) its objects. */
export interface LoadedContent {
  /** Serves pods/log; none: every container's log is empty. */
  logSource?: LogSource;
  /** Serves metrics.k8s.io; default: metrics computed from the store's pods and nodes. */
  metrics?: MetricsProvider;
  /**
   * What ticks (`tickMs`, `sim.tick()`) animate besides logs and computed metrics; absent for a
   * frozen cluster, which the ticker then never starts on.
   */
  life?: { crashers: Crasher[]; recurring: RecurringEvent[] };
  /**
   * Named changes the content can make later, on demand (Simulator.runScenario, or
   * SimulatorOptions.scenarios after a delay): each changes the store and answers the containers
   * the ticker should crash-loop from then on.
   */
  scenarios?: Record<string, (store: SimStore) => Crasher[]>;
}

export interface ContentProvider {
  /** Fills `store` (store.load now, or store.defer per kind); `seed` and `now` are the simulator's. */
  load(store: SimStore, env: { seed: number; now: number }): LoadedContent;
}
