/**
 * `…/diagnosis/…`: what changed before an object started failing (history/diagnosis/). The kind
 * resolves as endpoints 1–4 resolve it (400 invalid_resource_type with the canonical name as the
 * hint; 404 for a kind the cluster does not serve); the object comes from its kind's watch cache
 * (404 when absent; named without a namespace, looked up across namespaces, 409 when several hold
 * the name). With `--authorize rbac` it needs `get` of the object where it is (403 naming the
 * permission), checked before the lookup; named without a namespace, it is looked for only where
 * the caller may get it. An answer read from a stale cache carries x-Stale-Since.
 */
import type { Reply } from '../../../src-shared/contract/define';
import type { Diagnosis } from '../../../src-shared/contract/diagnosis-operations';
import { locateReadable } from '../auth/read-scope';
import type { ResourceEntry } from '../cache/entries';
import { resourceRows } from '../cache/list-queries';
import type { ClusterConnection } from '../clusters/cluster';
import type { KindInfo } from '../clusters/kind-info';
import type { ClusterRegistry } from '../clusters/registry';
import type { CallContext, OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import type { EventHistory } from '../events/history/index';
import { diagnose } from '../history/diagnosis/diagnose';
import type { Recorded } from '../history/index';

function located(
  kind: KindInfo,
  rows: readonly ResourceEntry[],
  name: string,
  namespace: string | undefined,
) {
  const matches = rows.filter((r) => r.name === name);
  if (matches.length === 0) {
    const where = namespace === undefined ? '' : ` in namespace ${namespace}`;
    throw new ProblemError('resource_not_found', `${kind.resourceType} "${name}"${where} not found`);
  }
  if (matches.length > 1) {
    const namespaces = matches.map((r) => r.namespace);
    throw new ProblemError(
      'conflict',
      `${kind.resourceType} "${name}" exists in several namespaces (${namespaces.join(', ')}); use /diagnosis/namespaces/{namespace}/${kind.resourceType}/${name}`,
      { namespaces },
    );
  }
  return matches[0] as ResourceEntry;
}

/** Writes what the change recorder holds (history/changes/), so a change just seen is read. */
function flushOf(recorded: Recorded | undefined): () => Promise<void> {
  return async () => {
    await recorded?.changes?.flush();
  };
}

export function diagnosisHandlers(
  registry: ClusterRegistry,
  history: EventHistory,
  recorded: Recorded | undefined,
  now: () => number,
): Pick<OperationHandlers, 'getDiagnosis' | 'getNamespacedDiagnosis'> {
  async function answer(
    cluster: ClusterConnection,
    kind: KindInfo,
    namespace: string | undefined,
    name: string,
    windowMs: number,
    ctx: CallContext,
  ): Promise<Reply<Diagnosis>> {
    const access = registry.access(cluster, ctx.principal);
    if (!access.open) {
      // Named without a namespace: looked for only where the caller may get it (auth/read-scope.ts).
      if (kind.namespaced && namespace === undefined)
        namespace = await locateReadable(access, cluster, kind, name, ctx.signal);
      const get = { verb: 'get', group: kind.group, resource: kind.plural, name } as const;
      await access.require({ ...get, ...(namespace !== undefined ? { namespace } : {}) });
    }
    const cache = cluster.resources(kind);
    await cache.acquire(ctx.signal);
    const read = cache.read();
    const entry = located(
      kind,
      resourceRows(read.view, kind.namespaced ? namespace : '', undefined),
      name,
      namespace,
    );
    if (!recorded) throw new ProblemError('internal_error', 'the recorded history is not available');
    const data = await diagnose(
      {
        cluster,
        history,
        backend: recorded.deps.backend,
        access,
        flush: flushOf(recorded),
        now,
        signal: ctx.signal,
      },
      kind,
      entry,
      windowMs,
    );
    return read.staleSince ? { data, staleSince: read.staleSince } : { data };
  }
  return {
    async getDiagnosis({ params, query }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kind = await cluster.kind(params.resourceType, ctx.signal);
      return answer(cluster, kind, undefined, params.resourceName, query.window, ctx);
    },
    async getNamespacedDiagnosis({ params, query }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kind = await cluster.kind(params.resourceType, ctx.signal, { namespaced: true });
      return answer(cluster, kind, params.namespace, params.resourceName, query.window, ctx);
    },
  };
}
