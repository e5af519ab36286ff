import { DatabaseSync, constants as sqlite } from 'node:sqlite';

/**
 * How a `.skiff` file is opened, by the check (inspect.ts, in a process of its own) and by the
 * reader that serves it afterwards: every file is someone else's and treated as hostile.
 *
 * Rules:
 * - Read-only, SQLite's defensive mode on (the schema cannot be written through any path),
 *   `trusted_schema` off (no function with side effects runs from the schema), no extensions.
 * - SQLite's own limits are set low on the connection: no value longer than the largest row the
 *   format allows, short statements, few columns, shallow expressions, no ATTACH.
 * - An authorizer lets a statement only select, read and call functions, and only at top level:
 *   nothing runs on behalf of a view or trigger, and recursive CTEs are refused. The check refuses
 *   any file with a view or a trigger; this is the second wall, for a file changed after its check.
 *   Where the runtime lacks an option (an older Node in Electron), the connection opens without it.
 * - The reader on the service's event loop never waits for a lock (busy timeout 0): a file another
 *   program holds fails its read rather than blocks the service. Only the check's own process waits.
 */

const MiB = 2 ** 20;

/** What a file may hold, in numbers (docs/snapshot-format.md, "Limits"). */
export const FILE_LIMITS = {
  /** Keys of the meta table, and the bytes of each key and value. */
  metaKeys: 64,
  metaKeyBytes: 64,
  metaValueBytes: 1_024,
  /** kind, namespace, name, uid, pod, container, last_timestamp and gaps.part (a DNS subdomain's 253). */
  keyBytes: 253,
  /** The `json` of an object, event or metric (the apiserver stores at most 1.5 MiB by default). */
  jsonBytes: 8 * MiB,
  /** Any value at all, a container's log text included: SQLite's SQLITE_LIMIT_LENGTH. */
  valueBytes: 64 * MiB,
  /** A gap's target and reason. */
  gapTargetBytes: 1_024,
  gapReasonBytes: 4_096,
} as const;

/** SQLite's limits on every snapshot connection (node:sqlite's names for SQLITE_LIMIT_*). */
export const SQLITE_LIMITS = {
  length: FILE_LIMITS.valueBytes,
  sqlLength: 100_000,
  column: 16,
  exprDepth: 200,
  compoundSelect: 2,
  vdbeOp: 100_000,
  functionArg: 8,
  attach: 0,
  likePatternLength: 64,
  variableNumber: 16,
  triggerDepth: 1,
} as const;

/** What a statement may do: select, read columns and call functions (sqlite3_set_authorizer). */
export const ALLOWED_ACTIONS: readonly number[] = [
  sqlite.SQLITE_SELECT,
  sqlite.SQLITE_READ,
  sqlite.SQLITE_FUNCTION,
];

/** Run once the connection is open, before the authorizer is set (it refuses pragmas). */
export const CONNECTION_PRAGMAS: readonly string[] = [
  'PRAGMA trusted_schema = OFF',
  'PRAGMA query_only = ON',
  // Damaged b-tree cells are found when read rather than trusted.
  'PRAGMA cell_size_check = ON',
];

/** The options of `new DatabaseSync` for a snapshot; `busyMs` is how long a lock is waited for. */
export function connectionOptions(busyMs: number) {
  return {
    readOnly: true,
    defensive: true,
    allowExtension: false,
    enableForeignKeyConstraints: false,
    timeout: busyMs,
    limits: { ...SQLITE_LIMITS },
  };
}

/** The authorizer's answer: top-level selects, reads and function calls only. */
export function authorize(action: number, inner: string | null): number {
  return inner === null && ALLOWED_ACTIONS.includes(action) ? sqlite.SQLITE_OK : sqlite.SQLITE_DENY;
}

/** Opens a snapshot on this thread, as the rules say; throws what SQLite says when it cannot. */
export function openSnapshotConnection(path: string): DatabaseSync {
  const db = new DatabaseSync(path, connectionOptions(0));
  // These pragmas set flags of the connection and read nothing of the file: they cannot fail on it.
  for (const pragma of CONNECTION_PRAGMAS) db.exec(pragma);
  // Node 24.10 has it; the desktop's Electron may not: the exact schema is then the only wall.
  db.setAuthorizer?.((action, _a, _b, _db, inner) => authorize(action, inner));
  return db;
}
