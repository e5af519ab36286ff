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
import type { ChangeRow, KeptLogRow, UsageRow } from './recorded-tables';
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
  /** What Skiff had recorded (version 3). */
  changes?: ChangeRow[];
  usage?: UsageRow[];
  keptLogs?: KeptLogRow[];
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
    for (const c of rows.changes ?? []) writer.recorded('change_history', c);
    for (const u of rows.usage ?? []) writer.recorded('usage_samples', u);
    for (const k of rows.keptLogs ?? []) writer.recorded('kept_logs', k);
    writer.commit();
    return writer.finish({ ...META, ...meta }, rows.gaps ?? [], path);
  } catch (err) {
    writer.discard();
    throw err;
  }
}

/** The tables version 3 added (what Skiff had recorded): dropped to make an older file. */
const DROP_RECORDED = 'DROP TABLE change_history; DROP TABLE usage_samples; DROP TABLE kept_logs;';

/** Makes a written file a version-1 file, as a Skiff before the kinds table wrote it. */
export function toVersion1(path: string): void {
  alterFile(
    path,
    `${DROP_RECORDED} DROP TABLE kinds; UPDATE meta SET value = '1' WHERE key = 'schemaVersion'`,
  );
}

/** Makes a written file a version-2 file, as a Skiff before the recorded tables wrote it. */
export function toVersion2(path: string): void {
  alterFile(path, `${DROP_RECORDED} UPDATE meta SET value = '2' WHERE key = 'schemaVersion'`);
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

/** A recorded change as the app's change_history holds one (cluster_id aside); `over` changes fields. */
export const changeRow = (over: Partial<ChangeRow> = {}): ChangeRow => ({
  id: 1,
  time_ms: Date.parse('2026-03-01T11:50:00Z'),
  resource_type: 'deployment',
  kind: 'Deployment',
  namespace: 'shop',
  name: 'checkout',
  uid: 'uid-shop-checkout',
  change: 'updated',
  resource_version: '42',
  patch: JSON.stringify([
    { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'app:1.4.2' },
  ]),
  summary: 'image app: 1.4.1 → 1.4.2',
  object: null,
  recorded_at: Date.parse('2026-03-01T11:50:00Z'),
  ...over,
});

/** A usage sample as the app's usage_samples holds one (cluster_id aside). */
export const usageRow = (over: Partial<UsageRow> = {}): UsageRow => ({
  subject: 'pod',
  namespace: 'shop',
  name: 'checkout-1',
  time_ms: Date.parse('2026-03-01T11:55:00Z'),
  resolution_ms: 30_000,
  containers: JSON.stringify({ app: { cpuMillicores: 250, memoryBytes: 128 * 2 ** 20 } }),
  ...over,
});

/** A kept log as the app's kept_logs holds one (cluster_id aside). */
export const keptLogRow = (over: Partial<KeptLogRow> = {}): KeptLogRow => ({
  id: 1,
  namespace: 'shop',
  pod: 'checkout-1',
  pod_uid: 'uid-shop-checkout-1',
  container: 'app',
  restart_count: 0,
  finished_at: '2026-03-01T11:56:00Z',
  finished_ms: Date.parse('2026-03-01T11:56:00Z'),
  exit_code: 1,
  reason: 'Error',
  lines: '2026-03-01T11:55:59.000000000Z panic: no config\n',
  line_count: 1,
  bytes: 49,
  kept_at: Date.parse('2026-03-01T11:56:01Z'),
  ...over,
});
