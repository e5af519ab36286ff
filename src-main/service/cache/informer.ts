/**
 * The informer: list, then watch from the list's resourceVersion, forever, as client-go's reflector
 * does. Rules: a watch that ends normally re-watches; a 410 relists at once; any other failure
 * relists after a backoff; a watch silent past its grace is given up for dead; nothing it meets
 * ends the process; stop() ends it for good.
 */
import type { KubeObject } from '../../../src-shared/contract/models';
import { ProblemError } from '../errors';
import { Backoff, type BackoffOptions } from '../kube/backoff';
import { KubeRequestError } from '../kube/kube-client';
import type { Logger } from '../logger';
import type { ListerWatcher, WatchEvent } from './source';

/** Where an informer delivers what it learns; the sink owns the data. */
export interface InformerSink {
  /** A full list starts; `listed` objects replace the whole state when `endList` comes. */
  beginList(): void;
  listed(obj: KubeObject): void;
  endList(): void;
  /** The list failed half-way: forget what it staged. */
  abortList(): void;
  upsert(obj: KubeObject): void;
  remove(obj: KubeObject): void;
}

export interface InformerOptions {
  /** The collection's list and watch (source.ts): a live cluster's, a snapshot's, a test feed's. */
  source: ListerWatcher;
  /** Chunk size of a list, as kubectl and client-go page through large collections. */
  listChunk: number;
  /** Bounds every list page and the wait for a watch's headers. */
  timeoutMs: number;
  backoff: BackoffOptions;
  logger: Logger;
  sink: InformerSink;
  /** A list completed: the state equals the cluster's as of now. */
  onSynced(): void;
  /** An attempt failed; the data may be stale from now on. */
  onFailure(err: unknown): void;
  /**
   * A page of a list arrived and more are to come: `items` so far in this list, and the apiserver's
   * estimate of those still to come (remainingItemCount) when it gave one. Requests waiting for a
   * first list tell a cluster that answers slowly from one that stopped answering by this. The last
   * page is not reported: onSynced follows it.
   */
  onListPage?(items: number, remaining: number | undefined): void;
  /** How long each watch is asked to last, and the silence after that which means it is dead. */
  watchTimeout?: WatchTimeout;
}

export interface WatchTimeout {
  /** The apiserver ends a watch after timeoutSeconds, picked in [minSeconds, minSeconds + spreadSeconds). */
  minSeconds: number;
  spreadSeconds: number;
  /** A watch that has sent nothing for this long after its own timeout is presumed dead. */
  silenceGraceMs: number;
}

type WatchEnd = { kind: 'ended'; resourceVersion: string; lastedMs: number } | { kind: 'expired' };

/** client-go picks 5–10 minutes at random, so that many watches do not all end at once. */
const DEFAULT_WATCH_TIMEOUT: WatchTimeout = {
  minSeconds: 300,
  spreadSeconds: 300,
  silenceGraceMs: 30_000,
};

/**
 * List, then watch from the list's resourceVersion, forever, as client-go's reflector does with
 * its ListerWatcher (here `source`, source.ts: a live cluster's, a snapshot's, a test feed's), but
 * owned here so every failure is caught: a normal end of a watch re-watches from the last
 * resourceVersion; a 410 (as HTTP status or as an ERROR event) relists at once; any other failure
 * relists after a backoff, since after a broken connection the old resourceVersion proves nothing
 * (a different cluster may now answer at the same address).
 */
export class Informer {
  private readonly abort = new AbortController();
  private readonly backoff: Backoff;
  private stopped = false;
  private running: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private lastAttemptAt = 0;

  constructor(private readonly opts: InformerOptions) {
    this.backoff = new Backoff(opts.backoff);
  }

  start(): void {
    this.running ??= this.loop();
  }

  /** Cuts a backoff wait short (a caller is waiting for data), at most once a second. */
  retryNow(): void {
    if (Date.now() - this.lastAttemptAt >= 1_000) this.wake?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    this.wake?.();
    await this.running;
  }

  private async loop(): Promise<void> {
    let resourceVersion: string | null = null;
    let expiredInARow = 0;
    while (!this.stopped) {
      this.lastAttemptAt = Date.now();
      try {
        if (resourceVersion === null) resourceVersion = await this.list();
        const end = await this.watch(resourceVersion);
        if (end.kind === 'ended') {
          resourceVersion = end.resourceVersion;
          expiredInARow = 0;
          // A server that ends every watch at once must not be asked again in a tight loop.
          if (end.lastedMs < 1_000) await this.sleep(this.backoff.next());
          continue;
        }
        resourceVersion = null;
        // One expiry is routine (history compacted); several in a row mean something is off.
        if (++expiredInARow >= 3) await this.sleep(this.backoff.next());
      } catch (err) {
        if (this.stopped) return;
        resourceVersion = null;
        this.opts.onFailure(err);
        await this.sleep(this.backoff.next());
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    // A watch stop() aborted ends like a short one; its backoff must not hold stop() up.
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  /** Lists in chunks with limit/continue; a continue token that expired mid-way restarts the list. */
  private async list(): Promise<string> {
    const { source, sink, timeoutMs } = this.opts;
    for (let attempt = 0; ; attempt++) {
      sink.beginList();
      let resourceVersion = '';
      let cont: string | undefined;
      let items = 0;
      try {
        do {
          const page = await source.list({
            limit: this.opts.listChunk,
            ...(cont ? { continue: cont } : {}),
            timeoutMs,
            signal: this.abort.signal,
          });
          for (const item of page.items) sink.listed(item);
          items += page.items.length;
          resourceVersion = page.resourceVersion ?? resourceVersion;
          cont = page.continue || undefined;
          const remaining = page.remainingItemCount;
          if (cont) this.opts.onListPage?.(items, Number.isSafeInteger(remaining) ? remaining : undefined);
        } while (cont);
      } catch (err) {
        sink.abortList();
        if (err instanceof KubeRequestError && err.statusCode === 410 && attempt < 3) continue;
        throw err;
      }
      sink.endList();
      this.opts.onSynced();
      return resourceVersion;
    }
  }

  private async watch(resourceVersion: string): Promise<WatchEnd> {
    const { source, sink, timeoutMs } = this.opts;
    const { minSeconds, spreadSeconds, silenceGraceMs } = this.opts.watchTimeout ?? DEFAULT_WATCH_TIMEOUT;
    const seconds = minSeconds + Math.floor(Math.random() * spreadSeconds);
    const watchAbort = new AbortController();
    const signal = AbortSignal.any([this.abort.signal, watchAbort.signal]);
    // The source ends the watch after `seconds`; silence well past that means a dead connection.
    const silenceLimitMs = seconds * 1000 + silenceGraceMs;
    let silentTimer: NodeJS.Timeout | undefined;
    const heard = () => {
      clearTimeout(silentTimer);
      silentTimer = setTimeout(() => watchAbort.abort(), silenceLimitMs);
    };
    let events: AsyncIterable<WatchEvent>;
    try {
      events = await source.watch({
        resourceVersion,
        timeoutSeconds: seconds,
        timeoutMs,
        signal,
        onActivity: heard,
      });
    } catch (err) {
      clearTimeout(silentTimer);
      if (err instanceof KubeRequestError && err.statusCode === 410) return { kind: 'expired' };
      throw err;
    }
    this.backoff.connected();
    const openedAt = Date.now();
    heard();
    let latest = resourceVersion;
    try {
      for await (const event of events) {
        const end = this.apply(event, sink);
        if (end) return end;
        latest = event.object.metadata?.resourceVersion ?? latest;
      }
    } catch (err) {
      if (this.stopped) return { kind: 'ended', resourceVersion: latest, lastedMs: Date.now() - openedAt };
      if (err instanceof KubeRequestError || err instanceof ProblemError) throw err;
      const reason = watchAbort.signal.aborted
        ? 'it stayed silent past its timeout'
        : String((err as { cause?: unknown }).cause ?? err);
      throw new ProblemError('cluster_unreachable', `the watch of ${source.path} broke: ${reason}`);
    } finally {
      clearTimeout(silentTimer);
      watchAbort.abort();
    }
    return { kind: 'ended', resourceVersion: latest, lastedMs: Date.now() - openedAt };
  }

  private apply(event: WatchEvent, sink: InformerSink): WatchEnd | null {
    switch (event.type) {
      case 'ADDED':
      case 'MODIFIED':
        sink.upsert(event.object as KubeObject);
        return null;
      case 'DELETED':
        sink.remove(event.object as KubeObject);
        return null;
      case 'BOOKMARK':
        return null;
      case 'ERROR': {
        const status = event.object as { code?: number; message?: string; reason?: string };
        if (status.code === 410) return { kind: 'expired' };
        const code = status.code ?? 500;
        throw new KubeRequestError(code, status, status.message ?? `watch error ${code}`);
      }
      default:
        this.opts.logger.debug({ path: this.opts.source.path, type: event.type }, 'unknown watch event type');
        return null;
    }
  }
}
