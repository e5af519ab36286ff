import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { KubeObject } from '../../../src-shared/contract/models';
import { RESOURCE_KINDS, RESOURCE_TYPES, type ResourceType } from '../../../src-shared/kube/kinds';
import { ProblemError } from '../errors';
import { openSnapshotConnection } from './connection';
import { invalidSnapshot, type SnapshotFacts } from './facts';
import type { CheckedSnapshot } from './inspect';
import { SCHEMA_ROWS, SCHEMA_SQL, type SchemaRow, schemaProblem } from './schema';

export type { SnapshotFacts } from './facts';

/**
 * Reading a `.skiff` file (layout in format.ts) that passed its check (inspect.ts, in a process of
 * its own): opened read-only and hardened as connection.ts says (a file named on the command line
 * is never changed), its schema compared again (cheap) in case the file changed since. Objects are
 * read per kind, events and metrics when first asked for, and an object is parsed only when
 * something reads it (a list can send its text); logs stay in the file and are read per container.
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
  const damaged = (err: unknown) =>
    err instanceof ProblemError
      ? err
      : invalidSnapshot(shownAs, `the file is damaged (${(err as Error).message})`);
  let db: DatabaseSync;
  try {
    db = openSnapshotConnection(path);
  } catch (err) {
    throw invalidSnapshot(shownAs, (err as Error).message);
  }
  try {
    const changed = schemaProblem(db.prepare(SCHEMA_SQL).all(SCHEMA_ROWS) as unknown as SchemaRow[]);
    if (changed) throw invalidSnapshot(shownAs, changed);
  } catch (err) {
    db.close();
    throw damaged(err);
  }
  const { facts } = checked;
  const unreadable = new Set(checked.unreadableEvents);
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
