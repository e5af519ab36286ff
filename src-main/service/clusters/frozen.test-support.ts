/**
 * A frozen cluster held in memory (source-frozen.ts's FrozenCluster), for tests of what a
 * connection and the registry do with a snapshot without writing a file: objects by plural, each
 * collection noting the pages it was asked for. snapshots/snapshot-cluster.ts builds the real one
 * from a file; this one follows the same interface.
 */
import type { KubeObject } from '../../../src-shared/contract/models';
import { RESOURCE_KINDS, RESOURCE_TYPES } from '../../../src-shared/kube/kinds';
import { openSnapshotLog } from '../snapshots/snapshot-logs';
import type { FrozenCluster, FrozenFacts, FrozenRows, SnapshotKindRow } from './source-frozen';
import { frozenCollection } from './source-frozen';

export interface MemoryFrozen extends FrozenCluster {
  /** The `limit` of every page asked for, by plural ('events' too). */
  readonly pages: Map<string, number[]>;
}

const key = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

function rowsOf(objects: readonly KubeObject[], asked: number[]): FrozenRows {
  const sorted = [...objects].sort((a, b) => (key(a) < key(b) ? -1 : 1));
  return {
    count: () => sorted.length,
    page(after, limit) {
      asked.push(limit);
      const start = after === undefined ? 0 : sorted.findIndex((o) => key(o) === after) + 1;
      const page = sorted.slice(start, start + limit);
      const last = page.at(-1);
      return { objects: page, read: page.length, ...(last ? { last: key(last) } : {}) };
    },
  };
}

/** The nine, as a version-1 snapshot serves them. */
export const NINE_ROWS: readonly SnapshotKindRow[] = RESOURCE_TYPES.map((t) => {
  const k = RESOURCE_KINDS[t];
  return {
    resourceType: k.singular,
    singular: k.singular,
    plural: k.plural,
    kind: k.kind,
    group: k.group,
    version: k.version,
    namespaced: k.namespaced,
    shortNames: [...k.shortNames],
    categories: k.namespaced ? ['all'] : [],
    verbs: ['get', 'list', 'watch'],
  };
});

export function memoryFrozen(
  facts: FrozenFacts,
  objects: Readonly<Record<string, readonly KubeObject[]>> = {},
  kindRows: readonly SnapshotKindRow[] = NINE_ROWS,
): MemoryFrozen {
  const pages = new Map<string, number[]>();
  const asked = (plural: string) => {
    const list = pages.get(plural) ?? [];
    pages.set(plural, list);
    return list;
  };
  const find = (plural: string, namespace: string, name: string) =>
    (objects[plural] ?? []).find(
      (o) => (o.metadata.namespace ?? '') === namespace && o.metadata.name === name,
    );
  return {
    facts,
    kindRows,
    pages,
    collection: (kind) =>
      frozenCollection(`/${kind.plural}`, rowsOf(objects[kind.plural] ?? [], asked(kind.plural))),
    events: () => frozenCollection('/events', rowsOf(objects.events ?? [], asked('events'))),
    object: (kind, namespace, name) => find(kind.plural, namespace, name),
    podMetrics: (namespace) => (objects.podmetrics ?? []).filter((m) => m.metadata.namespace === namespace),
    openLog: (req) =>
      openSnapshotLog({ pod: find('pods', req.namespace, req.pod), log: () => undefined }, req),
    history: () => Promise.reject(new Error('no history in this test')),
  };
}
