import { type KubernetesObject, ListWatch, Watch } from '@kubernetes/client-node';
import type { KubeObject } from '../../../src-shared/contract/models';
import { ProblemError } from '../errors';
import type { Logger } from '../logger';
import { type KubeClient, KubeRequestError, toProblem } from './kube-client';

export interface CacheOptions<T> {
  client: KubeClient;
  /** Collection path, e.g. /api/v1/pods (all namespaces). */
  path: string;
  apiVersion: string;
  kind: string;
  toEntry: (obj: KubeObject) => T;
  compare: (a: T, b: T) => number;
  timeoutMs: number;
  logger: Logger;
  /** Chunk size of the initial list, as kubectl and informers page through large collections. */
  listChunk?: number;
}

const MAX_BACKOFF_MS = 30_000;

/** Strips what the API never returns: managedFields. Everything else stays as the cluster sent it. */
export function cleanObject(obj: KubeObject, apiVersion: string, kind: string): KubeObject {
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { apiVersion: obj.apiVersion ?? apiVersion, kind: obj.kind ?? kind, ...obj, metadata } as KubeObject;
}

const keyOf = (obj: { metadata?: { namespace?: string; name?: string } }) =>
  `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;

/**
 * A watch-backed cache of one collection of one cluster, built on client-node's ListWatch. Reads are
 * served from memory, sorted once per change, so a page costs the same at any offset and never
 * touches the apiserver. After a failure the last known data keeps serving while the watch retries
 * with backoff.
 */
export class ResourceCache<T> {
  private readonly entries = new Map<string, T>();
  private sorted: T[] | null = null;
  private listWatch: ListWatch<KubernetesObject> | null = null;
  private ready: Promise<void> | null = null;
  private synced = false;
  private stopped = false;
  private backoffMs = 1_000;
  private retryTimer: NodeJS.Timeout | undefined;
  lastUsed = Date.now();
  /** Increases on every change; lets readers cache work derived from a snapshot. */
  version = 0;

  constructor(private readonly opts: CacheOptions<T>) {}

  /** Starts the cache if needed and waits until it has listed once; bounded by the request timeout. */
  async acquire(signal?: AbortSignal): Promise<void> {
    this.lastUsed = Date.now();
    if (this.synced) return;
    this.ready ??= this.start();
    const ready = this.ready;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new ProblemError(
              'cluster_timeout',
              `the cluster did not answer within ${this.opts.timeoutMs / 1000} s`,
            ),
          ),
        this.opts.timeoutMs,
      );
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    try {
      await Promise.race([ready, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  snapshot(): readonly T[] {
    this.lastUsed = Date.now();
    if (this.sorted === null) this.sorted = [...this.entries.values()].sort(this.opts.compare);
    return this.sorted;
  }

  get size(): number {
    return this.entries.size;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.listWatch?.stop();
  }

  private async start(): Promise<void> {
    const { client, path, apiVersion, kind } = this.opts;
    const watch = new Watch(client.kubeConfig);
    const lw = new ListWatch<KubernetesObject>(path, watch, () => this.list(), false);
    this.listWatch = lw;
    const upsert = (obj: KubernetesObject) => {
      this.entries.set(keyOf(obj), this.opts.toEntry(cleanObject(obj as KubeObject, apiVersion, kind)));
      this.changed();
    };
    lw.on('add', upsert);
    lw.on('update', upsert);
    lw.on('delete', (obj) => {
      this.entries.delete(keyOf(obj));
      this.changed();
    });
    let firstError: unknown;
    lw.on('error', (err) => {
      if (!this.synced) {
        firstError ??= err;
        return;
      }
      this.opts.logger.warn({ path, err: String(err) }, 'watch failed; serving cached data and retrying');
      this.scheduleRetry(lw);
    });
    lw.on('connect', () => {
      if (this.synced) this.backoffMs = 1_000;
    });
    await lw.start();
    if (firstError !== undefined) {
      this.ready = null;
      await lw.stop();
      throw toProblem(firstError, kind);
    }
    this.synced = true;
  }

  private scheduleRetry(lw: ListWatch<KubernetesObject>) {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (!this.stopped) void lw.start();
    }, this.backoffMs);
    this.retryTimer.unref();
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
  }

  private changed() {
    this.sorted = null;
    this.version++;
  }

  /** Lists in chunks with limit/continue; a continue token that expired mid-way restarts the list. */
  private async list(): Promise<{ metadata: { resourceVersion: string }; items: KubernetesObject[] }> {
    const chunk = String(this.opts.listChunk ?? 500);
    for (let attempt = 0; ; attempt++) {
      const items: KubernetesObject[] = [];
      let cont: string | undefined;
      let resourceVersion = '';
      try {
        do {
          const page = await this.opts.client.getJson<{
            metadata?: { resourceVersion?: string; continue?: string };
            items?: KubernetesObject[];
          }>(this.opts.path, { query: { limit: chunk, continue: cont }, timeoutMs: this.opts.timeoutMs });
          items.push(...(page.items ?? []));
          resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
          cont = page.metadata?.continue || undefined;
        } while (cont);
        return { metadata: { resourceVersion }, items };
      } catch (err) {
        if (err instanceof KubeRequestError && err.statusCode === 410 && attempt < 3) continue;
        throw err;
      }
    }
  }
}
