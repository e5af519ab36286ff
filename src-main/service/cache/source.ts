/**
 * Where a watch cache's data comes from: one collection's list and watch, as client-go's reflector
 * takes a ListerWatcher. A live cluster (clusters/source-live.ts), a `.skiff` snapshot's file
 * (clusters/source-frozen.ts) and a test feed (clusters/source-feed.ts) plug into the informer alike,
 * so paging, progress, backoff, relist and staleness are the informer's rules whatever the source.
 *
 * Rules of a source:
 * - `list` answers one page of at most `limit` objects, in a stable order, and the token of the
 *   next page; a token that can no longer be served is a KubeRequestError 410 (the informer lists
 *   afresh). `remainingItemCount` is the estimate of what is still to come, when the source knows.
 * - `watch` opens a watch of the changes after `resourceVersion`. A resourceVersion too old to
 *   watch from is a KubeRequestError 410, thrown by `watch` or sent as an ERROR event; any other
 *   refusal is thrown. Its events end when the watch ends, which a source does by itself after
 *   `timeoutSeconds`, as the apiserver does; `onActivity` is called whenever anything arrives,
 *   so the informer can tell a quiet watch from a dead one.
 * - Both honour `signal`; neither ever ends the process.
 */

import type { KubeObject } from '../../../src-shared/contract/models';
import type { WatchEvent } from '../kube/watch-stream';

export type { WatchEvent } from '../kube/watch-stream';

export interface ListRequest {
  limit: number;
  /** The token of the page to read; absent for the first. */
  continue?: string;
  /** Bounds the page's request. */
  timeoutMs: number;
  signal: AbortSignal;
}

export interface ListPage {
  items: readonly KubeObject[];
  /** The collection's resourceVersion as of this page, when the source gives one. */
  resourceVersion?: string;
  /** The next page's token; absent (or empty) on the last page. */
  continue?: string;
  /** The source's estimate of the objects still to come after this page. */
  remainingItemCount?: number;
}

export interface WatchRequest {
  resourceVersion: string;
  /** How long the watch is asked to last; it ends by itself after that. */
  timeoutSeconds: number;
  /** Bounds the wait for the watch to open. */
  timeoutMs: number;
  signal: AbortSignal;
  /** Something arrived (an event, a bookmark, part of one). */
  onActivity(): void;
}

export interface ListerWatcher {
  /** Names the collection in logs and problems, as its API path does: `/api/v1/pods`. */
  readonly path: string;
  list(req: ListRequest): Promise<ListPage>;
  watch(req: WatchRequest): Promise<AsyncIterable<WatchEvent>>;
}
