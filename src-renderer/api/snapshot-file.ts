import type { Cluster } from '../../src-shared/contract/models';
import { operations } from '../../src-shared/contract/operations';
import { fillPath } from '../../src-shared/contract/path';
import { isProblem, type Problem } from '../../src-shared/contract/problem';
import { SNAPSHOT_MEDIA_TYPE } from '../../src-shared/contract/snapshot-operations';
import { getConnection } from '../state/connection';
import { ApiError } from './client';

/**
 * Snapshot files in the browser, where the JSON transport does not fit: the download is a binary
 * body and the upload sends one. Both carry the session's Bearer token (so a plain link cannot
 * do), refresh it once on a 401 as every other call does, and turn refusals into ApiErrors with
 * the service's problem, so the views show its words.
 */

function problem(status: number, title: string, detail: string): Problem {
  return { type: 'about:blank', title, status, detail, code: 'internal_error' };
}

async function send(url: URL, init: RequestInit, retried = false): Promise<Response> {
  const keeper = getConnection().keeper;
  let res: Response;
  try {
    res = await fetch(url, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...(await keeper?.authorize()) },
    });
  } catch (err) {
    throw new ApiError(
      problem(0, 'Service unreachable', `The Skiff service did not answer (${(err as Error).message}).`),
    );
  }
  if (res.status === 401 && !retried && keeper && (await keeper.refresh())) return send(url, init, true);
  if (!res.ok) {
    const body: unknown = await res.json().catch(() => null);
    throw new ApiError(isProblem(body) ? body : problem(res.status, res.statusText, res.statusText));
  }
  return res;
}

/** The `.skiff` file of a finished capture job, as a Blob. */
export async function fetchSnapshotFile(snapshotId: string): Promise<Blob> {
  const url = new URL(fillPath(operations.downloadSnapshot.path, { snapshotId }), window.location.origin);
  const res = await send(url, { headers: { Accept: SNAPSHOT_MEDIA_TYPE } });
  return res.blob();
}

/** Sends a `.skiff` file to be opened as a read-only cluster (administrators); answers the new cluster. */
export async function uploadSnapshotFile(file: Blob): Promise<Cluster> {
  const url = new URL(operations.openSnapshot.path, window.location.origin);
  const res = await send(url, {
    method: 'POST',
    headers: { 'Content-Type': SNAPSHOT_MEDIA_TYPE, Accept: 'application/json' },
    body: file,
  });
  return (await res.json()) as Cluster;
}

/** Hands a Blob to the browser's own download, under `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked a while later: revoking at once can cancel a download the browser has not started yet.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
