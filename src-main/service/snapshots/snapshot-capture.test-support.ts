/**
 * What the snapshot capture tests share: start a capture over HTTP, poll it to its end, download
 * its file into a folder, and read the file with node:sqlite as any other tool would.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect } from 'vitest';
import type { SnapshotJob } from '../../../src-shared/contract/snapshot-models';
import { eventually } from '../test-support/eventually.test-support';
import { CLUSTER_ID, type Stack } from '../test-support/harness.test-support';

export const SNAPSHOTS = `/v1/workspaces/default/clusters/${CLUSTER_ID}/snapshots`;

export async function startCapture(stack: Stack, body?: unknown): Promise<SnapshotJob> {
  const res = await stack.send<SnapshotJob>('POST', SNAPSHOTS, body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.headers.get('location')).toBe(`/v1/snapshots/${res.body.snapshotId}`);
  return res.body;
}

/** Polls the job until it is no longer running. */
export async function finished(stack: Stack, snapshotId: string, timeoutMs = 15_000): Promise<SnapshotJob> {
  return eventually(async () => {
    const res = await stack.get<SnapshotJob>(`/v1/snapshots/${snapshotId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).not.toBe('running');
    return res.body;
  }, timeoutMs);
}

export interface Download {
  path: string;
  headers: Headers;
  bytes: number;
}

/** Downloads a done job's file into `dir` under the name the answer offers. */
export async function download(stack: Stack, snapshotId: string, dir: string): Promise<Download> {
  const res = await fetch(`${stack.url}/v1/snapshots/${snapshotId}/file`, { headers: stack.session.headers });
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  const name = /attachment; filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1];
  expect(name).toBeDefined();
  const path = join(dir, name!);
  await writeFile(path, bytes);
  return { path, headers: res.headers, bytes: bytes.length };
}

/** Runs `fn` on the file opened read-only, closing it afterwards. */
export function readSnapshot<T>(path: string, fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

export function metaOf(db: DatabaseSync): Record<string, string> {
  const rows = db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>;
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

export interface GapRow {
  part: string;
  target: string | null;
  reason: string;
}

export function gapsOf(db: DatabaseSync): GapRow[] {
  return db.prepare('SELECT part, target, reason FROM gaps').all() as unknown as GapRow[];
}
