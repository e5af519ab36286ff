/**
 * A test feed: one collection held in memory and changed by hand, served as a ListerWatcher
 * (cache/source.ts) the way an apiserver serves one, so a watch cache can be driven without a cluster.
 *
 * Rules, an apiserver's: every change gets the next resourceVersion, stamped on the object; a list
 * answers pages in namespace/name order with the collection's resourceVersion, a continue token and
 * remainingItemCount; a watch sends every change after the resourceVersion it starts from, then the
 * changes as they come, until it is stopped, its timeout passes, or `endWatches` ends it. `compact`
 * forgets the changes so far: a watch from before them, or a continue token, is a 410. `refuse`
 * makes every request fail with the given error until it is called with none.
 */

import type { KubeObject } from '../../../src-shared/contract/models';
import { keyOf } from '../cache/entries';
import type { ListerWatcher, ListPage, ListRequest, WatchEvent, WatchRequest } from '../cache/source';
import { KubeRequestError } from '../kube/kube-client';

interface Change {
  rv: number;
  event: WatchEvent;
}

interface Watcher {
  queue: WatchEvent[];
  wake: () => void;
  end: (expired: boolean) => void;
}

const gone = (what: string) =>
  new KubeRequestError(410, { code: 410, reason: 'Expired' }, `${what}: too old resource version`);

export class FeedSource implements ListerWatcher {
  private readonly objects = new Map<string, KubeObject>();
  private readonly changes: Change[] = [];
  private readonly watchers = new Set<Watcher>();
  private rv = 0;
  /** Changes at or before this resourceVersion are forgotten. */
  private compactedAt = 0;
  private refusal: Error | undefined;
  /** Requests seen, for tests that count them. */
  lists = 0;
  watches = 0;

  constructor(readonly path = '/feed') {}

  /** The resourceVersion of the last change. */
  get resourceVersion(): string {
    return String(this.rv);
  }

  /** Watches open now. */
  get watching(): number {
    return this.watchers.size;
  }

  /** Adds or replaces an object (ADDED or MODIFIED); answers it as stored. */
  set(obj: KubeObject): KubeObject {
    const key = keyOf(obj);
    const stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } };
    const type = this.objects.has(key) ? 'MODIFIED' : 'ADDED';
    this.objects.set(key, stored);
    this.publish(type, stored);
    return stored;
  }

  /** Removes the object under namespace/name (DELETED); false when there is none. */
  delete(namespace: string, name: string): boolean {
    const key = `${namespace}/${name}`;
    const old = this.objects.get(key);
    if (!old) return false;
    this.objects.delete(key);
    this.publish('DELETED', { ...old, metadata: { ...old.metadata, resourceVersion: String(++this.rv) } });
    return true;
  }

  /** Forgets the changes so far: older watches and continue tokens are 410 from now on. */
  compact(): void {
    this.compactedAt = this.rv;
    this.changes.length = 0;
  }

  /** Ends every open watch, as the apiserver ends one at its timeout; `expired`: with an ERROR 410. */
  endWatches(opts: { expired?: boolean } = {}): number {
    const n = this.watchers.size;
    for (const w of [...this.watchers]) w.end(opts.expired === true);
    // What changes from now on is for the next watches, not these.
    this.watchers.clear();
    return n;
  }

  /** Every request fails with `err` until called again without one. */
  refuse(err?: Error): void {
    this.refusal = err;
  }

  async list({ limit, continue: token, signal }: ListRequest): Promise<ListPage> {
    signal.throwIfAborted();
    this.lists++;
    if (this.refusal) throw this.refusal;
    let start = 0;
    let rv = this.rv;
    const keys = [...this.objects.keys()].sort();
    if (token !== undefined) {
      const [tokenRv, after] = JSON.parse(token) as [number, string];
      if (tokenRv < this.compactedAt) throw gone('the continue token');
      rv = tokenRv;
      start = keys.findIndex((k) => k > after);
      if (start < 0) start = keys.length;
    }
    const page = keys.slice(start, start + limit);
    const items = page.map((k) => this.objects.get(k) as KubeObject);
    const remaining = keys.length - start - page.length;
    return {
      items,
      resourceVersion: String(rv),
      ...(remaining > 0
        ? { continue: JSON.stringify([rv, page[page.length - 1]]), remainingItemCount: remaining }
        : {}),
    };
  }

  async watch({ resourceVersion, timeoutSeconds, signal, onActivity }: WatchRequest) {
    signal.throwIfAborted();
    this.watches++;
    if (this.refusal) throw this.refusal;
    const from = Number(resourceVersion);
    if (from < this.compactedAt) throw gone('the watch');
    const backlog = this.changes.filter((c) => c.rv > from).map((c) => c.event);
    return this.stream(backlog, timeoutSeconds, signal, onActivity);
  }

  private async *stream(
    backlog: WatchEvent[],
    timeoutSeconds: number,
    signal: AbortSignal,
    onActivity: () => void,
  ): AsyncGenerator<WatchEvent> {
    let wake = () => {};
    let ended: 'timeout' | 'ended' | 'expired' | undefined;
    const w: Watcher = {
      queue: backlog,
      wake: () => wake(),
      end: (expired) => {
        ended = expired ? 'expired' : 'ended';
        wake();
      },
    };
    const timer = setTimeout(() => {
      ended = 'timeout';
      wake();
    }, timeoutSeconds * 1000);
    const stop = () => wake();
    signal.addEventListener('abort', stop);
    this.watchers.add(w);
    try {
      for (;;) {
        const event = w.queue.shift();
        if (event) {
          onActivity();
          yield event;
          continue;
        }
        if (ended === 'expired') {
          yield {
            type: 'ERROR',
            object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old' },
          };
        }
        if (ended || signal.aborted) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      this.watchers.delete(w);
    }
  }

  private publish(type: string, object: KubeObject): void {
    const event = { type, object } as WatchEvent;
    this.changes.push({ rv: this.rv, event });
    for (const w of this.watchers) {
      w.queue.push(event);
      w.wake();
    }
  }
}
