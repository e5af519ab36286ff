/**
 * The demo cluster's LogSource: turns a container instance (RunRef) into lines using the app's
 * profile. The backlog of a run is a pure function of (seed, container ID, start, end), so a
 * log read now and the same log read later agree on everything they both cover.
 */

import type { LogLine, LogSource, RunRef } from '../logs';
import { hash32, Rng } from '../random';
import type { Msg } from './log-formats';
import { type LogProfile, type LogProfileId, PROFILES, type RunContext, renderMsg } from './log-profiles';

const DEFAULT_BACKLOG = 400;

export class DemoLogSource implements LogSource {
  private readonly live = new Map<string, Rng>();

  constructor(
    private readonly seed: number,
    private readonly profiles: Map<string, LogProfileId>,
  ) {}

  /** Gives a container made after the demo was built (bad-rollout.ts) the lines of a profile. */
  assign(namespace: string, pod: string, container: string, profile: LogProfileId): void {
    this.profiles.set(`${namespace}/${pod}/${container}`, profile);
  }

  private profileFor(ref: RunRef): LogProfile | undefined {
    const id = this.profiles.get(`${ref.namespace}/${ref.pod}/${ref.container}`);
    return id ? PROFILES[id] : undefined;
  }

  private ctx(ref: RunRef): RunContext {
    return {
      namespace: ref.namespace,
      pod: ref.pod,
      container: ref.container,
      restartIndex: ref.restartIndex,
    };
  }

  backlog(ref: RunRef, until: number): LogLine[] {
    const profile = this.profileFor(ref);
    if (!profile) return [];
    const rng = new Rng(hash32(ref.containerId, this.seed));
    const ctx = this.ctx(ref);
    const lines: LogLine[] = [];
    const push = (ts: number, msg: Msg) => {
      lines.push({ ts, nanos: rng.int(0, 999_999), text: renderMsg(profile, ts, msg) });
    };
    let ts = ref.startedAt;
    for (const msg of profile.startup(ctx, ts)) {
      push(ts, msg);
      ts += rng.int(3, 250);
    }
    const limit = profile.maxBacklog ?? DEFAULT_BACKLOG;
    const maxSteady = profile.maxSteady ?? Number.POSITIVE_INFINITY;
    // Long runs only keep their most recent lines, like a rotated container log.
    const steadyStart = Math.max(ts + profile.intervalMs / 2, until - limit * profile.intervalMs);
    let steady = 0;
    for (let t = steadyStart; t < until && steady < maxSteady; steady++) {
      push(Math.floor(t), profile.steady(rng, Math.floor(t), ctx));
      t += profile.intervalMs * (0.5 + rng.next());
    }
    if (ref.finishedAt !== undefined) {
      for (const msg of profile.exit(ctx, ref.exitCode ?? 0, ref.finishedAt)) push(ref.finishedAt, msg);
    }
    return lines;
  }

  nextLine(ref: RunRef, now: number): string | undefined {
    const profile = this.profileFor(ref);
    if (!profile) return undefined;
    let rng = this.live.get(ref.containerId);
    if (!rng) {
      rng = new Rng(hash32(`live:${ref.containerId}`, this.seed));
      this.live.set(ref.containerId, rng);
    }
    if (!rng.chance(profile.tickChance)) return undefined;
    return renderMsg(profile, now, profile.steady(rng, now, this.ctx(ref)));
  }

  exitLines(ref: RunRef, exitCode: number, now: number): string[] {
    const profile = this.profileFor(ref);
    if (!profile) return [];
    return profile.exit(this.ctx(ref), exitCode, now).map((m) => renderMsg(profile, now, m));
  }
}
