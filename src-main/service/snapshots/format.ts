/**
 * The `.skiff` snapshot file (issue 10 §2): one SQLite database per captured cluster. The writer
 * (capture) and the reader (open) both take the layout from here; docs/snapshot-format.md is its
 * reference for people and other tools.
 *
 * Rules of the format:
 * - `meta.format` is `skiff-snapshot`; anything else is not a snapshot.
 * - `meta.schemaVersion` is an integer. A reader opens versions up to its own and refuses newer
 *   ones with a clear message; a writer always writes SNAPSHOT_SCHEMA_VERSION.
 * - `meta.complete` is `1` only once everything was written and committed. A file without it is
 *   a capture that did not finish and is refused.
 * - Every JSON column holds an object as the apiserver returned it, `metadata.managedFields` removed.
 *   A Secret keeps no value (its key names and each value's length only: secrets-strip.ts).
 * - Each version's schema is fixed: SNAPSHOT_DDL_OF[v] is exactly what a file of version v holds.
 *   Version 2 is version 1 and the `kinds` table (the cluster's discovery at capture time); in a
 *   version-1 file, `objects.kind` names one of the nine kinds (RESOURCE_TYPES).
 */

export const SNAPSHOT_FORMAT = 'skiff-snapshot';
export const SNAPSHOT_SCHEMA_VERSION = 2;
export const SNAPSHOT_EXTENSION = '.skiff';

/** Keys of the `meta` table. Values are text. */
export interface SnapshotMeta {
  format: typeof SNAPSHOT_FORMAT;
  schemaVersion: string;
  /** Skiff's version that wrote the file. */
  skiffVersion: string;
  /** The kubeconfig context captured, and its server URL. */
  context: string;
  server: string;
  /** The cluster's gitVersion from /version, when it answered. */
  kubernetesVersion?: string;
  /** RFC 3339: when the capture started (what the UI calls "taken"), and when it ended. */
  takenAt: string;
  finishedAt: string;
  durationMs: string;
  /** Lines kept per container log, and whose logs were taken: all | failing | none. */
  logLines: string;
  logs: string;
  /** `1` once the capture committed everything. */
  complete: '1';
}

const DDL_V1 = `
  CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;

  -- Objects. kind is the resource type as the API names it in paths: in version 2 a resource_type
  -- of the kinds table ('pod', 'configmap', 'certificate.cert-manager.io'), in version 1 one of the
  -- nine (RESOURCE_TYPES); namespace is '' for cluster-scoped kinds.
  CREATE TABLE objects (
    kind TEXT NOT NULL,
    namespace TEXT NOT NULL,
    name TEXT NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY (kind, namespace, name)
  ) STRICT, WITHOUT ROWID;

  -- core/v1 Events. expired = 1 for events the cluster had already dropped (past its --event-ttl)
  -- that Skiff's event history still held; they are written back in the core/v1 shape too.
  CREATE TABLE events (
    uid TEXT PRIMARY KEY,
    namespace TEXT NOT NULL,
    last_timestamp TEXT NOT NULL,
    expired INTEGER NOT NULL CHECK (expired IN (0, 1)),
    json TEXT NOT NULL
  ) STRICT;
  CREATE INDEX events_by_time ON events (last_timestamp DESC, uid);

  -- The last lines of each container's log. previous = 1 is the run before the last restart.
  -- text is the log as the apiserver sends it with timestamps=true: one RFC 3339 timestamp, a
  -- space and the line, newline-terminated lines.
  CREATE TABLE logs (
    namespace TEXT NOT NULL,
    pod TEXT NOT NULL,
    container TEXT NOT NULL,
    previous INTEGER NOT NULL CHECK (previous IN (0, 1)),
    line_count INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (namespace, pod, container, previous)
  ) STRICT, WITHOUT ROWID;

  -- metrics.k8s.io items (PodMetrics, NodeMetrics) when the cluster served them.
  CREATE TABLE metrics (
    kind TEXT NOT NULL CHECK (kind IN ('pod', 'node')),
    namespace TEXT NOT NULL,
    name TEXT NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY (kind, namespace, name)
  ) STRICT, WITHOUT ROWID;

  -- What the capture could not take (SnapshotGap): part, the pod/container for logs, and why.
  CREATE TABLE gaps (
    part TEXT NOT NULL,
    target TEXT,
    reason TEXT NOT NULL
  ) STRICT;
`;

/**
 * Version 2: the kinds the capture took, as the cluster's discovery served them (one row per
 * resource). resource_type is the name Skiff's API gives the kind (`objects.kind`); verbs,
 * short_names and categories are JSON arrays of text; columns is a CRD's printer columns at the
 * served version as a JSON array (null for a kind no CRD defines).
 */
const KINDS_DDL = `
  CREATE TABLE kinds (
    resource_type TEXT PRIMARY KEY,
    grp TEXT NOT NULL,
    version TEXT NOT NULL,
    resource TEXT NOT NULL,
    singular TEXT NOT NULL,
    kind TEXT NOT NULL,
    namespaced INTEGER NOT NULL CHECK (namespaced IN (0, 1)),
    verbs TEXT NOT NULL,
    short_names TEXT NOT NULL,
    categories TEXT NOT NULL,
    columns TEXT
  ) STRICT, WITHOUT ROWID;
`;

/** The schema of each version a reader opens, by version. */
export const SNAPSHOT_DDL_OF: Readonly<Record<number, string>> = { 1: DDL_V1, 2: DDL_V1 + KINDS_DDL };

/** What a writer writes: the current version's schema. */
export const SNAPSHOT_DDL = SNAPSHOT_DDL_OF[SNAPSHOT_SCHEMA_VERSION] as string;
