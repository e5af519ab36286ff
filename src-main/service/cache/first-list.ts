/**
 * The requests waiting for a cache's first list, and the rules of their wait. A large cluster that
 * answers slowly is not a cluster that failed: a request waits while pages keep arriving, up to
 * fillWaitMs, then answers 503 cluster_syncing with how far the list got and Retry-After. Only
 * timeoutMs with no page (the cluster went silent) is a 504; an attempt that fails rejects every
 * waiter with its own problem. A request that saw no page during its own wait never answers 503 on
 * progress older than itself: it waits for the next page (then 503) or for the silence (504).
 */

import { ProblemError } from '../errors';

/** Where a first list stands: objects received so far, and the apiserver's estimate of the rest. */
export interface ListProgress {
  items: number;
  remaining?: number;
}

/** A request waits this long for a first list that keeps making progress, then answers 503. */
export const DEFAULT_FILL_WAIT_MS = 5_000;
/** What a 503 cluster_syncing asks the client to wait before it asks again (Retry-After). */
export const SYNCING_RETRY_AFTER_S = 2;

export interface FirstListOptions {
  /** The collection listed, named in the 503's detail. */
  path: string;
  /** The cluster's silence that makes a 504: no page for this long. */
  timeoutMs: number;
  /** How long a request waits for a list that is making progress (default DEFAULT_FILL_WAIT_MS). */
  fillWaitMs?: number;
}

/** The signal of a wait nobody can abort. */
const NEVER = new AbortController().signal;

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
  /** A page of the list arrived. */
  progressed(): void;
}

export class FirstListWaiters {
  private readonly waiters = new Set<Waiter>();
  private current: ListProgress | undefined;

  constructor(private readonly opts: FirstListOptions) {}

  /** The list under way, as of its latest page; undefined between attempts and once listed. */
  get progress(): ListProgress | undefined {
    return this.current === undefined ? undefined : { ...this.current };
  }

  /** Requests waiting now. */
  get waiting(): number {
    return this.waiters.size;
  }

  /** Resolves when the list completes (listed), rejects by the rules above or with `signal`'s reason. */
  async wait(signal: AbortSignal = NEVER): Promise<void> {
    const { timeoutMs } = this.opts;
    const deadline = Date.now() + (this.opts.fillWaitMs ?? DEFAULT_FILL_WAIT_MS);
    /** When the cluster last showed it answers: the start of the wait, then each page in it. */
    let aliveAt = Date.now();
    let progressed = false;
    let timer: NodeJS.Timeout | undefined;
    let settle!: Pick<Waiter, 'resolve' | 'reject'>;
    const settled = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
    // Runs when a timer set here fires, or at a page past the deadline (which always settles).
    const check = () => {
      const now = Date.now();
      if (now - aliveAt >= timeoutMs) {
        settle.reject(
          new ProblemError('cluster_timeout', `the cluster did not answer within ${timeoutMs / 1000} s`),
        );
        return;
      }
      if (progressed && now >= deadline) {
        settle.reject(this.syncing());
        return;
      }
      // Past the deadline with no page yet: wait for one (then 503) or for the silence (504).
      const next = now < deadline ? Math.min(deadline, aliveAt + timeoutMs) : aliveAt + timeoutMs;
      timer = setTimeout(check, next - now);
    };
    const waiter: Waiter = {
      ...settle,
      progressed: () => {
        aliveAt = Date.now();
        progressed = true;
        if (aliveAt >= deadline) check();
      },
    };
    const onAbort = () => settle.reject(signal.reason);
    this.waiters.add(waiter);
    signal.addEventListener('abort', onAbort);
    check();
    try {
      await settled;
    } finally {
      clearTimeout(timer);
      this.waiters.delete(waiter);
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** A page arrived and more are to come. */
  page(items: number, remaining: number | undefined): void {
    this.current = remaining === undefined ? { items } : { items, remaining };
    for (const w of [...this.waiters]) w.progressed();
  }

  /** The list completed: every waiter has its data. */
  listed(): void {
    this.current = undefined;
    for (const w of [...this.waiters]) w.resolve();
  }

  /** The attempt failed: every waiter gets `problem`; the next attempt starts from nothing. */
  failed(problem: unknown): void {
    this.current = undefined;
    for (const w of [...this.waiters]) w.reject(problem);
  }

  /** Only ever reached after a page of the list under way: its progress is there. */
  private syncing(): ProblemError {
    const progress = this.progress as ListProgress;
    const to = progress.remaining === undefined ? '' : `, about ${progress.remaining} to come`;
    return new ProblemError(
      'cluster_syncing',
      `the first list of ${this.opts.path} is still arriving from the cluster (${progress.items} objects so far${to}); ask again in ${SYNCING_RETRY_AFTER_S} s`,
      { retryAfterSeconds: SYNCING_RETRY_AFTER_S, progress },
      { 'Retry-After': String(SYNCING_RETRY_AFTER_S) },
    );
  }
}
