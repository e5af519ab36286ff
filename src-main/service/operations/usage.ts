/**
 * `…/usage/namespaces/{namespace}/pod/{name}` and `…/usage/node/{name}` (issue 27 §2): a pod's or a
 * node's recorded usage within [since, until], with what its charts draw beside it.
 *
 * Rules: with `--authorize rbac` a pod's usage needs `get pods` in its namespace and a node's
 * `get nodes`, checked before anything is read (403 naming the permission). `until` defaults to
 * now (a snapshot: its takenAt) and `since` to an hour before `until`; durations count back from
 * the same clock as the events' (events/clock.ts). Samples come through recordedSource, so an
 * opened snapshot answers from its file. The object behind the bounds is the cluster's own (the
 * watch cache when live, else one read), else the change history's last whole copy: a pod the
 * cluster no longer has still answers its recorded usage, and a cluster that cannot be reached
 * never makes the read fail. Nothing recorded is 200 with no points.
 */
import type { PodUsage } from '../../../src-shared/contract/usage-operations';
import { RESOURCE_KINDS } from '../../../src-shared/kube/kinds';
import type { ClusterConnection } from '../clusters/cluster';
import type { KindInfo } from '../clusters/kind-info';
import type { ClusterRegistry } from '../clusters/registry';
import type { CallContext, OperationHandlers } from '../context';
import { durationsEnd } from '../events/clock';
import type { Recorded } from '../history/index';
import { type RecordedSource, recordedSource } from '../history/source';
import {
  containerBounds,
  keptOomKills,
  lastRecordedObject,
  nodeBounds,
  oomKillsWithin,
  statusOomKills,
  toPoints,
} from '../history/usage/reads';
import type { Series } from '../history/usage/store';

type Instant = { instant: number } | { durationMs: number } | undefined;

const HOUR_MS = 3_600_000;

/** [since, until] in ms: until defaults to the clock, since to an hour before until. */
export function usageRange(
  query: { since?: Instant; until?: Instant },
  clock: number,
): { sinceMs: number; untilMs: number } {
  const at = (p: Instant) =>
    p === undefined ? undefined : 'instant' in p ? p.instant : clock - p.durationMs;
  const untilMs = at(query.until) ?? clock;
  return { sinceMs: at(query.since) ?? untilMs - HOUR_MS, untilMs };
}

/** The object as the cluster has it, or undefined when it has none (or cannot say). */
async function currentObject(
  cluster: ClusterConnection,
  kind: KindInfo,
  namespace: string | undefined,
  name: string,
  signal: AbortSignal,
): Promise<unknown> {
  const cached = cluster.cachedObject(kind, name, namespace);
  if (cached !== undefined) return JSON.parse(cached) as unknown;
  try {
    return await cluster.getObject(kind, name, namespace, signal);
  } catch {
    if (signal.aborted) throw signal.reason;
    return undefined;
  }
}

export function usageHandlers(
  registry: ClusterRegistry,
  recorded: Recorded | undefined,
  now: () => number = Date.now,
): Pick<OperationHandlers, 'getPodUsage' | 'getNodeUsage'> {
  const rows = async (
    source: RecordedSource | undefined,
    series: Series,
    sinceMs: number,
    untilMs: number,
  ) => {
    if (!source || !recorded?.usage || sinceMs > untilMs) return [];
    return recorded.usage.series(source, series, sinceMs, untilMs);
  };
  const open = async (params: { workspaceId: string; clusterId: string }, ctx: CallContext) => {
    const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
    return { cluster, access: registry.access(cluster, ctx.principal) };
  };
  const sourceOf = (cluster: ClusterConnection) =>
    recorded ? recordedSource(cluster, recorded.deps.backend) : Promise.resolve(undefined);

  return {
    async getPodUsage({ params, query }, ctx) {
      const { namespace, resourceName: name } = params;
      const { cluster, access } = await open(params, ctx);
      await access.require({ verb: 'get', group: '', resource: 'pods', namespace, name });
      const { sinceMs, untilMs } = usageRange(query, durationsEnd(cluster, now()));
      const source = await sourceOf(cluster);
      const points = toPoints(await rows(source, { subject: 'pod', namespace, name }, sinceMs, untilMs));
      const kind = RESOURCE_KINDS.pod as KindInfo;
      let pod = await currentObject(cluster, kind, namespace, name, ctx.signal);
      if (pod === undefined && source) pod = await lastRecordedObject(source, 'pod', namespace, name);
      const kills = [...statusOomKills(pod), ...(source ? await keptOomKills(source, namespace, name) : [])];
      const data: PodUsage = {
        points,
        containers: containerBounds(pod),
        oomKills: oomKillsWithin(kills, sinceMs, untilMs),
      };
      return { data };
    },
    async getNodeUsage({ params, query }, ctx) {
      const { resourceName: name } = params;
      const { cluster, access } = await open(params, ctx);
      await access.require({ verb: 'get', group: '', resource: 'nodes', name });
      const { sinceMs, untilMs } = usageRange(query, durationsEnd(cluster, now()));
      const source = await sourceOf(cluster);
      const points = toPoints(await rows(source, { subject: 'node', namespace: '', name }, sinceMs, untilMs));
      const kind = RESOURCE_KINDS.node as KindInfo;
      let node = await currentObject(cluster, kind, undefined, name, ctx.signal);
      if (node === undefined && source) node = await lastRecordedObject(source, 'node', '', name);
      return { data: { points, ...nodeBounds(node) } };
    },
  };
}
