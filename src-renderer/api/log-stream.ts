import { type LogResourceType, NDJSON } from '../../src-shared/contract/log-models';
import type { LogQueryInput } from '../../src-shared/contract/log-operations';
import { operations } from '../../src-shared/contract/operations';
import { fillPath } from '../../src-shared/contract/path';
import type { LogStreamBridge } from '../../src-shared/ipc/log-stream';
import { getConnection } from '../state/connection';
import { bodyChunks, type ChunkStream, openBridgeStream, refusalOf, streamProblem } from './chunk-stream';
import { ApiError } from './client';

declare global {
  interface Window {
    /** The desktop app's log stream channel (src-preload/log-stream.ts); absent in a browser. */
    skiffLogs?: LogStreamBridge;
  }
}

export interface LogTarget {
  workspaceId: string;
  clusterId: string;
  namespace: string;
  resourceType: LogResourceType;
  name: string;
}

/**
 * A log stream as the viewer consumes it: chunks of application/x-ndjson, pulled one at a time.
 * Not pulling is the flow control: over IPC no credit is granted, over HTTP the response body is
 * not read, and either way the service stops reading from the cluster. Failures are ApiErrors.
 */
export type LogStream = ChunkStream;

/** Chunks main may send ahead of consumption: enough to hide the IPC round trip, small enough to bound memory. */
const IPC_WINDOW = 4;

function paramsOf(t: LogTarget): Record<string, string> {
  return {
    workspaceId: t.workspaceId,
    clusterId: t.clusterId,
    namespace: t.namespace,
    resourceType: t.resourceType,
    resourceName: t.name,
  };
}

function queryOf(q: LogQueryInput): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(q)) if (typeof v === 'string' && v !== '') out[k] = v;
  return out;
}

const TITLE = 'Log stream failed';

async function httpStream(target: LogTarget, query: LogQueryInput, retried = false): Promise<LogStream> {
  const keeper = getConnection().keeper;
  const url = new URL(fillPath(operations.getLogs.path, paramsOf(target)), window.location.origin);
  for (const [k, v] of Object.entries(queryOf(query))) url.searchParams.set(k, v);
  const abort = new AbortController();
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { Accept: NDJSON, ...(await keeper?.authorize()) },
      signal: abort.signal,
    });
  } catch (err) {
    throw new ApiError(
      streamProblem(TITLE, 0, `The Skiff service did not answer (${(err as Error).message}).`),
    );
  }
  if (res.status === 401 && !retried && keeper && (await keeper.refresh()))
    return httpStream(target, query, true);
  if (!res.ok || !res.body) throw new ApiError(await refusalOf(res, TITLE));
  return bodyChunks(
    res.body,
    abort,
    (err) => new ApiError(streamProblem(TITLE, 0, `The log stream broke off (${err.message}).`)),
  );
}

/**
 * Opens the logs of a pod or workload: over the desktop app's IPC channel when it is there, else
 * over /v1 HTTP with the browser session's token. Resolves once the service accepted the
 * request; a refusal (a container waiting to start, no previous instance) rejects with its problem.
 */
export function openLogStream(target: LogTarget, query: LogQueryInput): Promise<LogStream> {
  if (typeof window !== 'undefined' && window.skiffLogs)
    return openBridgeStream(window.skiffLogs, {
      params: paramsOf(target),
      query: queryOf(query),
      credit: IPC_WINDOW,
    });
  return httpStream(target, query);
}
