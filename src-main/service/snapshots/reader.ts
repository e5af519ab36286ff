import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { KubeObject } from '../../../src-shared/contract/models';
import { RESOURCE_KINDS, RESOURCE_TYPES, type ResourceType } from '../../../src-shared/kube/kinds';
import { ProblemError } from '../errors';
import { SNAPSHOT_FORMAT, SNAPSHOT_SCHEMA_VERSION } from './format';

/**
 * Reading a `.skiff` file (layout in format.ts): checked whole before anything is served, read-only
 * (a file named on the command line is never changed), and every way it can be wrong said in one
 * line: not SQLite, not a snapshot, truncated, from a newer Skiff, a capture that did not finish.
 * Objects are read per kind, events and metrics when first asked for, and an object is parsed
 * only when something reads it (a list can send its text); logs stay in the file and are read per
 * container.
 */

/** What the file says about the capture. */
export interface SnapshotFacts {
  schemaVersion: number;
  context: string;
  server: string;
  kubernetesVersion?: string;
  /** RFC 3339, as the file has them. */
  takenAt: string;
  finishedAt: string;
}

/**
 * One object of the file, not parsed yet: most are only ever listed, and a list can send the text
 * as it is. `decode` parses it and sets kind and apiVersion (a pod gets what the apiserver
 * defaults); it throws for text that is not a JSON object.
 */
export interface SnapshotObject {
  json: string;
  /** SQLite's json_valid: the text is JSON. */
  valid: boolean;
  /** From the row, when the table has them (objects do, events do not). */
  namespace?: string;
  name?: string;
  decode(): KubeObject;
}

/** One row of the events table. */
export interface SnapshotEventRow {
  json: string;
  expired: boolean;
}

export interface SnapshotFile {
  readonly path: string;
  readonly facts: SnapshotFacts;
  /** The objects of one of the nine kinds. */
  objects(type: ResourceType): SnapshotObject[];
  /** The events the cluster still had at capture (expired = 0), as core/v1 Events. */
  liveEvents(): SnapshotObject[];
  /** Every event row, history included, in batches so a caller can yield between them. */
  eventBatches(size: number): Generator<SnapshotEventRow[]>;
  podMetrics(): KubeObject[];
  nodeMetrics(): KubeObject[];
  log(namespace: string, pod: string, container: string, previous: boolean): string | undefined;
  close(): void;
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_BYTES = 100;

const invalid = (path: string, why: string) =>
  new ProblemError('invalid_snapshot', `${path} is not a usable Skiff snapshot: ${why}`);

/**
 * The SQLite header says how many pages the file has (when its "version-valid-for" number matches
 * the change counter, as every writer since 3.7 keeps it): a file shorter than that was cut off.
 */
function checkHeader(path: string, shownAs: string): void {
  let size: number;
  const header = Buffer.alloc(HEADER_BYTES);
  let read = 0;
  try {
    size = statSync(path).size;
    const fd = openSync(path, 'r');
    try {
      read = readSync(fd, header, 0, HEADER_BYTES, 0);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new ProblemError('invalid_snapshot', `${shownAs}: ${(err as Error).message}`);
  }
  if (read < SQLITE_MAGIC.length || !header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC))
    throw invalid(shownAs, 'it is not an SQLite database');
  if (read < HEADER_BYTES) throw invalid(shownAs, `the file is truncated (${size} bytes)`);
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
  const pages = header.readUInt32BE(28);
  const countValid = header.readUInt32BE(92) === header.readUInt32BE(24);
  if (countValid && pages > 0 && size < pageSize * pages)
    throw invalid(shownAs, `the file is truncated (${size} of ${pageSize * pages} bytes)`);
}

function readMeta(db: DatabaseSync, shownAs: string): Map<string, string> {
  let rows: Array<{ key: string; value: string }>;
  try {
    rows = db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>;
  } catch {
    throw invalid(shownAs, 'it has no meta table (an SQLite database, but not a snapshot)');
  }
  return new Map(rows.map((r) => [String(r.key), String(r.value)]));
}

function factsOf(meta: Map<string, string>, shownAs: string): SnapshotFacts {
  if (meta.get('format') !== SNAPSHOT_FORMAT)
    throw invalid(
      shownAs,
      `meta.format is not "${SNAPSHOT_FORMAT}" (an SQLite database, but not a snapshot)`,
    );
  const versionText = meta.get('schemaVersion') ?? '';
  if (!/^\d+$/.test(versionText)) throw invalid(shownAs, 'meta.schemaVersion is not a whole number');
  const schemaVersion = Number(versionText);
  if (schemaVersion > SNAPSHOT_SCHEMA_VERSION) {
    throw new ProblemError(
      'snapshot_version_unsupported',
      `${shownAs} was written by a newer Skiff (snapshot format version ${schemaVersion}); this Skiff reads versions up to ${SNAPSHOT_SCHEMA_VERSION}: update Skiff to open it`,
      { schemaVersion, supported: SNAPSHOT_SCHEMA_VERSION },
    );
  }
  if (meta.get('complete') !== '1')
    throw invalid(shownAs, 'the capture did not finish (meta.complete is not 1)');
  const context = meta.get('context');
  const takenAt = meta.get('takenAt') ?? '';
  if (!context) throw invalid(shownAs, 'meta.context is missing');
  if (Number.isNaN(Date.parse(takenAt))) throw invalid(shownAs, 'meta.takenAt is not a time');
  const kubernetesVersion = meta.get('kubernetesVersion');
  return {
    schemaVersion,
    context,
    server: meta.get('server') ?? '',
    ...(kubernetesVersion ? { kubernetesVersion } : {}),
    takenAt,
    finishedAt: meta.get('finishedAt') ?? takenAt,
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the apiserver defaults on create and the log routes rely on. */
function podDefaults(obj: KubeObject): void {
  if (!isRecord(obj.spec)) obj.spec = {};
  if (!('containers' in obj.spec)) obj.spec.containers = [];
  if (!isRecord(obj.status)) obj.status = {};
  if (!('phase' in obj.status)) obj.status.phase = 'Pending';
}

function typedObject(json: string, kind: string, apiVersion: string): KubeObject {
  const obj: unknown = JSON.parse(json);
  if (!isRecord(obj) || !isRecord(obj.metadata)) throw new Error('the text is not a Kubernetes object');
  const typed = obj as KubeObject;
  typed.kind = kind;
  typed.apiVersion = apiVersion;
  if (kind === 'Pod') podDefaults(typed);
  return typed;
}

/**
 * The first object whose text is not a JSON object with a metadata object, if any: found by SQLite
 * without parsing anything in JS (a fraction of what JSON.parse costs), so objects can stay text
 * until something reads them.
 */
function damagedObject(db: DatabaseSync): string | undefined {
  const row = db
    .prepare(
      `SELECT kind, namespace, name FROM objects
         WHERE CASE WHEN json_valid(json) THEN json_type(json, '$.metadata') IS NOT 'object' ELSE 1 END
         LIMIT 1`,
    )
    .get() as { kind: string; namespace: string; name: string } | undefined;
  return row && `the ${row.kind} ${row.namespace ? `${row.namespace}/` : ''}${row.name} is not a JSON object`;
}

/** Checks a snapshot file as opening does (meta, version, completeness), and closes it. */
export function checkSnapshotFile(path: string): SnapshotFacts {
  const file = openSnapshotFile(path);
  file.close();
  return file.facts;
}

/**
 * Opens and checks a snapshot file. `shownAs` names it in messages (an upload is not named by its
 * temporary path). Throws a ProblemError: `invalid_snapshot` or `snapshot_version_unsupported`.
 */
export function openSnapshotFile(path: string, shownAs = path): SnapshotFile {
  checkHeader(path, shownAs);
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { readOnly: true });
  } catch (err) {
    throw invalid(shownAs, (err as Error).message);
  }
  const damaged = (err: unknown) =>
    err instanceof ProblemError ? err : invalid(shownAs, `the file is damaged (${(err as Error).message})`);
  let facts: SnapshotFacts;
  try {
    facts = factsOf(readMeta(db, shownAs), shownAs);
    const broken = damagedObject(db);
    if (broken) throw invalid(shownAs, `the file is damaged (${broken})`);
  } catch (err) {
    db.close();
    throw damaged(err);
  }
  let logStatement: StatementSync | undefined;
  const guarded = <T>(read: () => T): T => {
    try {
      return read();
    } catch (err) {
      throw damaged(err);
    }
  };
  const metrics = (kind: 'pod' | 'node') =>
    guarded(() =>
      (db.prepare('SELECT json FROM metrics WHERE kind = ?').all(kind) as Array<{ json: string }>).map(
        (r) => {
          const obj = JSON.parse(r.json) as KubeObject;
          obj.kind = kind === 'pod' ? 'PodMetrics' : 'NodeMetrics';
          obj.apiVersion = 'metrics.k8s.io/v1beta1';
          return obj;
        },
      ),
    );
  return {
    path,
    facts,
    objects: (type) =>
      guarded(() => {
        if (!(RESOURCE_TYPES as readonly string[]).includes(type)) return [];
        const kind = RESOURCE_KINDS[type];
        const apiVersion = kind.group ? `${kind.group}/${kind.version}` : kind.version;
        const rows = db
          .prepare('SELECT namespace, name, json FROM objects WHERE kind = ?')
          .all(type) as Array<{
          namespace: string;
          name: string;
          json: string;
        }>;
        // Every object's text was checked at open (damagedObject).
        return rows.map((r) => ({
          json: r.json,
          valid: true,
          namespace: r.namespace,
          name: r.name,
          decode: () => typedObject(r.json, kind.kind, apiVersion),
        }));
      }),
    liveEvents: () =>
      guarded(() =>
        (
          db.prepare('SELECT json, json_valid(json) AS valid FROM events WHERE expired = 0').all() as Array<{
            json: string;
            valid: number;
          }>
        ).map((r) => ({
          json: r.json,
          valid: r.valid === 1,
          decode: () => typedObject(r.json, 'Event', 'v1'),
        })),
      ),
    *eventBatches(size) {
      const rows = guarded(() => db.prepare('SELECT json, expired FROM events').iterate());
      for (;;) {
        const batch = guarded(() => {
          const out: SnapshotEventRow[] = [];
          while (out.length < size) {
            const next = rows.next();
            if (next.done) break;
            const r = next.value as { json: string; expired: number };
            out.push({ json: r.json, expired: r.expired === 1 });
          }
          return out;
        });
        if (batch.length === 0) return;
        yield batch;
      }
    },
    podMetrics: () => metrics('pod'),
    nodeMetrics: () => metrics('node'),
    log(namespace, pod, container, previous) {
      if (!db.isOpen) return undefined;
      const row = guarded(() => {
        logStatement ??= db.prepare(
          'SELECT text FROM logs WHERE namespace = ? AND pod = ? AND container = ? AND previous = ?',
        );
        return logStatement.get(namespace, pod, container, previous ? 1 : 0) as { text: string } | undefined;
      });
      return row?.text;
    },
    close() {
      if (db.isOpen) db.close();
    },
  };
}
