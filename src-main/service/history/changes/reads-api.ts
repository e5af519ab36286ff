/**
 * The change history's reads as the operations ask them (operations/changes.ts): a resolved cluster
 * and kind in, a page or an object out. Here: where the rows are read (recordedSource), writing
 * what is pending first, the time range counted back from the cluster's clock, the object's
 * namespace when the path names none, and what `--authorize rbac` lets the caller read.
 *
 * Rules:
 * - Nothing recorded is an empty list, and a recorded object that no longer exists is answered;
 *   `?at=` answers 404 resource_not_found when the object was not recorded then.
 * - An object's history and `?at=` need `get` of its kind in its namespace (403 otherwise). Named
 *   without a namespace, a namespaced object is looked for among the namespaces its rows are in,
 *   and only where the caller may get it: none is an empty history (or 404), several a 409 naming
 *   them, as the resource reads do.
 * - The feed needs `list` of the kind where it looks: a kind in a namespace named without the
 *   grant is a 403; across namespaces it holds only the namespaces the caller may list the kind
 *   in. Without a `kind` under rbac it holds, of every kind the cluster serves, what the caller may
 *   list where it looks (nothing, not a 403, where that is nothing; kinds the cluster no longer
 *   serves are left out). Open access asks nothing.
 * - Totals and page boundaries are remembered per version of the rows: the recorder's (this
 *   replica holds the cluster's lease), a snapshot's (it never changes), or else what identifies
 *   the rows another replica writes: the batches it announced, the table's newest id and the
 *   cluster's oldest row.
 */
import type { KubeObject } from '../../../../src-shared/contract/models';
import type { ReadAccess } from '../../auth/rbac/access';
import { clusterNamespaces } from '../../auth/read-scope';
import type { ClusterConnection } from '../../clusters/cluster';
import { isEventKind, type KindInfo } from '../../clusters/kind-info';
import { ProblemError } from '../../errors';
import { durationsEnd } from '../../events/clock';
import type { Queryable, StorageBackend } from '../../storage/backend';
import { type RecordedSource, recordedSource } from '../source';
import { CHANGES_CHANNEL } from './options';
import { namespacesHolding, type ObjectRef, objectAt, objectHistory, type TimeRange } from './reads';
import { ChangeFeedReads, type FeedFilter } from './reads-feed';

/** What the reads need of the recorder (ChangeHistory, slot `Recorded.changes`). */
export interface ChangeWriter {
  /** Resolves once every change seen so far is written. */
  flush(): Promise<void>;
  /** Bumped per committed batch and retention pass of the cluster's rows. */
  version(clusterId: string): number;
  /** Whether this replica writes the cluster's rows (then `version` sees every write). */
  records(clusterId: string): boolean;
}

/** A time parameter as the contract parses it. */
export type TimeParam = { instant: number } | { durationMs: number } | undefined;

const resolved = (p: TimeParam, asOf: number) =>
  p === undefined ? undefined : 'instant' in p ? p.instant : asOf - p.durationMs;

export interface ReadsDeps {
  /** The app's database (a snapshot's rows are its own: recordedSource). */
  backend: Queryable;
  /** The recorder, when changes are recorded (absent with --record-changes off). */
  writer: () => ChangeWriter | undefined;
  /** The recorders' signal (CHANGES_CHANNEL), heard from every replica; absent: none is heard. */
  signals?: Pick<StorageBackend, 'listen'> | undefined;
  now: () => number;
}

export interface ObjectQuery {
  cluster: ClusterConnection;
  kind: KindInfo;
  access: ReadAccess;
  /** The path's namespace; undefined when it names none. */
  namespace: string | undefined;
  name: string;
}

/** The count of re-listens, kept beside the clusters' counts (no cluster id has a NUL). */
const RELISTENED = '\u0000relisten';

export class ChangeReads {
  private readonly feed = new ChangeFeedReads();
  private listening: Promise<Map<string, number> | undefined> | undefined;

  constructor(private readonly deps: ReadsDeps) {}

  /** The recorded rows of the cluster, after writing what is pending; undefined: none (a snapshot). */
  async source(cluster: ClusterConnection): Promise<RecordedSource | undefined> {
    const source = await recordedSource(cluster, this.deps.backend);
    if (source && !source.frozen) await this.deps.writer()?.flush();
    return source;
  }

  /** The instant the cluster's durations count back from (a snapshot's takenAt). */
  clock(cluster: ClusterConnection): number {
    return durationsEnd(cluster, this.deps.now());
  }

  range(cluster: ClusterConnection, since: TimeParam, until: TimeParam): TimeRange {
    const asOf = this.clock(cluster);
    return { sinceMs: resolved(since, asOf), untilMs: resolved(until, asOf) };
  }

  async history(q: ObjectQuery, since: TimeParam, until: TimeParam, limit: number, offset: number) {
    const source = await this.source(q.cluster);
    const ref = source && (await this.locate(source, q));
    if (!source || !ref) return { items: [], total: 0 };
    return objectHistory(source, ref, this.range(q.cluster, since, until), limit, offset);
  }

  async at(q: ObjectQuery, at: NonNullable<TimeParam>): Promise<KubeObject> {
    const source = await this.source(q.cluster);
    const ref = source && (await this.locate(source, q));
    const atMs = resolved(at, this.clock(q.cluster)) as number;
    const object = source && ref ? await objectAt(source, ref, atMs) : undefined;
    if (!object)
      throw new ProblemError(
        'resource_not_found',
        `${q.kind.resourceType} "${q.name}"${q.namespace !== undefined ? ` in namespace "${q.namespace}"` : ''} was not recorded at ${new Date(atMs).toISOString()}: before its first recorded version, deleted, or not recorded at all`,
      );
    // A recorded version of an object the apiserver served: the contract's open KubeObject.
    return object as KubeObject;
  }

  /** A page of the cluster's feed and its total. */
  async changes(
    cluster: ClusterConnection,
    access: ReadAccess,
    q: { kind: KindInfo | undefined; namespace: string | undefined; since: TimeParam; until: TimeParam },
    limit: number,
    offset: number,
    signal: AbortSignal,
  ) {
    const filter = await this.feedFilter(cluster, access, q, signal);
    const source = await this.source(cluster);
    if (!source) return { items: [], total: 0 };
    return this.feed.page(source, filter, limit, offset, await this.versionOf(source));
  }

  /** The feed's filter with what the caller may list (checked again by a watch with its credential). */
  async feedFilter(
    cluster: ClusterConnection,
    access: ReadAccess,
    q: { kind: KindInfo | undefined; namespace: string | undefined; since: TimeParam; until: TimeParam },
    signal: AbortSignal,
  ): Promise<FeedFilter> {
    const range = this.range(cluster, q.since, q.until);
    const allowed = await listable(access, cluster, q.kind, q.namespace, signal);
    return {
      ...(q.namespace !== undefined ? { namespace: q.namespace } : {}),
      ...(q.kind !== undefined ? { resourceType: q.kind.resourceType } : {}),
      ...(range.sinceMs !== undefined ? { sinceMs: range.sinceMs } : {}),
      ...(range.untilMs !== undefined ? { untilMs: range.untilMs } : {}),
      ...(allowed !== undefined ? { allowed } : {}),
    };
  }

  /** What identifies the rows as they are now, when every write is seen; undefined otherwise. */
  private async versionOf(source: RecordedSource): Promise<string | undefined> {
    if (source.frozen) return 'frozen';
    const writer = this.deps.writer();
    if (writer?.records(source.clusterId)) return `v${writer.version(source.clusterId)}`;
    // Another replica (or none) writes the rows: what identifies them is the batches it announced
    // (heard since this replica listens), the table's newest id (any insert moves it) and the
    // cluster's oldest row (retention removes from there); each is one seek.
    const heard = await this.heard();
    if (heard === undefined) return undefined;
    const newest = await source.db.get<{ id: number | null }>('SELECT MAX(id) AS id FROM change_history');
    const oldest = await source.db.get<{ id: number }>(
      'SELECT id FROM change_history WHERE cluster_id = $cluster ORDER BY time_ms, id LIMIT 1',
      { cluster: source.clusterId },
    );
    return `n${heard.get(source.clusterId) ?? 0}|${heard.get(RELISTENED) ?? 0}|g${newest?.id ?? 0}|o${oldest?.id ?? 0}`;
  }

  /** Announced batches per cluster, counted from the first read on; undefined without a signal. */
  private heard(): Promise<Map<string, number> | undefined> {
    const signals = this.deps.signals;
    if (!signals) return Promise.resolve(undefined);
    this.listening ??= (async () => {
      const counts = new Map<string, number>();
      const bump = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
      // A listen (re)established may have missed announcements: every remembered total is dropped.
      await signals.listen(CHANGES_CHANNEL, bump, () => bump(RELISTENED));
      return counts;
    })().catch(() => undefined);
    return this.listening;
  }

  /** The object's rows' ref after the `get` check; undefined when nothing of it is recorded. */
  private async locate(source: RecordedSource, q: ObjectQuery): Promise<ObjectRef | undefined> {
    const { kind, access, name } = q;
    const get = { verb: 'get', group: kind.group, resource: kind.plural, name } as const;
    if (!kind.namespaced) {
      await access.require(get);
      return { resourceType: kind.resourceType, namespace: '', name };
    }
    if (q.namespace !== undefined) {
      await access.require({ ...get, namespace: q.namespace });
      return { resourceType: kind.resourceType, namespace: q.namespace, name };
    }
    const holding = await namespacesHolding(source, kind.resourceType, name);
    const readable = access.open ? 'all' : await access.namespaces(get, holding);
    const namespaces = readable === 'all' ? holding : holding.filter((ns) => readable.has(ns));
    // Held only where the caller may not get it: the cluster-scope 403, which says nothing of where.
    if (namespaces.length === 0 && holding.length > 0) await access.require(get);
    if (namespaces.length > 1)
      throw new ProblemError(
        'conflict',
        `${kind.resourceType} "${name}" was recorded in several namespaces (${namespaces.join(', ')}); name the namespace in the path`,
        { namespaces },
      );
    const [namespace] = namespaces;
    return namespace === undefined ? undefined : { resourceType: kind.resourceType, namespace, name };
  }
}

/** `--authorize rbac`: the kinds and namespaces the feed may hold; undefined when not narrowed. */
async function listable(
  access: ReadAccess,
  cluster: ClusterConnection,
  kind: KindInfo | undefined,
  namespace: string | undefined,
  signal: AbortSignal,
): Promise<ReadonlyMap<string, readonly string[] | 'all'> | undefined> {
  if (access.open) return undefined;
  const listOf = (k: KindInfo) => ({ verb: 'list', group: k.group, resource: k.plural }) as const;
  if (kind !== undefined) {
    if (!kind.namespaced || namespace !== undefined) {
      await access.require({ ...listOf(kind), ...(kind.namespaced ? { namespace } : {}) });
      return undefined;
    }
    const allowed = await access.namespaces(listOf(kind), await clusterNamespaces(cluster, signal));
    return allowed === 'all' ? undefined : new Map([[kind.resourceType, [...allowed]]]);
  }
  const kinds = (await cluster.kinds(signal)).filter((k) => !isEventKind(k));
  const candidates = namespace !== undefined ? [namespace] : await clusterNamespaces(cluster, signal);
  const entries = await Promise.all(
    kinds.map(async (k): Promise<[string, readonly string[] | 'all']> => {
      if (!k.namespaced) return [k.resourceType, (await access.allows(listOf(k))) ? 'all' : []];
      const allowed = await access.namespaces(listOf(k), candidates);
      return [k.resourceType, allowed === 'all' ? 'all' : [...allowed]];
    }),
  );
  return new Map(entries);
}
