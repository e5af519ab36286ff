/**
 * The kept logs of dead containers (listKeptLogs, getKeptLog; issue 27 §3): read from the rows
 * history/kept-logs keeps, for a live cluster from the app's database and for an opened snapshot
 * from its own tables (recordedSource), whether or not the pod still exists.
 *
 * Rules: the read is authorized as a live log read of the pod (`get pods/log` in its namespace,
 * under --authorize rbac) before any row is read; one run's lines are answered in the live log
 * endpoint's media types and through its formatter and filters (logs/format.ts), so a client
 * reads a kept run as it reads a live one; a run not kept is a 404 problem, an empty list is not.
 */
import { NDJSON } from '../../../src-shared/contract/log-models';
import type { LevelSet } from '../../../src-shared/logs/index';
import { compileLogFilter, type LogFilter, parseLogLine } from '../../../src-shared/logs/index';
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import type { Recorded } from '../history/index';
import { listRuns, readRun } from '../history/kept-logs/store';
import { type RecordedSource, recordedSource } from '../history/source';
import type { LogEvent } from '../logs/events';
import { formatLog } from '../logs/format';
import { linearRegex } from '../logs/linear-regex';
import type { LogSession } from '../logs/session';

/** The filter the query asks for, or null when it asks for none. */
function filterOf(query: {
  level?: LevelSet | undefined;
  search?: string | undefined;
  ignoreCase?: boolean | undefined;
  context?: number | undefined;
}): LogFilter | null {
  const { level, search, context } = query;
  if (level === undefined && search === undefined && !context) return null;
  const compiled = compileLogFilter(
    {
      ...(level ? { levels: level } : {}),
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

/** A finished session of kept lines, as the live formatter reads one. */
function keptSession(pod: string, container: string, lines: readonly string[]): LogSession {
  async function* events(): AsyncGenerator<LogEvent[], void, undefined> {
    if (lines.length === 0) return;
    yield lines.map((line) => ({ pod, container, entry: parseLogLine(line, { timestamps: true }) }));
  }
  return { multiPod: false, events: events() };
}

export function keptLogHandlers(
  registry: ClusterRegistry,
  recorded: Recorded | undefined,
): Pick<OperationHandlers, 'listKeptLogs' | 'getKeptLog'> {
  /** The cluster's kept rows, once the caller may read the pod's logs; undefined: none recorded. */
  async function source(
    params: { workspaceId: string; clusterId: string; namespace: string },
    principal: Parameters<ClusterRegistry['cluster']>[2],
  ): Promise<RecordedSource | undefined> {
    const cluster = registry.cluster(params.workspaceId, params.clusterId, principal);
    const access = registry.access(cluster, principal);
    if (!access.open)
      await access.require({
        verb: 'get',
        group: '',
        resource: 'pods',
        subresource: 'log',
        namespace: params.namespace,
      });
    return recorded ? recordedSource(cluster, recorded.deps.backend) : undefined;
  }

  return {
    async listKeptLogs({ params }, ctx) {
      const src = await source(params, ctx.principal);
      if (!src) return { data: [] };
      const runs = await listRuns(src, params.namespace, params.resourceName);
      return { data: runs };
    },

    async getKeptLog({ params, query }, ctx) {
      const src = await source(params, ctx.principal);
      const filter = filterOf(query);
      const ref = {
        namespace: params.namespace,
        pod: params.resourceName,
        container: params.container,
        restartCount: params.restartCount,
        ...(query.podUid !== undefined ? { podUid: query.podUid } : {}),
      };
      const lines = src ? await readRun(src, ref) : undefined;
      if (lines === undefined)
        throw new ProblemError(
          'resource_not_found',
          `no kept log of container ${params.container} run ${params.restartCount} of pod ${params.resourceName} in namespace ${params.namespace}`,
        );
      const tail =
        query.tailLines === undefined ? lines : query.tailLines === 0 ? [] : lines.slice(-query.tailLines);
      const ndjson = ctx.mediaType === NDJSON;
      return {
        data: {
          contentType: `${ndjson ? NDJSON : 'text/plain'}; charset=utf-8`,
          chunks: formatLog(
            keptSession(params.resourceName, params.container, tail),
            { ndjson, timestamps: query.timestamps === true, filter, fields: query.fields !== false },
            ctx.signal,
          ),
        },
      };
    },
  };
}
