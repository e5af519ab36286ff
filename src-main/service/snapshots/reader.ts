import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { KubeObject } from '../../../src-shared/contract/models';
import { RESOURCE_KINDS, RESOURCE_TYPES, type ResourceType } from '../../../src-shared/kube/kinds';
import { ProblemError } from '../errors';
import { openSnapshotConnection } from './connection';
import { invalidSnapshot, type SnapshotFacts } from './facts';
import type { CheckedSnapshot } from './inspect';
import { readSnapshotKinds, type SnapshotKind } from './kinds-table';
import { RECORDED_COLUMNS, type RecordedRowOf, type RecordedTable } from './recorded-tables';
import { SCHEMA_ROWS, SCHEMA_SQL, type SchemaRow, schemaProblem } from './schema';

export type { SnapshotFacts } from './facts';

/**
 * Reading a `.skiff` file (layout in format.ts) that passed its check (inspect.ts, in a process of
 * its own): opened read-only and hardened as connection.ts says (a file named on the command line
 * is never changed), its schema compared again (cheap) in case the file changed since. Objects are
 * read per kind, a page at a time in namespace/name order (the objects table's own key, so a page
 * costs its rows and no sort), or one by one by name; events and metrics when first asked for, and
 * an object is parsed only when something reads it; logs stay in the file and are read per
 * container. The kinds are read once, through kinds-table.ts (a version-1 file holds the nine).
 * The recorded tables (version 3) are read in batches, once, into an opened snapshot's own
 * database (open-recorded.ts); a file of an older version has none.
 * The event rows the check found unreadable are never returned. A read that fails (a file changed
 * or damaged under the service) is `invalid_snapshot`, never a raw error.
 */

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

/** A kind as the file holds it: the name its objects are filed under, and the type they get. */
export interface FileKind {
  /** `objects.kind`: a resource_type of the kinds table (version 1: one of the nine). */
  resourceType: string;
  kind: string;
  group: string;
  version: string;
}

/** A page of live events: the readable ones, the rows read, and the rowid of the last row read. */
export interface SnapshotEventPage {
  events: SnapshotObject[];
  read: number;
  last?: number;
}

export interface SnapshotFile {
  readonly path: string;
  readonly facts: SnapshotFacts;
  /** The kinds the capture took, ordered by resourceType (read once). */
  kinds(): readonly SnapshotKind[];
  /** The objects of one of the nine kinds. */
  objects(type: ResourceType): SnapshotObject[];
  /** Up to `limit` objects of a kind after namespace/name `after` (none: from the first), in that order. */
  objectPage(kind: FileKind, after: readonly [string, string] | undefined, limit: number): SnapshotObject[];
  objectCount(kind: FileKind): number;
  /** One object of a kind; namespace '' for a cluster-scoped kind. */
  object(kind: FileKind, namespace: string, name: string): SnapshotObject | undefined;
  /** Up to `limit` of the events the cluster still had, after rowid `after` (0: from the first), in rowid order. */
  liveEventPage(after: number, limit: number): SnapshotEventPage;
  /** How many rows liveEventPage pages through, the unreadable ones included. */
  liveEventCount(): number;
  /** The events the cluster still had at capture (expired = 0), as core/v1 Events. */
  liveEvents(): SnapshotObject[];
  /** Every event row, history included, in batches so a caller can yield between them. */
  eventBatches(size: number): Generator<SnapshotEventRow[]>;
  /**
   * Every row of a recorded table (version 3) in its key's order, in batches so a caller can yield
   * between them; nothing for a file of an older version.
   */
  recordedBatches<T extends RecordedTable>(table: T, size: number): Generator<Array<RecordedRowOf[T]>>;
  podMetrics(): KubeObject[];
  nodeMetrics(): KubeObject[];
  log(namespace: string, pod: string, container: string, previous: boolean): string | undefined;
  close(): void;
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
 * Opens a snapshot file that `checked` says is good. `shownAs` names it in messages (an upload is
 * not named by its temporary path). Throws `invalid_snapshot` when the file is not what was
 * checked any more.
 */
export function openSnapshotFile(path: string, checked: CheckedSnapshot, shownAs = path): SnapshotFile {
  // A read that lands after close (a request in flight while the snapshot is closed) finds the
  // cluster gone, as a request arriving a moment later does: 404, not a damaged file.
  const damaged = (err: unknown) =>
    err instanceof ProblemError
      ? err
      : !db.isOpen
        ? new ProblemError('cluster_not_found', `${shownAs} was closed`)
        : invalidSnapshot(shownAs, `the file is damaged (${(err as Error).message})`);
  let db: DatabaseSync;
  try {
    db = openSnapshotConnection(path);
  } catch (err) {
    throw invalidSnapshot(shownAs, (err as Error).message);
  }
  try {
    const changed = schemaProblem(
      db.prepare(SCHEMA_SQL).all(SCHEMA_ROWS) as unknown as SchemaRow[],
      checked.facts.schemaVersion,
    );
    if (changed) throw invalidSnapshot(shownAs, changed);
  } catch (err) {
    db.close();
    throw damaged(err);
  }
  const { facts } = checked;
  const unreadable = new Set(checked.unreadableEvents);
  let logStatement: StatementSync | undefined;
  const statements = new Map<string, StatementSync>();
  const statement = (sql: string): StatementSync => {
    let st = statements.get(sql);
    if (!st) {
      st = db.prepare(sql);
      statements.set(sql, st);
    }
    return st;
  };
  let kinds: readonly SnapshotKind[] | undefined;
  type ObjectRow = { namespace: string; name: string; json: string };
  // Every object's text was checked at open (inspect.ts).
  const objectOf = (kind: FileKind, r: ObjectRow): SnapshotObject => {
    const apiVersion = kind.group ? `${kind.group}/${kind.version}` : kind.version;
    return {
      json: r.json,
      valid: true,
      namespace: r.namespace,
      name: r.name,
      decode: () => typedObject(r.json, kind.kind, apiVersion),
    };
  };
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
    kinds: () => {
      kinds ??= guarded(() => readSnapshotKinds(db, facts.schemaVersion));
      return kinds;
    },
    objectPage: (kind, after, limit) =>
      guarded(() => {
        const rows = (
          after === undefined
            ? statement(
                'SELECT namespace, name, json FROM objects WHERE kind = ? ORDER BY namespace, name LIMIT ?',
              ).all(kind.resourceType, limit)
            : statement(
                'SELECT namespace, name, json FROM objects WHERE kind = ? AND (namespace, name) > (?, ?) ORDER BY namespace, name LIMIT ?',
              ).all(kind.resourceType, after[0], after[1], limit)
        ) as ObjectRow[];
        return rows.map((r) => objectOf(kind, r));
      }),
    objectCount: (kind) =>
      guarded(
        () =>
          (
            statement('SELECT count(*) AS n FROM objects WHERE kind = ?').get(kind.resourceType) as {
              n: number;
            }
          ).n,
      ),
    object: (kind, namespace, name) =>
      guarded(() => {
        const row = statement(
          'SELECT namespace, name, json FROM objects WHERE kind = ? AND namespace = ? AND name = ?',
        ).get(kind.resourceType, namespace, name) as ObjectRow | undefined;
        return row && objectOf(kind, row);
      }),
    liveEventPage: (after, limit) =>
      guarded(() => {
        const rows = statement(
          'SELECT rowid AS id, json, json_valid(json) AS valid FROM events WHERE expired = 0 AND rowid > ? ORDER BY rowid LIMIT ?',
        ).all(after, limit) as Array<{ id: number; json: string; valid: number }>;
        const events = rows
          .filter((r) => !unreadable.has(r.id))
          .map((r) => ({
            json: r.json,
            valid: r.valid === 1,
            decode: () => typedObject(r.json, 'Event', 'v1'),
          }));
        const last = rows.at(-1)?.id;
        return { events, read: rows.length, ...(last !== undefined ? { last } : {}) };
      }),
    liveEventCount: () =>
      guarded(
        () => (statement('SELECT count(*) AS n FROM events WHERE expired = 0').get() as { n: number }).n,
      ),
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
        // Every object's text was checked at open (inspect.ts).
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
          db
            .prepare('SELECT rowid AS id, json, json_valid(json) AS valid FROM events WHERE expired = 0')
            .all() as Array<{ id: number; json: string; valid: number }>
        )
          .filter((r) => !unreadable.has(r.id))
          .map((r) => ({
            json: r.json,
            valid: r.valid === 1,
            decode: () => typedObject(r.json, 'Event', 'v1'),
          })),
      ),
    *eventBatches(size) {
      const rows = guarded(() => db.prepare('SELECT rowid AS id, json, expired FROM events').iterate());
      for (;;) {
        const batch = guarded(() => {
          const out: SnapshotEventRow[] = [];
          while (out.length < size) {
            const next = rows.next();
            if (next.done) break;
            const r = next.value as { id: number; json: string; expired: number };
            if (!unreadable.has(r.id)) out.push({ json: r.json, expired: r.expired === 1 });
          }
          return out;
        });
        if (batch.length === 0) return;
        yield batch;
      }
    },
    *recordedBatches<T extends RecordedTable>(table: T, size: number) {
      if (facts.schemaVersion < 3) return;
      const rows = guarded(() =>
        db.prepare(`SELECT ${RECORDED_COLUMNS[table].join(', ')} FROM ${table}`).iterate(),
      );
      for (;;) {
        const batch = guarded(() => {
          const out: Array<RecordedRowOf[T]> = [];
          while (out.length < size) {
            const next = rows.next();
            if (next.done) break;
            out.push(next.value as unknown as RecordedRowOf[T]);
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
