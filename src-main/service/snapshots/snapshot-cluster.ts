/**
 * An opened snapshot as a frozen cluster (clusters/source-frozen.ts): what a ClusterConnection
 * reads in place of an apiserver, straight from the file (reader.ts). Nothing here serves HTTP or
 * keeps the objects: each kind's cache pages through the file when it is first read, one object
 * is one indexed row, and the kinds are the file's own (a version-1 file: the nine).
 *
 * Rules:
 * - A kind is found by its group and plural among the file's kinds; a kind the file does not
 *   hold is an empty collection and has no objects.
 * - An object is decoded only as it is read; one that cannot be decoded (a file changed since its
 *   check) is left out and logged, and the rest are served. A read that fails is invalid_snapshot.
 * - Pod metrics are read once and kept (they never change); logs come from the file per request.
 * - What Skiff had recorded (version 3: changes, usage, kept logs) is the opener's to build, once,
 *   on first read (open-recorded.ts); a file without it answers undefined.
 */

import type { KubeObject } from '../../../src-shared/contract/models';
import type { SnapshotGap } from '../../../src-shared/contract/snapshot-models';
import {
  type FrozenCluster,
  type FrozenKindRef,
  type FrozenRows,
  frozenCollection,
  type RecordedTables,
} from '../clusters/source-frozen';
import type { HistoryStore } from '../events/history/store';
import type { Logger } from '../logger';
import type { PodLike } from '../logs/pod';
import type { FileKind, SnapshotFile, SnapshotObject } from './reader';
import { openSnapshotLog } from './snapshot-logs';

export interface SnapshotClusterDeps {
  file: SnapshotFile;
  /** What the file lacks (inspect.ts). */
  missing: readonly SnapshotGap[];
  /** Its event history, built on first read (open-history.ts). */
  history(): Promise<HistoryStore>;
  /** Its recorded tables, built on first read (open-recorded.ts); undefined before version 3. */
  recorded?(): Promise<RecordedTables | undefined>;
  logger: Logger;
}

export function snapshotCluster(deps: SnapshotClusterDeps): FrozenCluster {
  const { file, logger } = deps;
  const { facts } = file;
  const kinds = file.kinds();
  const byKey = new Map<string, FileKind>(kinds.map((k) => [`${k.group}/${k.plural}`, k]));
  const fileKind = (ref: FrozenKindRef) => byKey.get(`${ref.group}/${ref.plural}`);
  const decoded = (o: SnapshotObject, where: string): KubeObject[] => {
    try {
      return [o.decode()];
    } catch (err) {
      logger.warn(
        { file: file.path, where, err: String(err) },
        'snapshot: an object that cannot be read is left out',
      );
      return [];
    }
  };
  let metrics: Map<string, KubeObject[]> | undefined;

  const objectRows = (kind: FileKind): FrozenRows => ({
    count: () => file.objectCount(kind),
    page(after, limit) {
      const rows = file.objectPage(
        kind,
        after === undefined ? undefined : (JSON.parse(after) as [string, string]),
        limit,
      );
      const last = rows.at(-1);
      return {
        objects: rows.flatMap((r) => decoded(r, `${kind.resourceType} ${r.namespace}/${r.name}`)),
        read: rows.length,
        ...(last ? { last: JSON.stringify([last.namespace, last.name]) } : {}),
      };
    },
  });
  const empty: FrozenRows = { count: () => 0, page: () => ({ objects: [], read: 0 }) };
  const eventRows: FrozenRows = {
    count: () => file.liveEventCount(),
    page(after, limit) {
      const page = file.liveEventPage(after === undefined ? 0 : Number(after), limit);
      return {
        objects: page.events.flatMap((e) => decoded(e, 'event')),
        read: page.read,
        ...(page.last !== undefined ? { last: String(page.last) } : {}),
      };
    },
  };
  const object = (kind: FileKind | undefined, namespace: string, name: string) => {
    if (!kind) return undefined;
    const row = file.object(kind, namespace, name);
    return row ? decoded(row, `${kind.resourceType} ${namespace}/${name}`)[0] : undefined;
  };

  return {
    facts: {
      context: facts.context,
      server: facts.server,
      takenAt: facts.takenAt,
      ...(facts.kubernetesVersion ? { kubernetesVersion: facts.kubernetesVersion } : {}),
      ...(deps.missing.length > 0 ? { missing: [...deps.missing] } : {}),
    },
    kindRows: kinds,
    collection(ref) {
      const kind = fileKind(ref);
      const version = kind?.version ?? 'v1';
      const path = ref.group
        ? `/apis/${ref.group}/${version}/${ref.plural}`
        : `/api/${version}/${ref.plural}`;
      return frozenCollection(path, kind ? objectRows(kind) : empty);
    },
    events: () => frozenCollection('/api/v1/events', eventRows),
    object: (ref, namespace, name) => object(fileKind(ref), namespace, name),
    podMetrics(namespace) {
      if (!metrics) {
        metrics = new Map();
        for (const m of file.podMetrics()) {
          const ns = m.metadata.namespace ?? '';
          const list = metrics.get(ns) ?? [];
          list.push(m);
          metrics.set(ns, list);
        }
      }
      return metrics.get(namespace) ?? [];
    },
    openLog(req) {
      // A snapshot that holds no pods has no pod to read a log of.
      const pod = object(fileKind({ group: '', plural: 'pods' }), req.namespace, req.pod);
      return openSnapshotLog({ pod: pod as PodLike | undefined, log: file.log }, req);
    },
    history: deps.history,
    recorded: async () => deps.recorded?.(),
  };
}
