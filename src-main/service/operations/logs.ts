/**
 * The log read (getLogs): a pod's or a workload's logs as text or NDJSON, from the cluster or from
 * a snapshot's file. Rules: the read is authorized before any session opens (requireLogAccess);
 * a range that ended, or a snapshot, is never followed.
 */
import { NDJSON } from '../../../src-shared/contract/log-models';
import type { LogQuery, LogTime } from '../../../src-shared/contract/log-operations';
import { RESOURCE_KINDS } from '../../../src-shared/kube/kinds';
import { parseSelector } from '../../../src-shared/kube/selector';
import { compileLogFilter, type LogFilter } from '../../../src-shared/logs/index';
import type { ReadAccess } from '../auth/rbac/access';
import { resourceRows } from '../cache/list-queries';
import type { ClusterConnection } from '../clusters/cluster';
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import { durationsEnd } from '../events/clock';
import type { FollowedTails } from '../history/kept-logs/tails';
import { toProblem } from '../kube/kube-client';
import { type Logger, silentLogger } from '../logger';
import { formatLog } from '../logs/format';
import { linearRegex } from '../logs/linear-regex';
import type { PodLike } from '../logs/pod';
import { type LogSessionDeps, openLogSession } from '../logs/session';

export interface LogHandlerOptions {
  logger?: Logger;
  /** How often a container waiting to restart is looked at (tests shorten it). */
  pollMs?: number;
  discoverMs?: number;
  /** Where followed containers leave their last lines, kept if their pod is deleted (history/kept-logs). */
  tails?: FollowedTails;
}

function sessionDeps(cluster: ClusterConnection, opts: LogHandlerOptions): LogSessionDeps {
  const timeoutMs = cluster.timeoutMs;
  // A snapshot's logs are read from its file, as a request to its cluster would read them.
  const { frozen } = cluster;
  return {
    client: cluster.client,
    timeoutMs,
    ...(frozen ? { read: (req) => frozen.openLog(req) } : {}),
    ...(opts.tails && !frozen ? { keepTail: (t) => opts.tails!.follow(cluster.clusterId, t) } : {}),
    pollMs: opts.pollMs ?? 1_000,
    discoverMs: opts.discoverMs ?? 5_000,
    logger: opts.logger ?? silentLogger(),
    async getPod(namespace, name, signal) {
      try {
        return (await cluster.getObject(RESOURCE_KINDS.pod, name, namespace, signal)) as PodLike;
      } catch (err) {
        if (err instanceof ProblemError && err.code === 'resource_not_found') return null;
        throw err;
      }
    },
    getWorkload: (kind, namespace, name, signal) => cluster.getObject(kind, name, namespace, signal),
    async listPods(namespace, labelSelector, signal) {
      if (frozen) return snapshotPods(cluster, namespace, labelSelector, signal);
      try {
        const list = await cluster.client.getJson<{ items?: PodLike[] }>(
          `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`,
          { query: { labelSelector }, signal, timeoutMs },
        );
        return list.items ?? [];
      } catch (err) {
        // RBAC may allow reading a workload but not listing its pods: that is the cluster's refusal.
        throw toProblem(err, `pods of namespace ${namespace}`);
      }
    },
  };
}

/** A snapshot's pods of a namespace that a selector picks, from its pod cache (its file). */
async function snapshotPods(
  cluster: ClusterConnection,
  namespace: string,
  labelSelector: string,
  signal: AbortSignal,
): Promise<PodLike[]> {
  const parsed = parseSelector(labelSelector);
  if (!parsed.ok) return [];
  const cache = cluster.resources(RESOURCE_KINDS.pod);
  await cache.acquire(signal);
  return resourceRows(cache.read().view, namespace, parsed.selector).map(
    (e) => JSON.parse(e.json) as PodLike,
  );
}

/** A time of the query as an instant: a duration counts back from `asOf`. */
const instantOf = (t: LogTime | undefined, asOf: number) =>
  t === undefined ? undefined : 'instant' in t ? t.instant : asOf - t.durationMs;

/** The filter the query asks for, or null when it asks for none (every line is passed through). */
function filterOf(
  query: Omit<LogQuery, 'since' | 'until'> & { since: number | undefined; until: number | undefined },
): LogFilter | null {
  const { level, since, until, search, context } = query;
  if (level === undefined && since === undefined && until === undefined && search === undefined && !context) {
    return null;
  }
  const compiled = compileLogFilter(
    {
      ...(level ? { levels: level } : {}),
      ...(since !== undefined ? { from: since } : {}),
      ...(until !== undefined ? { until } : {}),
      ...(search
        ? { search: { pattern: search, regex: true, caseSensitive: query.ignoreCase !== true } }
        : {}),
      context: context ?? 0,
    },
    { regex: linearRegex },
  );
  if (!compiled.ok) throw new ProblemError('invalid_query', compiled.error);
  return compiled.filter;
}

/**
 * `--authorize rbac` (issue 26 §2): what `kubectl logs` needs. `get pods/log` in the namespace,
 * checked first so its refusal is the one named; then `get` of the object named, and for a
 * workload `list pods` too (its pods are found by its selector). Open access asks nothing.
 */
async function requireLogAccess(
  access: ReadAccess,
  namespace: string,
  kind: { group: string; plural: string; singular: string },
  name: string,
): Promise<void> {
  if (access.open) return;
  await access.require({ verb: 'get', group: '', resource: 'pods', subresource: 'log', namespace });
  await access.require({ verb: 'get', group: kind.group, resource: kind.plural, namespace, name });
  if (kind.singular !== 'pod') await access.require({ verb: 'list', group: '', resource: 'pods', namespace });
}

export function logHandlers(
  registry: ClusterRegistry,
  opts: LogHandlerOptions = {},
): Pick<OperationHandlers, 'getLogs'> {
  return {
    async getLogs({ params, query }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      await requireLogAccess(
        registry.access(cluster, ctx.principal),
        params.namespace,
        params.resourceType,
        params.resourceName,
      );
      // On a snapshot a duration counts back from when it was taken (events/clock.ts).
      const asOf = durationsEnd(cluster, Date.now());
      const since = instantOf(query.since, asOf);
      const until = instantOf(query.until, asOf);
      const filter = filterOf({ ...query, since, until });
      // A range that ended already cannot gain lines, nor can a snapshot: following would only wait forever.
      const follow =
        query.follow === true &&
        (until === undefined || until > Date.now()) &&
        cluster.snapshot === undefined;
      const session = await openLogSession(
        sessionDeps(cluster, opts),
        {
          namespace: params.namespace,
          kind: params.resourceType,
          name: params.resourceName,
          ...(query.container ? { container: query.container } : {}),
          follow,
          previous: query.previous === true,
          ...(since !== undefined ? { since } : {}),
          ...(until !== undefined ? { until } : {}),
          ...(query.tailLines !== undefined ? { tailLines: query.tailLines } : {}),
        },
        ctx.signal,
      );
      const ndjson = ctx.mediaType === NDJSON;
      return {
        data: {
          contentType: `${ndjson ? NDJSON : 'text/plain'}; charset=utf-8`,
          chunks: formatLog(
            session,
            { ndjson, timestamps: query.timestamps === true, filter, fields: query.fields !== false },
            ctx.signal,
          ),
        },
      };
    },
  };
}
