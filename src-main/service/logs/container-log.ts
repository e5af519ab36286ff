import { parseLogLine } from '../../../src-shared/logs/index';
import { ProblemError } from '../errors';
import type { Logger } from '../logger';
import { Dedupe } from './dedupe';
import { type LogEvent, markerEvent, sleep } from './events';
import { type KubeLogConnection, type KubeLogDeps, type KubeLogRequest, openKubeLog } from './kube-log';
import { type ContainerStatusLike, containerStatus, epochOf, type PodLike, servedInstance } from './pod';

/** A follower's share of a container's last lines (history/kept-logs/tails.ts). */
export interface TailKeeper {
  push(instance: string | undefined, lines: readonly string[]): void;
  end(): void;
}

export interface ContainerLogDeps extends KubeLogDeps {
  /** A fresh read of the pod; null when it no longer exists. */
  getPod(namespace: string, name: string, signal: AbortSignal): Promise<PodLike | null>;
  /** How often to look at the pod while a container waits to (re)start. */
  pollMs: number;
  logger: Logger;
  /** A followed container's lines are also handed here, so a deleted pod's last lines can be kept. */
  keepTail?: (target: ContainerTarget) => TailKeeper;
}

export interface ContainerTarget {
  namespace: string;
  pod: string;
  container: string;
}

export interface ContainerLogOptions {
  follow: boolean;
  previous: boolean;
  /** Epoch ms; the kubelet is asked from the start of that second, the filter does the rest. */
  since?: number;
  tailLines?: number;
}

/** Consecutive failed reconnects tolerated before the stream gives up with the last error. */
const MAX_RECONNECT_FAILURES = 8;
const EMPTY: KubeLogConnection = { next: async () => null, dropped: false, close: () => {} };

const secondText = (ms: number) => `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;

function isTransient(err: unknown): boolean {
  return !(err instanceof ProblemError) || err.status >= 500;
}

/**
 * The log of one container, followed across dropped connections and container restarts. After
 * a connection ends the pod is read again: the same instance still running means the connection
 * was lost, so it resumes from the last second delivered and the overlap is removed (Dedupe); a
 * different instance means a restart, so the tail of the old one is caught up (the kubelet keeps
 * it as "previous"), a `terminated` and a `restarted` marker go out, and the new instance is
 * followed from its first line. A container waiting in back-off is polled until it runs again.
 */
export class ContainerLog {
  private conn: KubeLogConnection = EMPTY;
  private instance: string | undefined;
  private readonly dedupe = new Dedupe();
  private readonly noted = new Set<string>();
  /** With follow and tailLines=0: only lines stamped after the request. */
  private skipBefore = Number.NEGATIVE_INFINITY;
  private tail: TailKeeper | undefined;

  constructor(
    private readonly deps: ContainerLogDeps,
    readonly target: ContainerTarget,
    private readonly opts: ContainerLogOptions,
    private readonly signal: AbortSignal,
  ) {}

  /** Opens the first request; a refusal is thrown here, before anything is streamed. */
  async open(pod: PodLike): Promise<void> {
    this.instance = servedInstance(containerStatus(pod, this.target.container));
    const { follow, previous, since, tailLines } = this.opts;
    if (tailLines === 0 && (!follow || previous)) return;
    let sinceTime = since === undefined ? undefined : secondText(since);
    if (tailLines === 0) {
      this.skipBefore = Date.now();
      sinceTime = secondText(this.skipBefore);
    }
    this.conn = await this.request({
      follow: follow && !previous,
      previous,
      ...(sinceTime ? { sinceTime } : {}),
      ...(tailLines ? { tailLines } : {}),
    });
    if (follow && !previous) this.tail = this.deps.keepTail?.(this.target);
  }

  async *batches(): AsyncGenerator<LogEvent[], void, undefined> {
    let conn: KubeLogConnection | null = this.conn;
    try {
      let quickEnds = 0;
      while (conn !== null) {
        const started = Date.now();
        let delivered = 0;
        for (let lines = await conn.next(); lines !== null; lines = await conn.next()) {
          const events = this.toEvents(lines);
          delivered += events.length;
          if (events.length > 0) yield events;
        }
        if (!this.opts.follow || this.opts.previous || this.signal.aborted) return;
        if (conn.dropped) this.deps.logger.debug({ target: this.target }, 'log connection dropped; resuming');
        quickEnds = delivered === 0 && Date.now() - started < 1000 ? quickEnds + 1 : 0;
        conn.close();
        conn = yield* this.resume(quickEnds);
        this.conn = conn ?? EMPTY;
      }
    } finally {
      conn?.close();
      this.tail?.end();
    }
  }

  private request(req: Omit<KubeLogRequest, 'namespace' | 'pod' | 'container'>): Promise<KubeLogConnection> {
    return openKubeLog(this.deps, { ...this.target, ...req }, this.signal);
  }

  private toEvents(lines: readonly string[]): LogEvent[] {
    const { pod, container } = this.target;
    const out: LogEvent[] = [];
    const kept: string[] = [];
    for (const line of lines) {
      const entry = parseLogLine(line, { timestamps: true });
      if (this.dedupe.check(entry)) continue;
      if (entry.ts !== undefined && entry.ts < this.skipBefore) continue;
      out.push({ pod, container, entry });
      if (this.tail) kept.push(line);
    }
    if (this.tail && kept.length > 0) this.tail.push(this.instance, kept);
    return out;
  }

  /** Decides what an ended connection means and returns the next one, or null when the log is over. */
  private async *resume(quickEnds: number): AsyncGenerator<LogEvent[], KubeLogConnection | null, undefined> {
    const { namespace, pod, container } = this.target;
    let failures = 0;
    const retry = async (err: unknown) => {
      // A refusal here means the container changed state since the pod was read: read it again.
      const recoverable = isTransient(err) || (err instanceof ProblemError && err.code === 'log_unavailable');
      if (++failures > MAX_RECONNECT_FAILURES || !recoverable) throw err;
      await sleep(Math.min(5_000, 250 * 2 ** failures), this.signal);
    };
    // A connection that keeps ending at once (a proxy cutting streams) is retried with back-off.
    if (quickEnds > 0) await sleep(Math.min(5_000, 125 * 2 ** quickEnds), this.signal);
    while (!this.signal.aborted) {
      let current: PodLike | null;
      try {
        current = await this.deps.getPod(namespace, pod, this.signal);
      } catch (err) {
        await retry(err);
        continue;
      }
      if (current === null) {
        yield [markerEvent(pod, container, 'pod-deleted', Date.now(), `pod ${pod} was deleted`)];
        return null;
      }
      const status = containerStatus(current, container);
      if (!status) return null;
      const running = status.state?.running !== undefined;
      if (running && servedInstance(status) === this.instance) {
        try {
          this.dedupe.beginReplay();
          const since = this.dedupe.resumeSince();
          return await this.request({
            follow: true,
            previous: false,
            ...(since ? { sinceTime: since } : {}),
          });
        } catch (err) {
          await retry(err);
          continue;
        }
      }
      if (this.instance !== undefined && !this.noted.has(this.instance)) {
        yield* this.finish(status, this.instance);
        this.noted.add(this.instance);
      }
      if (running) {
        const startedAt = epochOf(status.state?.running?.startedAt) ?? Date.now();
        const restarts = status.restartCount ?? 0;
        yield [
          markerEvent(
            pod,
            container,
            'restarted',
            startedAt,
            `container ${container} restarted (restart ${restarts})`,
            {
              restartCount: restarts,
            },
          ),
        ];
        this.instance = servedInstance(status);
        this.dedupe.reset();
        try {
          return await this.request({ follow: true, previous: false });
        } catch (err) {
          // Already gone again (a fast crash loop): keep watching for the next instance.
          if (err instanceof ProblemError && err.code === 'log_unavailable') continue;
          await retry(err);
          continue;
        }
      }
      // Terminated for good (completed, or a restart policy that does not restart it).
      if (status.state?.terminated) return null;
      await sleep(this.deps.pollMs, this.signal);
    }
    return null;
  }

  /** The followed instance has ended: catch up on its last lines, then say how it ended. */
  private async *finish(
    status: ContainerStatusLike,
    instance: string,
  ): AsyncGenerator<LogEvent[], void, undefined> {
    const { pod, container } = this.target;
    const last = status.lastState?.terminated;
    const now = status.state?.terminated;
    const ended = last?.containerID === instance ? last : now?.containerID === instance ? now : undefined;
    if (ended) {
      try {
        this.dedupe.beginReplay();
        const since = this.dedupe.resumeSince();
        const tail = await this.request({
          follow: false,
          previous: ended === last,
          ...(since ? { sinceTime: since } : {}),
        });
        for (let lines = await tail.next(); lines !== null; lines = await tail.next()) {
          const events = this.toEvents(lines);
          if (events.length > 0) yield events;
        }
      } catch (err) {
        // The tail is a courtesy: its absence must not end a follow that can go on.
        this.deps.logger.debug({ err: String(err), target: this.target }, 'could not catch up on a log tail');
      }
    }
    const exit = ended?.exitCode;
    const reason = ended?.reason;
    const detail = exit === undefined ? '' : `: exit code ${exit}${reason ? ` (${reason})` : ''}`;
    yield [
      markerEvent(
        pod,
        container,
        'terminated',
        epochOf(ended?.finishedAt) ?? Date.now(),
        `container ${container} terminated${detail}`,
        {
          ...(exit !== undefined ? { exitCode: exit } : {}),
          ...(reason ? { reason } : {}),
        },
      ),
    ];
  }
}
