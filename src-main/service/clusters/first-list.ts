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

  /** Resolves when the list completes (listed), rejects by the rules above or with `signal`'s reason. */
  async wait(signal?: AbortSignal): Promise<void> {
    const { timeoutMs } = this.opts;
    const deadline = Date.now() + (this.opts.fillWaitMs ?? DEFAULT_FILL_WAIT_MS);
    /** When the cluster last showed it answers: the start of the wait, then each page in it. */
    let aliveAt = Date.now();
    let progressed = false;
    let timer: NodeJS.Timeout | undefined;
    let waiter: Waiter | undefined;
    const onAbort = () => waiter?.reject(signal?.reason);
    try {
      await new Promise<void>((resolve, reject) => {
        const check = () => {
          clearTimeout(timer);
          const now = Date.now();
          if (now - aliveAt >= timeoutMs) {
            reject(
              new ProblemError('cluster_timeout', `the cluster did not answer within ${timeoutMs / 1000} s`),
            );
            return;
          }
          if (progressed && now >= deadline) {
            reject(this.syncing());
            return;
          }
          // Past the deadline with no page yet: wait for one (then 503) or for the silence (504).
          const next = now < deadline ? Math.min(deadline, aliveAt + timeoutMs) : aliveAt + timeoutMs;
          timer = setTimeout(check, next - now);
        };
        waiter = {
          resolve,
          reject,
          progressed: () => {
            aliveAt = Date.now();
            progressed = true;
            if (aliveAt >= deadline) check();
          },
        };
        this.waiters.add(waiter);
        check();
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    } finally {
      clearTimeout(timer);
      if (waiter) this.waiters.delete(waiter);
      signal?.removeEventListener('abort', onAbort);
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

  private syncing(): ProblemError {
    const progress = this.progress ?? { items: 0 };
    const to = progress.remaining === undefined ? '' : `, about ${progress.remaining} to come`;
    return new ProblemError(
      'cluster_syncing',
      `the first list of ${this.opts.path} is still arriving from the cluster (${progress.items} objects so far${to}); ask again in ${SYNCING_RETRY_AFTER_S} s`,
      { retryAfterSeconds: SYNCING_RETRY_AFTER_S, progress },
      { 'Retry-After': String(SYNCING_RETRY_AFTER_S) },
    );
  }
}
