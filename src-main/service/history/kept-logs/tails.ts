/**
 * The last lines of the containers whose logs someone follows through Skiff, so that a pod deleted
 * while followed keeps its last lines (issue 27 §3): the kubelet drops a deleted pod's logs, and
 * the stream Skiff already reads is the only copy left.
 *
 * Rules: cheap and bounded. Each followed container holds at most `lines` raw kubelet lines of
 * its current run (a new run starts an empty tail); at most MAX_TAILS containers are held (the one
 * touched longest ago goes first); a tail whose last follower ended is dropped GRACE_MS later, which
 * leaves the pod's DELETED watch event time to arrive and take it. Lines are kept as the kubelet
 * sent them (with their timestamps), never parsed here.
 */

export interface TailTarget {
  namespace: string;
  pod: string;
  container: string;
}

/** One follower's handle on a container's tail. */
export interface TailHandle {
  /** Lines of run `instance` (its container ID), as the kubelet sent them. */
  push(instance: string | undefined, lines: readonly string[]): void;
  /** The follow ended (once). */
  end(): void;
}

export interface TakenTail {
  instance: string | undefined;
  lines: string[];
}

interface Tail {
  instance: string | undefined;
  lines: string[];
  followers: number;
  endedAt: number | undefined;
  touched: number;
}

export const MAX_TAILS = 1_000;
export const GRACE_MS = 120_000;

const keyOf = (clusterId: string, t: TailTarget) => `${clusterId}\n${t.namespace}\n${t.pod}\n${t.container}`;

export class FollowedTails {
  private readonly tails = new Map<string, Tail>();

  constructor(
    private readonly opts: { lines: number; now?: () => number; maxTails?: number; graceMs?: number },
  ) {}

  private get now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** A follower of `target` on `clusterId` starts. */
  follow(clusterId: string, target: TailTarget): TailHandle {
    const key = keyOf(clusterId, target);
    this.sweep();
    let tail = this.tails.get(key);
    if (!tail) {
      tail = { instance: undefined, lines: [], followers: 0, endedAt: undefined, touched: this.now };
      this.tails.set(key, tail);
      this.bound();
    }
    tail.followers += 1;
    tail.endedAt = undefined;
    const held = tail;
    let ended = false;
    return {
      push: (instance, lines) => {
        if (lines.length === 0) return;
        if (held.instance !== instance) {
          held.instance = instance;
          held.lines = [];
        }
        held.lines.push(...lines);
        const over = held.lines.length - this.opts.lines;
        if (over > 0) held.lines.splice(0, over);
        held.touched = this.now;
      },
      end: () => {
        if (ended) return;
        ended = true;
        held.followers -= 1;
        if (held.followers === 0) held.endedAt = this.now;
      },
    };
  }

  /** The tail of `target` (and forgets it), or undefined when nobody followed it lately. */
  take(clusterId: string, target: TailTarget): TakenTail | undefined {
    this.sweep();
    const key = keyOf(clusterId, target);
    const tail = this.tails.get(key);
    if (!tail || tail.lines.length === 0) return undefined;
    if (tail.followers === 0) this.tails.delete(key);
    return { instance: tail.instance, lines: [...tail.lines] };
  }

  /** How many containers have a tail held (for tests and the bounds). */
  get size(): number {
    return this.tails.size;
  }

  private sweep(): void {
    const now = this.now;
    const grace = this.opts.graceMs ?? GRACE_MS;
    for (const [key, tail] of this.tails)
      if (tail.endedAt !== undefined && now - tail.endedAt > grace) this.tails.delete(key);
  }

  private bound(): void {
    const max = this.opts.maxTails ?? MAX_TAILS;
    while (this.tails.size > max) {
      let oldest: [string, Tail] | undefined;
      for (const entry of this.tails) if (!oldest || entry[1].touched < oldest[1].touched) oldest = entry;
      this.tails.delete(oldest![0]);
    }
  }
}
