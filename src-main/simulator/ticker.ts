/**
 * Keeps the demo cluster alive: log lines for running containers someone has looked at,
 * crash loops that actually loop, an OOM kill now and then, recurring events counting up
 * and metrics drifting. Every object change goes through the store, so watches see it.
 */

import type { Crasher, RecurringEvent } from './demo-data';
import type { MetricsSource } from './metrics';
import { currentRunRef } from './pod-lifecycle';
import type { SimStore } from './store';
import type { Pod } from './types';

export interface TickerDeps {
  store: SimStore;
  metrics: MetricsSource;
  crashers: Crasher[];
  recurring: RecurringEvent[];
}

// How many ticks a crash-looping container stays in each phase.
const CRASH_RUNNING_TICKS = 3;
const CRASH_WAITING_TICKS = 5;
const OOM_EVERY_TICKS = 45;

export class Ticker {
  private tickCount = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly phaseSince = new Map<string, number>();

  constructor(private readonly deps: TickerDeps) {}

  start(intervalMs: number): void {
    this.stop();
    this.timer = setInterval(() => this.tick(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One step of simulated life; public so tests can drive it without timers. */
  tick(): void {
    this.tickCount++;
    this.deps.metrics.tick = this.tickCount;
    this.emitLogs();
    for (const c of this.deps.crashers) this.advanceCrasher(c);
    for (const r of this.deps.recurring) {
      if (this.tickCount % r.everyTicks === 0) this.deps.store.bumpEvent(r.namespace, r.name);
    }
  }

  private emitLogs(): void {
    const { store } = this.deps;
    const source = store.logs.source;
    if (!source) return;
    const now = store.now();
    for (const run of [...store.logs.liveRuns()]) {
      const text = source.nextLine(run.ref, now);
      if (text !== undefined) store.logs.append(run, text, now);
    }
  }

  private advanceCrasher(c: Crasher): void {
    const { store } = this.deps;
    const pod = store.peek('pods', c.namespace, c.pod) as Pod | undefined;
    const status = pod?.status.containerStatuses?.find((s) => s.name === c.container);
    if (!pod || !status) return;
    const key = `${c.namespace}/${c.pod}/${c.container}`;
    const since = this.phaseSince.get(key) ?? this.tickCount - 1;
    const age = this.tickCount - since;
    try {
      if (status.state.waiting?.reason === 'CrashLoopBackOff' && age >= CRASH_WAITING_TICKS) {
        store.startContainer(c.namespace, c.pod, c.container);
        this.phaseSince.set(key, this.tickCount);
        this.lifecycleEvents(pod, c.container);
        // Materialise the new instance's log so the ticker keeps writing to it.
        const fresh = store.peek('pods', c.namespace, c.pod) as Pod;
        const freshStatus = fresh.status.containerStatuses?.find((s) => s.name === c.container);
        const ref = freshStatus ? currentRunRef(fresh, freshStatus) : undefined;
        if (ref) store.logs.run(ref);
      } else if (status.state.running) {
        const due = c.mode === 'crashloop' ? age >= CRASH_RUNNING_TICKS : age >= OOM_EVERY_TICKS;
        if (!due) return;
        const oom = c.mode === 'oom';
        store.terminateContainer(
          c.namespace,
          c.pod,
          c.container,
          oom ? { exitCode: 137, reason: 'OOMKilled' } : { exitCode: 1, reason: 'Error' },
        );
        this.phaseSince.set(key, this.tickCount);
        this.record(pod, 'BackOff');
        if (oom) this.record(pod, 'OOMKilled');
      }
    } catch {
      // A test may have reshaped or deleted the pod; the ticker just skips it.
    }
  }

  private lifecycleEvents(pod: Pod, container: string): void {
    for (const reason of ['Pulled', 'Created', 'Started']) this.record(pod, reason, container);
  }

  /** Counts one more occurrence of the pod's existing event with this reason, if any. */
  private record(pod: Pod, reason: string, container?: string): void {
    const { store } = this.deps;
    const ns = pod.metadata.namespace ?? '';
    const prefix = `${pod.metadata.name}.`;
    const table = store.table('events');
    const [start, end] = table.range(ns);
    let i = table.lowerBound(`${ns}/${prefix}`);
    for (i = Math.max(i, start); i < end; i++) {
      const key = table.keyAt(i) as string;
      if (!key.startsWith(`${ns}/${prefix}`)) break;
      const ev = table.at(i) as { reason?: string; involvedObject?: { fieldPath?: string } } | undefined;
      if (ev?.reason !== reason) continue;
      if (
        container &&
        ev.involvedObject?.fieldPath &&
        !ev.involvedObject.fieldPath.includes(`{${container}}`)
      )
        continue;
      store.bumpEvent(ns, key.slice(ns.length + 1));
      return;
    }
  }
}
