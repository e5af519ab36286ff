/**
 * When one cluster's exec credential plugin may run. Rules:
 * - One run at a time: callers that ask while a run is going share it, and the next run starts
 *   only once the previous one's process group is gone, so a plugin's helpers still in their
 *   grace never overlap the next run's.
 * - After a failed run (exit, timeout, a credential refused by `accept`) the plugin is not run
 *   again before the backoff allows (the cluster's watch backoff: 1 s doubling to 30 s, jittered),
 *   however many requests and watch retries ask meanwhile. They get the last failure at once,
 *   saying when the plugin runs next, with a Retry-After. A success resets the backoff.
 * - Nothing here runs on its own: a run happens only when some request asks for a credential.
 * - A run has the cluster's timeout (`pluginTimeoutMs`), not the deadline of whichever request
 *   started it, so a 3 s metrics read cannot cut short a run others wait for too.
 * - close() ends the run still going with its whole group, and no run starts after it.
 */

import { ProblemError } from '../errors';
import { Backoff, type BackoffOptions, DEFAULT_BACKOFF } from './backoff';
import {
  type ExecClusterInfo,
  type ExecConfig,
  type ExecCredential,
  type PluginRun,
  startExecPlugin,
} from './exec-plugin';
import type { GroupEndOptions } from './process-group';

export interface PluginRunOptions {
  /** When a plugin that failed may run again; the cluster passes its watch backoff. */
  backoff?: BackoffOptions;
  /** How long one run may take; unset, the timeout of the request that starts it. */
  pluginTimeoutMs?: number;
  /** How long a plugin's process group has after SIGTERM (process-group.ts). */
  groupEnd?: GroupEndOptions;
  now?: () => number;
  random?: () => number;
}

/** A failed run, answered again to every request until `retryAt`. */
interface HeldFailure {
  error: unknown;
  retryAt: number;
}

/** The plugin of one cluster, and what its credential becomes (a throw refuses it). */
export interface Plugin<T> {
  exec: ExecConfig;
  cluster: () => ExecClusterInfo;
  accept: (credential: ExecCredential) => T;
}

export class PluginRuns<T> {
  private inflight: Promise<T> | undefined;
  private failed: HeldFailure | undefined;
  private readonly failures: Backoff;
  private readonly now: () => number;
  /** The latest run, and when its process group is gone: the next run waits for that. */
  private running: PluginRun | undefined;
  private lastEnded: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly plugin: Plugin<T>,
    private readonly opts: PluginRunOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.failures = new Backoff(opts.backoff ?? DEFAULT_BACKOFF, this.now, opts.random);
  }

  /**
   * What the plugin's credential becomes: the run going, a new run, or the last failure while
   * that is held. `timeoutMs` bounds a new run unless the cluster's timeout was given.
   */
  run(timeoutMs: number): Promise<T> {
    if (this.inflight) return this.inflight;
    const failed = this.failed;
    if (failed && this.now() < failed.retryAt) return Promise.reject(this.heldOff(failed));
    const { exec, cluster, accept } = this.plugin;
    const run = this.lastEnded
      .then(() => {
        if (this.closed) throw new ProblemError('cluster_unreachable', 'the cluster connection was closed');
        const runMs = this.opts.pluginTimeoutMs ?? timeoutMs;
        const started = startExecPlugin(exec, cluster(), runMs, this.opts.groupEnd);
        this.running = started;
        this.lastEnded = started.ended;
        return started.credential;
      })
      .then(accept)
      .then(
        (value) => {
          this.failed = undefined;
          this.failures.reset();
          return value;
        },
        (err: unknown) => {
          this.failed = { error: err, retryAt: this.now() + this.failures.next() };
          throw err;
        },
      );
    // No other run can start while this one is the one in flight, so it is the one cleared.
    this.inflight = run;
    const clear = () => {
      this.inflight = undefined;
    };
    run.then(clear, clear);
    return run;
  }

  /** Ends the run still going (its whole process group) and starts no other. */
  async close(): Promise<void> {
    this.closed = true;
    await this.running?.stop();
    await this.lastEnded;
  }

  /** The last failure again, saying when the plugin runs next. */
  private heldOff(failed: HeldFailure): unknown {
    const { error } = failed;
    if (!(error instanceof ProblemError)) return error;
    const seconds = Math.ceil((failed.retryAt - this.now()) / 1000);
    return new ProblemError(
      error.code,
      `${error.message} (not run again for ${seconds} s)`,
      error.extensions,
      {
        ...error.headers,
        'Retry-After': String(seconds),
      },
    );
  }
}
