import { compareTsText } from '../../../src-shared/logs/index';
import type { LogEntry } from '../../../src-shared/logs/types';

/** Beyond this many lines in one second the overlap is no longer remembered (a few may repeat). */
const MAX_REMEMBERED = 200_000;

/**
 * Makes a reconnect seamless. A follow that resumes asks the kubelet for `sinceTime` = the start
 * of the second of the last line delivered (the apiserver passes sinceTime on at whole seconds,
 * whatever precision we send), so everything already delivered within that second comes back.
 * Those lines are recognised by the kubelet's nanosecond timestamp text plus the line itself,
 * counted as a multiset: two identical lines stamped alike are both kept, and the order of the
 * nanoseconds within a second does not matter. Anything earlier than the resume point is
 * dropped by compareTsText; anything later is new.
 */
export class Dedupe {
  private second = Number.NaN;
  private secondText: string | undefined;
  private readonly seen = new Map<string, number>();
  private remembered = 0;
  private replay: Map<string, number> | null = null;

  /** sinceTime for a resumed request, or undefined when nothing was delivered yet. */
  resumeSince(): string | undefined {
    return this.secondText;
  }

  /** Call before reading a resumed request: its lines within the overlap are checked against what was sent. */
  beginReplay(): void {
    this.replay = this.secondText === undefined ? null : new Map(this.seen);
  }

  /** Forget everything (a new container instance starts its own timeline). */
  reset(): void {
    this.second = Number.NaN;
    this.secondText = undefined;
    this.seen.clear();
    this.remembered = 0;
    this.replay = null;
  }

  /** True when `entry` was already delivered; otherwise records it as delivered. */
  check(entry: LogEntry): boolean {
    const { ts, tsText } = entry;
    if (ts === undefined || tsText === undefined) return false;
    const second = Math.floor(ts / 1000) * 1000;
    if (this.replay !== null) {
      if (this.secondText !== undefined && compareTsText(tsText, this.secondText) < 0) return true;
      if (second === this.second) {
        const key = `${tsText}\u0000${entry.raw}`;
        const left = this.replay.get(key) ?? 0;
        if (left > 0) {
          this.replay.set(key, left - 1);
          return true;
        }
      } else if (second > this.second) {
        this.replay = null;
      }
    }
    this.record(second, tsText, entry.raw);
    return false;
  }

  private record(second: number, tsText: string, raw: string): void {
    if (second !== this.second) {
      this.second = second;
      this.secondText = `${new Date(second).toISOString().slice(0, 19)}Z`;
      this.seen.clear();
      this.remembered = 0;
    }
    if (this.remembered >= MAX_REMEMBERED) return;
    this.remembered++;
    const key = `${tsText}\u0000${raw}`;
    this.seen.set(key, (this.seen.get(key) ?? 0) + 1);
  }
}
