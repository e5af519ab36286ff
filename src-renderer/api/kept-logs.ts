import type { KeptRunRecord } from '../../src-shared/contract/kept-log-operations';
import type { LogRecord } from '../../src-shared/contract/log-models';
import { operations } from '../../src-shared/contract/operations';
import { fillPath } from '../../src-shared/contract/path';
import type { LogStreamBridge } from '../../src-shared/ipc/log-stream';
import { getConnection } from '../state/connection';
import { openBridgeStream, refusalOf, streamProblem } from './chunk-stream';
import { type ApiClient, ApiError } from './client';
import type { Scope } from './queries';

/**
 * The logs Skiff kept of a pod's dead containers (issue 27 §3): the list of kept runs, through the
 * client like any read, and one run's lines as text: over the desktop app's kept log stream
 * channel when it is there, else over /v1 HTTP with the session's token (a kept run is bounded: at
 * most --kept-log-lines lines, read whole).
 */

declare global {
  interface Window {
    /** The desktop app's kept log stream channel (src-preload/index.ts); absent in a browser. */
    skiffKeptLogs?: LogStreamBridge;
  }
}

export interface KeptPod {
  namespace: string;
  pod: string;
}

export async function keptRuns(
  client: ApiClient,
  scope: Scope,
  target: KeptPod,
  signal?: AbortSignal,
): Promise<KeptRunRecord[]> {
  const r = await client.call(
    'listKeptLogs',
    { params: { ...scope, namespace: target.namespace, resourceName: target.pod }, query: {} },
    signal ? { signal } : {},
  );
  return r.data;
}

const TITLE = 'Kept log unavailable';

/** The kept lines of one run, with the kubelet's timestamps when asked for. */
export async function keptRunText(
  scope: Scope,
  target: KeptPod,
  run: Pick<KeptRunRecord, 'container' | 'restartCount' | 'podUid'>,
  options: { timestamps?: boolean; signal?: AbortSignal } = {},
  retried = false,
): Promise<string> {
  const params = {
    ...scope,
    namespace: target.namespace,
    resourceName: target.pod,
    container: run.container,
    restartCount: String(run.restartCount),
  };
  const query: Record<string, string> = {
    podUid: run.podUid,
    ...(options.timestamps ? { timestamps: 'true' } : {}),
  };
  if (typeof window !== 'undefined' && window.skiffKeptLogs)
    return bridgeRunText(window.skiffKeptLogs, params, query, options.timestamps === true);
  const keeper = getConnection().keeper;
  const url = new URL(fillPath(operations.getKeptLog.path, params), window.location.origin);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { Accept: 'text/plain', ...(await keeper?.authorize()) },
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (err) {
    throw new ApiError(
      streamProblem(TITLE, 0, `The Skiff service did not answer (${(err as Error).message}).`),
    );
  }
  if (res.status === 401 && !retried && keeper && (await keeper.refresh()))
    return keptRunText(scope, target, run, options, true);
  if (!res.ok) throw new ApiError(await refusalOf(res, TITLE));
  return res.text();
}

/**
 * A kept run's lines over a port stream bridge (the desktop app), which always answers NDJSON:
 * its `line` records as text/plain would show them, an `error` record as the problem it carries.
 */
export async function bridgeRunText(
  bridge: LogStreamBridge,
  params: Record<string, string>,
  query: Record<string, string>,
  timestamps: boolean,
): Promise<string> {
  const stream = await openBridgeStream(bridge, { params, query, credit: 8 });
  let ndjson = '';
  for (let chunk = await stream.next(); chunk !== null; chunk = await stream.next()) ndjson += chunk;
  let text = '';
  for (const line of ndjson.split('\n')) {
    if (line === '') continue;
    const record = JSON.parse(line) as LogRecord;
    if (record.type === 'error') throw new ApiError(record.problem);
    if (record.type !== 'line') continue;
    text += `${timestamps && record.ts !== undefined ? `${record.ts} ` : ''}${record.raw}\n`;
  }
  return text;
}
