/**
 * Container log buffers, one per container instance (container ID), the way the kubelet keeps
 * a file per instance: a restart starts a new buffer and the old one becomes "previous".
 * Buffers are generated lazily on first read so ten thousand pods cost nothing until someone
 * asks for their logs; after that the ticker and appendLog() extend them.
 */

export interface LogLine {
  /** Milliseconds since the epoch. */
  ts: number;
  /** Sub-millisecond part of the CRI timestamp, 0..999999 ns. */
  nanos: number;
  text: string;
}

export interface RunRef {
  namespace: string;
  pod: string;
  container: string;
  containerId: string;
  startedAt: number;
  /** Set when the instance has exited. */
  finishedAt?: number;
  exitCode?: number;
  /** How many instances of this container ran before this one. */
  restartIndex: number;
}

/** Supplies the content of a run: the backlog on first read and new lines as time passes. */
export interface LogSource {
  backlog(ref: RunRef, now: number): LogLine[];
  nextLine(ref: RunRef, now: number): string | undefined;
  /** Last words of an instance that is exiting while someone has its log open. */
  exitLines(ref: RunRef, exitCode: number, now: number): string[];
  /**
   * True when the backlog is all there will ever be (a snapshot's captured lines): every run is
   * then over, so a follow ends once its backlog is sent.
   */
  readonly final?: boolean;
}

type LogFollower = (line: LogLine | null) => void;

export interface LogRun {
  ref: RunRef;
  lines: LogLine[];
  ended: boolean;
  followers: Set<LogFollower>;
}

const MAX_LINES_PER_RUN = 20_000;

export class LogStore {
  private readonly runs = new Map<string, Map<string, LogRun>>();
  source: LogSource | undefined;

  constructor(private readonly now: () => number) {}

  /** The run for a container instance, generating its backlog on first access. */
  run(ref: RunRef): LogRun {
    const key = containerKey(ref.namespace, ref.pod, ref.container);
    let byId = this.runs.get(key);
    if (!byId) {
      byId = new Map();
      this.runs.set(key, byId);
    }
    let run = byId.get(ref.containerId);
    if (!run) {
      const until = ref.finishedAt ?? this.now();
      run = {
        ref,
        lines: this.source?.backlog(ref, until) ?? [],
        ended: ref.finishedAt !== undefined || this.source?.final === true,
        followers: new Set(),
      };
      byId.set(ref.containerId, run);
      // The kubelet keeps only the current and the previous instance.
      while (byId.size > 2) {
        const oldest = byId.keys().next().value;
        if (oldest === undefined) break;
        byId.delete(oldest);
      }
    }
    return run;
  }

  /** The run if it was already materialised; never generates. */
  peek(namespace: string, pod: string, container: string, containerId: string): LogRun | undefined {
    return this.runs.get(containerKey(namespace, pod, container))?.get(containerId);
  }

  /** Materialised runs of running containers; the ticker extends these. */
  *liveRuns(): IterableIterator<LogRun> {
    for (const byId of this.runs.values()) {
      for (const run of byId.values()) if (!run.ended) yield run;
    }
  }

  append(run: LogRun, text: string, ts = this.now()): LogLine {
    const line: LogLine = { ts, nanos: (run.lines.length * 7919 + 104729) % 1_000_000, text };
    run.lines.push(line);
    if (run.lines.length > MAX_LINES_PER_RUN) run.lines.splice(0, run.lines.length - MAX_LINES_PER_RUN);
    for (const follower of run.followers) follower(line);
    return line;
  }

  /** The instance exited: followers see the end of the stream, as with the kubelet. */
  end(run: LogRun, finishedAt: number, exitCode: number): void {
    if (run.ended) return;
    run.ended = true;
    run.ref = { ...run.ref, finishedAt, exitCode };
    for (const follower of run.followers) follower(null);
    run.followers.clear();
  }

  endAll(namespace: string, pod: string): void {
    const prefix = `${namespace}/${pod}/`;
    for (const [key, byId] of this.runs) {
      if (!key.startsWith(prefix)) continue;
      for (const run of byId.values()) {
        for (const follower of run.followers) follower(null);
        run.followers.clear();
      }
      this.runs.delete(key);
    }
  }

  /** Closes every follow stream (server shutdown). */
  closeFollowers(): void {
    for (const byId of this.runs.values()) {
      for (const run of byId.values()) {
        for (const follower of run.followers) follower(null);
        run.followers.clear();
      }
    }
  }
}

function containerKey(namespace: string, pod: string, container: string): string {
  return `${namespace}/${pod}/${container}`;
}
