/**
 * A live cluster's collection as a ListerWatcher (cache/source.ts): list pages with limit/continue and
 * watches with allowWatchBookmarks, through the cluster's own KubeClient (its credentials, its
 * bounded connections, its transport problems). Nothing is kept here; the informer owns the loop.
 */

import type { KubeObject } from '../../../src-shared/contract/models';
import type { ListerWatcher } from '../cache/source';
import { type KubeClient, KubeRequestError, parseStatus } from '../kube/kube-client';
import { readWatchEvents } from '../kube/watch-stream';

interface ListBody {
  metadata?: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items?: KubeObject[];
}

/** The collection at `path` (all namespaces, or one: `/api/v1/namespaces/x/pods`) of a live cluster. */
export function liveCollection(client: KubeClient, path: string): ListerWatcher {
  return {
    path,
    async list({ limit, continue: cont, timeoutMs, signal }) {
      const page = await client.getJson<ListBody>(path, {
        query: { limit: String(limit), continue: cont },
        timeoutMs,
        signal,
      });
      const { resourceVersion, continue: next, remainingItemCount } = page.metadata ?? {};
      return {
        items: page.items ?? [],
        ...(resourceVersion !== undefined ? { resourceVersion } : {}),
        ...(next ? { continue: next } : {}),
        ...(remainingItemCount !== undefined ? { remainingItemCount } : {}),
      };
    },
    async watch({ resourceVersion, timeoutSeconds, timeoutMs, signal, onActivity }) {
      const { response } = await client.open(path, {
        query: {
          watch: '1',
          resourceVersion,
          allowWatchBookmarks: 'true',
          timeoutSeconds: String(timeoutSeconds),
        },
        stream: true,
        timeoutMs,
        signal,
      });
      if (!response.ok) {
        // A body cut off is a refusal without its Status: the HTTP code says what there is.
        const status = await response.text().then(parseStatus, () => undefined);
        throw new KubeRequestError(response.status, status, status?.message ?? `HTTP ${response.status}`);
      }
      return readWatchEvents(response, onActivity);
    },
  };
}
