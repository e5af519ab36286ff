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
 *   version-1 file, `objects.kind` names one of the nine kinds (RESOURCE_TYPES). Version 3 is
 *   version 2 and what Skiff had recorded of the cluster up to takenAt (issue 27): the tables
 *   change_history, usage_samples and kept_logs, each the app database's table of that name
 *   (storage migration 8) without its cluster_id, bounded by RECORDED_LIMITS (checked in recorded-tables.ts).
 */

export const SNAPSHOT_FORMAT = 'skiff-snapshot';
export const SNAPSHOT_SCHEMA_VERSION = 3;
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

/**
 * Version 3: what Skiff had recorded of the cluster when the capture started (issue 27), the app
 * database's tables of the same names (storage migration 8) without cluster_id: a file holds one
 * cluster. No index beyond the keys: an opened snapshot copies the rows into a database of the
 * app's own schema (open-recorded.ts), which has the indexes its reads need.
 * - change_history: the newest object changes (time_ms up to takenAt); patch is an RFC 6902 JSON
 *   Patch (a JSON array of objects) from the previous recorded version, object the whole object
 *   (a JSON object) where the recorder kept one, else null.
 * - usage_samples: the newest pod and node usage samples; containers is a JSON object
 *   {name: {cpuMillicores, memoryBytes}}.
 * - kept_logs: the newest logs of dead containers; lines is the kept text, line_count its lines.
 */
const RECORDED_DDL = `
  CREATE TABLE change_history (
    id INTEGER PRIMARY KEY,
    time_ms INTEGER NOT NULL,
    resource_type TEXT NOT NULL,
    kind TEXT NOT NULL,
    namespace TEXT NOT NULL,
    name TEXT NOT NULL,
    uid TEXT NOT NULL,
    change TEXT NOT NULL CHECK (change IN ('created', 'updated', 'deleted', 'seen')),
    resource_version TEXT NOT NULL,
    patch TEXT NOT NULL,
    summary TEXT NOT NULL,
    object TEXT,
    recorded_at INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE usage_samples (
    subject TEXT NOT NULL CHECK (subject IN ('pod', 'node')),
    namespace TEXT NOT NULL,
    name TEXT NOT NULL,
    time_ms INTEGER NOT NULL,
    resolution_ms INTEGER NOT NULL,
    containers TEXT NOT NULL,
    PRIMARY KEY (subject, namespace, name, time_ms)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE kept_logs (
    id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    pod TEXT NOT NULL,
    pod_uid TEXT NOT NULL,
    container TEXT NOT NULL,
    restart_count INTEGER NOT NULL,
    finished_at TEXT,
    finished_ms INTEGER NOT NULL,
    exit_code INTEGER,
    reason TEXT NOT NULL,
    lines TEXT NOT NULL,
    line_count INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    kept_at INTEGER NOT NULL
  ) STRICT;
`;

const MiB = 2 ** 20;

/**
 * What a version-3 file may hold of recorded data. An opened snapshot copies these rows into
 * memory, so the bounds are what one opened file may cost: about half a GiB at the very most, a
 * capture of a busy cluster's last hours far less. A capture takes the newest rows up to takenAt
 * and leaves older ones out (a gap says how many); a single row over a value bound is left out
 * too (the same gap). Keys (names, kinds, uids, resource versions, reasons) are FILE_LIMITS.keyBytes.
 */
export const RECORDED_LIMITS = {
  changes: { rows: 200_000, totalBytes: 256 * MiB },
  usage: { rows: 500_000, totalBytes: 128 * MiB },
  keptLogs: { rows: 10_000, totalBytes: 256 * MiB },
  /** A change's patch or object, as the objects' json (the apiserver stores 1.5 MiB by default). */
  jsonBytes: 8 * MiB,
  /** A change's summary: one line for people. */
  summaryBytes: 4_096,
  /** A usage sample's containers. */
  containersBytes: 64 * 1024,
  /** One kept log's text. */
  linesBytes: 16 * MiB,
  /** Times (time_ms, finished_ms, recorded_at, kept_at): milliseconds from 1970 to the end of 9999. */
  maxMs: 253_402_300_799_999,
} as const;

/** The schema of each version a reader opens, by version. */
export const SNAPSHOT_DDL_OF: Readonly<Record<number, string>> = {
  1: DDL_V1,
  2: DDL_V1 + KINDS_DDL,
  3: DDL_V1 + KINDS_DDL + RECORDED_DDL,
};

/** What a writer writes: the current version's schema. */
export const SNAPSHOT_DDL = SNAPSHOT_DDL_OF[SNAPSHOT_SCHEMA_VERSION] as string;
