/**
 * A collection that never changes (a snapshot's objects of one kind, read from its file) as a
 * ListerWatcher (cache/source.ts), so a snapshot fills the same watch caches as a live cluster, with no
 * server in between.
 *
 * Rules:
 * - A list reads `limit` rows a page, in the rows' own stable order, and says how many are still to
 *   come (the count is read once: nothing is ever added), so a first list of a big kind reports its
 *   progress like an apiserver's. The continue token is the rows read so far and the position of
 *   the last one (`read:position`); a token this source did not make is a 410, which makes the
 *   informer list afresh.
 * - Every list answers the same resourceVersion, and a watch sends nothing: it waits out its
 *   timeout (or its stop) and ends, as an apiserver's watch of a quiet collection does. The
 *   informer then watches again from where it was, so a frozen cache stays synced and is never
 *   stale.
 * - A row the reader cannot decode is left out of the page (the reader logs it); it still counts
 *   as read.
 */

import type { ServedKind } from '../../../src-shared/contract/kinds-operations';
import type { KubeObject } from '../../../src-shared/contract/models';
import type { SnapshotGap } from '../../../src-shared/contract/snapshot-models';
import type { ListerWatcher, WatchEvent } from '../cache/source';
import type { HistoryStore } from '../events/history/store';
import { KubeRequestError } from '../kube/kube-client';
import type { KubeLogConnection, KubeLogRequest } from '../logs/kube-log';
import type { Queryable } from '../storage/backend';

/** The rows of a frozen collection, read a page at a time. */
export interface FrozenRows {
  /** How many rows there are. */
  count(): number;
  /**
   * Up to `limit` rows after the row at `after` (a position this reader gave; none: from the
   * first), the objects decoded from them, and the position of the last row read (absent when none was).
   */
  page(after: string | undefined, limit: number): { objects: KubeObject[]; read: number; last?: string };
}

/** What every list of a frozen collection answers as its resourceVersion. */
export const FROZEN_RESOURCE_VERSION = '1';

const badToken = () =>
  new KubeRequestError(410, { code: 410, reason: 'Expired' }, 'the continue token is not one of this source');

/** A continue token: the rows read so far, a colon, and the position of the last one. */
const TOKEN = /^([1-9]\d{0,14}):(.*)$/s;

function readToken(token: string): { after: string; read: number } {
  const m = TOKEN.exec(token);
  if (!m) throw badToken();
  return { after: m[2] as string, read: Number(m[1]) };
}

/** Resolves after `ms`, or at once when `signal` aborts; never rejects. */
function idle(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
    if (signal.aborted) done();
  });
}

/** `rows` as the collection at `path` (which names it in logs and problems). */
export function frozenCollection(path: string, rows: FrozenRows): ListerWatcher {
  let total: number | undefined;
  return {
    path,
    async list({ limit, continue: token, signal }) {
      signal.throwIfAborted();
      const from = token === undefined ? { after: undefined, read: 0 } : readToken(token);
      total ??= rows.count();
      const page = rows.page(from.after, limit);
      const read = from.read + page.read;
      const remaining = total - read;
      const more = remaining > 0 && page.last !== undefined;
      return {
        items: page.objects,
        resourceVersion: FROZEN_RESOURCE_VERSION,
        ...(more ? { continue: `${read}:${page.last}`, remainingItemCount: remaining } : {}),
      };
    },
    async watch({ timeoutSeconds, signal }) {
      signal.throwIfAborted();
      const quiet: AsyncIterable<WatchEvent> = {
        [Symbol.asyncIterator]: () => ({
          next: async (): Promise<IteratorResult<WatchEvent>> => {
            await idle(timeoutSeconds * 1000, signal);
            return { done: true, value: undefined };
          },
        }),
      };
      return quiet;
    },
  };
}

/** What the cluster record says of a frozen cluster (snapshots/open.ts). */
export interface FrozenFacts {
  context: string;
  server: string;
  kubernetesVersion?: string;
  /** RFC 3339: the instant the cluster is frozen at. */
  takenAt: string;
  /** What the file lacks: its gaps, and rows that cannot be read (snapshots/inspect.ts). */
  missing?: SnapshotGap[];
}

/**
 * A cluster frozen at one instant (an opened snapshot), served in place of an apiserver: a
 * ClusterConnection that has one reads everything from it and never from the network.
 */
export interface FrozenCluster {
  readonly facts: FrozenFacts;
  /** The kinds it holds, as `GET …/kinds` answers them (ordered by resourceType). */
  readonly kindRows: readonly SnapshotKindRow[];
  /** The collection of a kind (all namespaces); a kind it does not hold is empty. */
  collection(kind: FrozenKindRef): ListerWatcher;
  /** The core/v1 Events the cluster still had. */
  events(): ListerWatcher;
  /** One object; namespace '' for a cluster-scoped kind. */
  object(kind: FrozenKindRef, namespace: string, name: string): KubeObject | undefined;
  /** The metrics.k8s.io PodMetrics of a namespace. */
  podMetrics(namespace: string): readonly KubeObject[];
  /** A container's log, as a log request to the cluster would read it (logs/kube-log.ts). */
  openLog(req: KubeLogRequest): KubeLogConnection;
  /** Its event history, the expired events included: read from the file, never recorded. */
  history(): Promise<HistoryStore>;
  /**
   * What Skiff had recorded of the cluster when the snapshot was taken (issue 27: change_history,
   * usage_samples, kept_logs), as tables of the same schema in a database of its own, its rows
   * under this connection's clusterId; undefined for a file that holds none (format before 3).
   */
  recorded?(): Promise<RecordedTables | undefined>;
}

/** Recorded tables read from a snapshot (see FrozenCluster.recorded; history/source.ts). */
export interface RecordedTables {
  readonly db: Queryable;
  /** The instant the snapshot was taken: reads answer as of then. */
  readonly asOfMs: number;
}

/** A kind of a frozen cluster: what `GET …/kinds` answers, and the apiserver's singular. */
export type SnapshotKindRow = ServedKind & { singular: string };

/** What names a kind to a frozen cluster: its group and plural. */
export interface FrozenKindRef {
  group: string;
  plural: string;
}
