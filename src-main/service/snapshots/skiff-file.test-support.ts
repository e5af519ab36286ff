import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect } from 'vitest';
import type { SnapshotGap } from '../../../src-shared/contract/snapshot-models';
import { ProblemError } from '../errors';
import { NINE } from './capture-kinds';
import { SNAPSHOT_FORMAT, SNAPSHOT_SCHEMA_VERSION, type SnapshotMeta } from './format';
import { checkSnapshot } from './inspect';
import type { SnapshotKind } from './kinds-table';
import { openSnapshotFile, type SnapshotFile } from './reader';
import { SnapshotWriter } from './writer';

/**
 * Test support for the unit tests of the `.skiff` writer, check and reader: a temp folder per
 * test, small files written through the writer capture uses from rows the test names, and those
 * files checked and opened as the service does.
 */

/** A folder of the test's own under the temp dir; `remove` deletes it and all it holds. */
export function tempFolder(): { dir: string; path: (name: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'skiff-snapshot-unit-'));
  return {
    dir,
    path: (name) => join(dir, name),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const META: Omit<SnapshotMeta, 'complete'> = {
  format: SNAPSHOT_FORMAT,
  schemaVersion: String(SNAPSHOT_SCHEMA_VERSION),
  skiffVersion: '9.9.9-test',
  context: 'prod-eu',
  server: 'https://prod-eu.example:6443',
  kubernetesVersion: 'v1.31.4',
  takenAt: '2026-03-01T12:00:00.000Z',
  finishedAt: '2026-03-01T12:00:07.250Z',
  durationMs: '7250',
  logLines: '1000',
  logs: 'all',
};

export interface Rows {
  objects?: Array<[kind: string, namespace: string, name: string, json: string]>;
  events?: Array<[uid: string, namespace: string, lastTimestamp: string, expired: boolean, json: string]>;
  logs?: Array<[namespace: string, pod: string, container: string, previous: boolean, lines: string[]]>;
  metrics?: Array<[kind: 'pod' | 'node', namespace: string, name: string, json: string]>;
  gaps?: SnapshotGap[];
  /** The kinds table; absent: the rows of the nine kinds `objects` has, as a capture writes them. */
  kinds?: SnapshotKind[];
}

/** Writes a complete snapshot file at `path` (through a `.partial` beside it); returns its size. */
export function writeSnapshot(
  path: string,
  rows: Rows,
  meta: Partial<Omit<SnapshotMeta, 'complete'>> = {},
): number {
  const writer = new SnapshotWriter(`${path}.partial`);
  try {
    writer.begin();
    const used = new Set((rows.objects ?? []).map((o) => o[0]));
    for (const k of rows.kinds ?? NINE.filter((n) => used.has(n.resourceType))) writer.kind(k);
    for (const o of rows.objects ?? []) writer.object(...o);
    for (const e of rows.events ?? []) writer.event(...e);
    for (const l of rows.logs ?? []) writer.log(...l);
    for (const m of rows.metrics ?? []) writer.metric(...m);
    writer.commit();
    return writer.finish({ ...META, ...meta }, rows.gaps ?? [], path);
  } catch (err) {
    writer.discard();
    throw err;
  }
}

/** Makes a written file a version-1 file, as a Skiff before the kinds table wrote it. */
export function toVersion1(path: string): void {
  alterFile(path, "DROP TABLE kinds; UPDATE meta SET value = '1' WHERE key = 'schemaVersion'");
}

/** Runs SQL on a written file (to break it as a test needs), then closes it. */
export function alterFile(path: string, sql: string, ...params: Array<string | null>): void {
  const db = new DatabaseSync(path);
  try {
    if (params.length === 0) db.exec(sql);
    else db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

/** Every row of a table of a file, in rowid order where it has one. */
export function tableRows<T>(path: string, sql: string): T[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** A Kubernetes object's text as the capture writes it (apiVersion and kind first). */
export const objectJson = (apiVersion: string, kind: string, namespace: string, name: string, extra = {}) =>
  JSON.stringify({
    apiVersion,
    kind,
    metadata: { name, ...(namespace ? { namespace } : {}), uid: `uid-${namespace}-${name}` },
    ...extra,
  });

/** Checks a file as opening does (in a process of its own) and opens it for reading. */
export async function openChecked(path: string, shownAs = path): Promise<SnapshotFile> {
  return openSnapshotFile(path, await checkSnapshot(path, { shownAs }), shownAs);
}

/** What checking `path` throws (it must throw a ProblemError). */
export async function refusal(path: string, shownAs?: string): Promise<ProblemError> {
  const thrown = await checkSnapshot(path, shownAs === undefined ? {} : { shownAs }).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(thrown).toBeInstanceOf(ProblemError);
  return thrown as ProblemError;
}
