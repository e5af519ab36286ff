/**
 * Keeps the demo cluster alive: log lines for running containers someone has looked at,
 * crash loops that actually loop, an OOM kill now and then, recurring events counting up
 * and metrics drifting. Every object change goes through the store, so watches see it.
 */

import type { Crasher, RecurringEvent } from './content';
import type { MetricsSource } from './metrics';
import { currentRunRef } from './pod-lifecycle';
import type { SimStore } from './store';
import type { CoreEvent, Pod } from './types';

interface TickerDeps {
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

  /** Crash-loops these containers too from the next tick (a scenario's new pods). */
  addCrashers(crashers: readonly Crasher[]): void {
    this.deps.crashers.push(...crashers);
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
    if (this.tickCount % BLIP_EVERY_TICKS === 0) this.blip();
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
    let since = this.phaseSince.get(key);
    if (since === undefined) {
      since = this.tickCount - 1;
      this.phaseSince.set(key, since);
    }
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

  /**
   * Records one occurrence the way the kubelet's event correlator does: an event with the
   * same reason seen in the last ten minutes gets count++, otherwise a new event is created.
   */
  private record(pod: Pod, reason: string, container = pod.spec.containers[0]?.name ?? ''): void {
    const { store } = this.deps;
    const ns = pod.metadata.namespace ?? '';
    const now = store.now();
    const recent = this.findEvent(ns, pod.metadata.name, reason, container);
    if (recent && now - lastSeen(recent) < CORRELATION_WINDOW_MS) {
      store.bumpEvent(ns, recent.metadata.name);
      return;
    }
    const node = pod.spec.nodeName ?? '';
    store.addEvent({
      involvedObject: {
        kind: 'Pod',
        namespace: ns,
        name: pod.metadata.name,
        uid: pod.metadata.uid,
        apiVersion: 'v1',
        resourceVersion: pod.metadata.resourceVersion,
        fieldPath: `spec.containers{${container}}`,
      },
      reason,
      message: recent?.message ?? defaultMessage(pod, reason, container),
      type: WARNING_REASONS.has(reason) ? 'Warning' : 'Normal',
      source: { component: 'kubelet', host: node },
      reportingComponent: 'kubelet',
      reportingInstance: node,
    });
  }

  private findEvent(ns: string, podName: string, reason: string, container: string): CoreEvent | undefined {
    const table = this.deps.store.table('events');
    const prefix = `${ns}/${podName}.`;
    const [, end] = table.range(ns);
    let found: CoreEvent | undefined;
    for (let i = table.lowerBound(prefix); i < end; i++) {
      if (!(table.keyAt(i) as string).startsWith(prefix)) break;
      const ev = table.at(i) as CoreEvent | undefined;
      if (ev?.reason !== reason) continue;
      const path = ev.involvedObject.fieldPath;
      if (path && !path.includes(`{${container}}`)) continue;
      if (!found || lastSeen(ev) > lastSeen(found)) found = ev;
    }
    return found;
  }

  /** A healthy pod's readiness probe times out now and then: new events keep appearing. */
  private blip(): void {
    const pods = this.deps.store.list('pods', 'shop') as Pod[];
    const running = pods.filter((p) => p.status.phase === 'Running');
    const pod = running[Math.floor(this.tickCount / BLIP_EVERY_TICKS) % Math.max(1, running.length)];
    if (pod) this.record(pod, 'Unhealthy');
  }
}

const CORRELATION_WINDOW_MS = 10 * 60 * 1000;
const BLIP_EVERY_TICKS = 12;
const WARNING_REASONS = new Set(['BackOff', 'Unhealthy', 'OOMKilled', 'Failed', 'FailedMount']);

function lastSeen(ev: CoreEvent): number {
  const t = ev.series?.lastObservedTime ?? ev.lastTimestamp ?? ev.eventTime ?? ev.metadata.creationTimestamp;
  return Date.parse(t);
}

function defaultMessage(pod: Pod, reason: string, container: string): string {
  const image = pod.spec.containers.find((c) => c.name === container)?.image ?? '';
  switch (reason) {
    case 'Pulled':
      return `Container image "${image}" already present on machine`;
    case 'Created':
      return `Created container: ${container}`;
    case 'Started':
      return `Started container ${container}`;
    case 'BackOff':
      return `Back-off restarting failed container ${container} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
    case 'OOMKilled':
      return `Container ${container} was OOM-killed (exit code 137)`;
    case 'Unhealthy':
      return `Readiness probe failed: Get "http://${String(pod.status.podIP ?? '10.244.1.2')}:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`;
    default:
      return reason;
  }
}
