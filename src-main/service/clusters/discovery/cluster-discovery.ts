/**
 * One cluster's discovery, kept current. It starts on first need (the first `current()`), not when
 * the service starts: a kubeconfig with twenty contexts must not cost twenty discoveries nobody
 * reads. From then on it reads again when a CustomResourceDefinition or an APIService changes
 * (both watched through the same watch caches as every list; changes within DEBOUNCE_MS make one
 * read, and a change during a read makes one more after it), and every `refreshMs` (5 minutes)
 * besides. A read that fails keeps the last discovery, served as stale since the time it was read,
 * and is retried after `retryMs`; a first read that fails is the caller's error, the cluster's
 * problem (502/504). Unused for the cluster's idle time, it stops (sweep), as the caches do.
 */

import type { KubeObject } from '../../../../src-shared/contract/models';
import { Collection } from '../../cache/collection';
import type { PinOptions } from '../../cache/list-pins';
import { type CacheObserver, ResourceCache } from '../../cache/resource-cache';
import { ProblemError } from '../../errors';
import type { BackoffOptions } from '../../kube/backoff';
import { type KubeClient, KubeRequestError, toProblem } from '../../kube/kube-client';
import type { Logger } from '../../logger';
import { liveCollection } from '../source-live';
import { type ApiServiceEntry, apiServiceEntry, type CrdEntry, crdEntry } from './crds';
import type { DiscoveryGap } from './model';
import { compareText, type DiscoveredKind, nameKinds } from './names';
import { readDiscovery } from './reader';

export const REFRESH_MS = 5 * 60_000;
export const RETRY_MS = 30_000;
export const DEBOUNCE_MS = 300;

const CRDS_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const API_SERVICES_PATH = '/apis/apiregistration.k8s.io/v1/apiservices';

export interface DiscoveryOptions {
  client: KubeClient;
  timeoutMs: number;
  logger: Logger;
  backoff: BackoffOptions;
  pins: Omit<PinOptions, 'now'>;
  refreshMs?: number;
  retryMs?: number;
  now?: () => number;
}

/** What one answer reads: the kinds and gaps of the last read, and the CRDs the watch holds now. */
export interface DiscoveryView {
  readonly kinds: readonly DiscoveredKind[];
  readonly gaps: readonly DiscoveryGap[];
  readonly crds: readonly CrdEntry[];
  /** When the kinds were read (the clock's milliseconds). */
  readonly readAt: number;
  /** RFC 3339: when the kinds were read, while the reads since have failed; else undefined. */
  readonly staleSince?: string;
}

interface Read {
  kinds: DiscoveredKind[];
  gaps: DiscoveryGap[];
  at: number;
}

export class ClusterDiscovery {
  private last: Read | undefined;
  private failing = false;
  private inflight: Promise<Read> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private crds: ResourceCache<CrdEntry> | undefined;
  private apiServices: ResourceCache<ApiServiceEntry> | undefined;
  private readonly now: () => number;
  lastUsed = Date.now();

  constructor(private readonly opts: DiscoveryOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** The discovery as of now; the first call reads it (and starts keeping it current). */
  async current(signal?: AbortSignal): Promise<DiscoveryView> {
    this.lastUsed = Date.now();
    const crds = this.start();
    // The CRDs only add printer columns: a cluster that will not list them (RBAC) still answers.
    const crdsListed = crds.acquire(signal).catch((err: unknown) => {
      this.opts.logger.warn(
        { err: String(err) },
        'discovery: the CustomResourceDefinitions could not be listed',
      );
    });
    // Callers that find the first read under way wait for it, without asking for another.
    const last = this.last ?? (await (this.inflight ?? this.refresh()));
    await crdsListed;
    return {
      kinds: last.kinds,
      gaps: last.gaps,
      crds: crds.read().view.all,
      readAt: last.at,
      ...(this.failing ? { staleSince: new Date(last.at).toISOString() } : {}),
    };
  }

  /**
   * Reads now, or joins the read under way (which then reads once more, for what changed during
   * it). Resolves with the discovery to serve: this read's, or the last one when this read failed;
   * rejects only when no read ever succeeded.
   */
  refresh(): Promise<Read> {
    if (this.inflight) {
      this.again = true;
      return this.inflight;
    }
    const run = this.read().finally(() => {
      this.inflight = undefined;
      if (this.again) {
        this.again = false;
        this.schedule(0);
      }
    });
    this.inflight = run;
    return run;
  }

  private async read(): Promise<Read> {
    const { client, timeoutMs } = this.opts;
    try {
      const discovery = await readDiscovery(async (path, accept) => {
        try {
          return await client.getJson<unknown>(path, { timeoutMs, accept });
        } catch (err) {
          throw discoveryProblem(err, path);
        }
      });
      const read = { kinds: nameKinds(discovery.resources), gaps: [...discovery.gaps], at: this.now() };
      this.last = read;
      if (this.failing) this.opts.logger.info({}, 'discovery: read again after failures');
      this.failing = false;
      if (discovery.gaps.length > 0)
        this.opts.logger.warn({ gaps: discovery.gaps }, 'discovery: some group versions could not be read');
      this.schedule(this.opts.refreshMs ?? REFRESH_MS);
      return read;
    } catch (err) {
      this.failing = true;
      this.opts.logger.warn({ err: String(err) }, 'discovery failed; retrying');
      this.schedule(this.opts.retryMs ?? RETRY_MS);
      if (this.last) return this.last;
      // Reads fail as problems, but for an answer that is no discovery document (reader.ts).
      throw err instanceof ProblemError ? err : new ProblemError('cluster_error', (err as Error).message);
    }
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), ms);
    this.timer.unref();
  }

  /** A CRD or APIService changed: read again soon, once for a burst of changes. */
  private changed(): void {
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => this.wake(), DEBOUNCE_MS);
    this.debounce.unref();
  }

  /** A timer's read; a timer left from before a stop reads nothing. */
  private wake(): void {
    if (this.crds) void this.refresh().catch(() => {});
  }

  /** Starts the CRD and APIService watches (once); answers the CRD cache. */
  private start(): ResourceCache<CrdEntry> {
    if (this.crds) return this.crds;
    this.crds = this.cache(CRDS_PATH, crdEntry);
    this.apiServices = this.cache(API_SERVICES_PATH, apiServiceEntry);
    this.apiServices.acquire().catch(() => {});
    return this.crds;
  }

  private cache<E extends CrdEntry | ApiServiceEntry>(
    path: string,
    toEntry: (obj: KubeObject) => E,
  ): ResourceCache<E> {
    const o = this.opts;
    return new ResourceCache<E>({
      source: liveCollection(o.client, path),
      toEntry,
      fingerprint: (e) => e.fingerprint,
      collection: new Collection<E>((a, b) => compareText(a.key, b.key)),
      timeoutMs: o.timeoutMs,
      logger: o.logger,
      backoff: o.backoff,
      pins: o.pins,
      now: o.now,
      observer: this.observer<E>(),
    });
  }

  /** Changes after the first list: the first list only fills what the first read already covers. */
  private observer<E>(): CacheObserver<E> {
    let listed = false;
    const changed = () => {
      if (listed) this.changed();
    };
    return {
      upserted: changed,
      removed: changed,
      listed: () => {
        listed = true;
      },
      stopped: () => {},
    };
  }

  /** Stops when unused for `idleMs`; the next use reads afresh. */
  async sweep(idleMs: number): Promise<void> {
    if (this.crds && Date.now() - this.lastUsed > idleMs) await this.stop();
  }

  async stop(): Promise<void> {
    const caches = [this.crds, this.apiServices];
    this.crds = undefined;
    this.apiServices = undefined;
    this.last = undefined;
    await Promise.all(caches.map((c) => c?.stop()));
  }
}

/**
 * A discovery path that fails, as the API's problem. A 404 there is not a missing object of the
 * caller's: the cluster serves no such document, which is the cluster's error.
 */
export function discoveryProblem(err: unknown, path: string): unknown {
  if (err instanceof KubeRequestError && err.statusCode === 404) {
    return new ProblemError('cluster_error', `the cluster answered 404 for ${path}: ${err.message}`, {
      clusterStatus: 404,
    });
  }
  return toProblem(err, path);
}
