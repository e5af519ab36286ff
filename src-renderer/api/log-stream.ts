import { type LogResourceType, NDJSON } from '../../src-shared/contract/log-models';
import type { LogQueryInput } from '../../src-shared/contract/log-operations';
import { operations } from '../../src-shared/contract/operations';
import { fillPath } from '../../src-shared/contract/path';
import { isProblem, type Problem } from '../../src-shared/contract/problem';
import type { LogStreamBridge, LogStreamDown } from '../../src-shared/ipc/log-stream';
import { getConnection } from '../state/connection';
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
 * not read, and either way the service stops reading from the cluster.
 */
export interface LogStream {
  /** The next chunk, or null at the end of the stream. Rejects with an ApiError if it failed. */
  next(): Promise<string | null>;
  cancel(): void;
}

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

function problem(status: number, detail: string): Problem {
  return { type: 'about:blank', title: 'Log stream failed', status, detail, code: 'internal_error' };
}

function ipcStream(bridge: LogStreamBridge, target: LogTarget, query: LogQueryInput): Promise<LogStream> {
  return new Promise((resolve, reject) => {
    const chunks: string[] = [];
    let ended = false;
    let failure: ApiError | null = null;
    let wake: (() => void) | null = null;
    const notify = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    const stream: LogStream = {
      async next() {
        while (chunks.length === 0 && !ended && !failure) await new Promise<void>((r) => (wake = r));
        const chunk = chunks.shift();
        if (chunk !== undefined) {
          // One chunk consumed, one more may come: the window stays IPC_WINDOW wide.
          handle.credit(1);
          return chunk;
        }
        if (failure) throw failure;
        return null;
      },
      cancel() {
        ended = true;
        handle.cancel();
        notify();
      },
    };
    const handle = bridge.open(
      { params: paramsOf(target), query: queryOf(query), credit: IPC_WINDOW },
      (m: LogStreamDown) => {
        if (m.type === 'open') resolve(stream);
        else if (m.type === 'chunk') chunks.push(m.data);
        else if (m.type === 'end') ended = true;
        else {
          failure = new ApiError(m.problem);
          reject(failure);
        }
        notify();
      },
    );
  });
}

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
    throw new ApiError(problem(0, `The Skiff service did not answer (${(err as Error).message}).`));
  }
  if (res.status === 401 && !retried && keeper && (await keeper.refresh()))
    return httpStream(target, query, true);
  if (!res.ok || !res.body) {
    const body: unknown = await res.json().catch(() => null);
    throw new ApiError(isProblem(body) ? body : problem(res.status, res.statusText));
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  return {
    async next() {
      for (;;) {
        let read: ReadableStreamReadResult<Uint8Array>;
        try {
          read = await reader.read();
        } catch (err) {
          if (abort.signal.aborted) return null;
          throw new ApiError(problem(0, `The log stream broke off (${(err as Error).message}).`));
        }
        if (read.done) return null;
        const text = decoder.decode(read.value, { stream: true });
        if (text !== '') return text;
      }
    },
    cancel() {
      abort.abort();
    },
  };
}

/**
 * Opens the logs of a pod or workload: over the desktop app's IPC channel when it is there, else
 * over /v1 HTTP with the browser session's token. Resolves once the service accepted the
 * request; a refusal (a container waiting to start, no previous instance) rejects with its problem.
 */
export function openLogStream(target: LogTarget, query: LogQueryInput): Promise<LogStream> {
  if (typeof window !== 'undefined' && window.skiffLogs) return ipcStream(window.skiffLogs, target, query);
  return httpStream(target, query);
}
