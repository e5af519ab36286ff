import type { KeptRunRecord } from '../../src-shared/contract/kept-log-operations';
import { operations } from '../../src-shared/contract/operations';
import { fillPath } from '../../src-shared/contract/path';
import { getConnection } from '../state/connection';
import { refusalOf, streamProblem } from './chunk-stream';
import { type ApiClient, ApiError } from './client';
import type { Scope } from './queries';

/**
 * The logs Skiff kept of a pod's dead containers (issue 27 §3): the list of kept runs, through the
 * client like any read, and one run's lines as text over /v1 HTTP with the session's token (a
 * kept run is bounded: at most --kept-log-lines lines, read whole).
 */

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
  const keeper = getConnection().keeper;
  const path = fillPath(operations.getKeptLog.path, {
    ...scope,
    namespace: target.namespace,
    resourceName: target.pod,
    container: run.container,
    restartCount: String(run.restartCount),
  });
  const url = new URL(path, window.location.origin);
  url.searchParams.set('podUid', run.podUid);
  if (options.timestamps) url.searchParams.set('timestamps', 'true');
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
