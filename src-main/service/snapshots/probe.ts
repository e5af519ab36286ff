import { type ChildProcess, spawn } from 'node:child_process';
import { ALLOWED_ACTIONS, CONNECTION_PRAGMAS, connectionOptions } from './connection';

/**
 * A snapshot file opened in a process of its own, for the check at open (inspect.ts): the
 * service's event loop never runs SQLite on a file it has not checked, and whatever the file makes
 * SQLite do (a query that never ends, memory that grows) happens in that process, which is
 * killed when the check's time budget passes, when the caller gives up, or when this process
 * exits.
 *
 * Rules:
 * - A process, not a worker thread: a thread inside a native SQLite step cannot be stopped (its
 *   terminate() waits for the step, and process.exit() then waits for the thread, for ever);
 *   SIGKILL always ends a process.
 * - The child is a few lines of plain JavaScript run with `node -e` (ELECTRON_RUN_AS_NODE in the
 *   desktop app), so it needs no built file of its own: it knows node:sqlite, fs and crypto, and
 *   is told everything else. It opens the file as connection.ts says, waits for a lock at most the
 *   budget, and answers one message at a time: the file's first bytes, its SHA-256, the rows of a
 *   statement (which the caller writes to return few rows), or the rows whose JSON does not have
 *   a shape (the same rule as event-shape.ts's isReadableEvent, which a test holds them to: it is
 *   JSON.parse that reads events afterwards, so JSON.parse judges them here too).
 * - The budget counts from the spawn; nothing is retried.
 */

export class ProbeTimeout extends Error {
  constructor(readonly budgetMs: number) {
    super(`the check took longer than ${budgetMs} ms`);
  }
}

export class ProbeAborted extends Error {
  constructor() {
    super('the check was stopped');
  }
}

/** A statement the file made SQLite refuse or fail, in SQLite's words. */
export class ProbeQueryError extends Error {}

/** The child ended on its own (a crash, out of memory) before it answered. */
export class ProbeCrashed extends Error {}

export interface FileHead {
  regular: boolean;
  size: number;
  header: Uint8Array;
}

export interface Probe {
  /** Whether the path is a regular file, its size and its first `bytes` bytes (never blocks on a FIFO). */
  head(bytes: number): Promise<FileHead>;
  /** SHA-256 of the whole file, hex, and the bytes read. */
  digest(): Promise<{ sha256: string; bytes: number }>;
  /** Opens the file as SQLite (must come before `all` and `badJsonRows`). */
  open(): Promise<void>;
  all<T>(sql: string, ...params: Array<string | number | null>): Promise<T[]>;
  /**
   * The ids of the rows of `sql` (columns `id` and `json`) whose json JSON.parse cannot read or
   * whose value does not have the shape `fields` says (event-shape.ts's rule), `max` at most.
   */
  badJsonRows(
    sql: string,
    fields: ReadonlyArray<readonly [readonly string[], string]>,
    max: number,
  ): Promise<number[]>;
}

/** Marks the child in `ps`, with the path it checks after it. */
export const PROBE_MARK = 'skiff-snapshot-check';

const CHILD_SOURCE = `'use strict';
const { DatabaseSync, constants: C } = require('node:sqlite');
const fs = require('node:fs');
const { createHash } = require('node:crypto');
let db;
function run(m) {
  if (m.op === 'head') {
    const fd = fs.openSync(m.path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) return { regular: false, size: st.size, header: new Uint8Array(0) };
      const header = Buffer.alloc(m.bytes);
      const read = fs.readSync(fd, header, 0, m.bytes, 0);
      return { regular: true, size: st.size, header: header.subarray(0, read) };
    } finally {
      fs.closeSync(fd);
    }
  }
  if (m.op === 'digest') {
    const fd = fs.openSync(m.path, 'r');
    const hash = createHash('sha256');
    const buf = Buffer.allocUnsafe(1 << 20);
    let bytes = 0;
    try {
      for (let n; (n = fs.readSync(fd, buf, 0, buf.length, bytes)) > 0; bytes += n) hash.update(buf.subarray(0, n));
    } finally {
      fs.closeSync(fd);
    }
    return { sha256: hash.digest('hex'), bytes };
  }
  if (m.op === 'open') {
    db = new DatabaseSync(m.path, m.options);
    for (const p of m.pragmas) db.exec(p);
    const allowed = new Set(m.allowed);
    if (typeof db.setAuthorizer === 'function')
      db.setAuthorizer((action, a, b, name, inner) => (inner === null && allowed.has(action) ? C.SQLITE_OK : C.SQLITE_DENY));
    return {};
  }
  if (m.op === 'badJsonRows') {
    const bad = [];
    for (const row of db.prepare(m.sql).iterate()) {
      if (shaped(row.json, m.fields)) continue;
      bad.push(row.id);
      if (bad.length >= m.max) break;
    }
    return bad;
  }
  if (m.op === 'all') return { rows: db.prepare(m.sql).all(...m.params) };
  throw new Error('no such operation: ' + m.op);
}
const isRecord = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
function shaped(json, fields) {
  let value;
  try {
    value = JSON.parse(json);
  } catch {
    return false;
  }
  if (!isRecord(value)) return false;
  for (const [path, type] of fields) {
    let v = value;
    for (const key of path) v = isRecord(v) ? v[key] : undefined;
    if (v === undefined || v === null) {
      if (path.length === 1 && path[0] === 'metadata') return false;
      continue;
    }
    if (type === 'object' ? !isRecord(v) : type === 'text' ? typeof v !== 'string' : !Number.isSafeInteger(v)) return false;
  }
  return true;
}
process.on('message', (m) => {
  let reply;
  try {
    reply = { value: run(m) };
  } catch (err) {
    reply = { error: err instanceof Error ? err.message : String(err) };
  }
  process.send({ id: m.id, ...reply });
});
process.on('disconnect', () => process.exit(0));
`;

const running = new Set<ChildProcess>();

/** Children still running; a test's way to see that none is left behind. */
export const runningProbes = () => running.size;

/** Ends every check in progress: when this process exits, none outlives it, whichever way it ends. */
export function killAllProbes(): void {
  for (const child of running) child.kill('SIGKILL');
}
process.once('exit', killAllProbes);

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

/**
 * Runs `work` against `path` opened in a child process, within `budgetMs` from now. Throws
 * ProbeTimeout past the budget, ProbeAborted when `signal` aborts, ProbeQueryError for what the
 * child refused, ProbeCrashed when it ended on its own, and what spawn throws when there is no
 * child at all; the child is gone when this returns or throws.
 */
export async function withProbe<T>(
  path: string,
  opts: { budgetMs: number; signal?: AbortSignal },
  work: (probe: Probe) => Promise<T>,
): Promise<T> {
  if (opts.signal?.aborted) throw new ProbeAborted();
  const child = spawn(process.execPath, ['--max-old-space-size=256', '-e', CHILD_SOURCE, PROBE_MARK, path], {
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    serialization: 'advanced',
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    windowsHide: true,
  });
  running.add(child);
  const pending = new Map<number, Pending>();
  let ended: Error | undefined;
  // Ends `work` with the child, even while it waits for something else than the child.
  let endWork!: (err: Error) => void;
  const workEnded = new Promise<never>((_, reject) => {
    endWork = reject;
  });
  const end = (err: Error) => {
    if (ended) return;
    ended = err;
    endWork(err);
    running.delete(child);
    child.kill('SIGKILL');
    for (const p of pending.values()) p.reject(err);
  };
  const gone = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      end(new ProbeCrashed(`its process ended (${signal ?? code})`));
      resolve();
    });
    // A child that could not be spawned has no 'exit' to wait for.
    child.on('error', (err) => {
      end(err);
      resolve();
    });
  });
  const timer = setTimeout(() => end(new ProbeTimeout(opts.budgetMs)), opts.budgetMs);
  const onAbort = () => end(new ProbeAborted());
  opts.signal?.addEventListener('abort', onAbort);
  child.on('message', (m: { id: number; value?: unknown; error?: string }) => {
    // Every answer is to a call still pending: the child answers each once, and only while alive.
    const p = pending.get(m.id)!;
    pending.delete(m.id);
    if (m.error !== undefined) p.reject(new ProbeQueryError(m.error));
    else p.resolve(m.value);
  });
  let next = 0;
  const call = <R>(message: Record<string, unknown>) =>
    new Promise<R>((resolve, reject) => {
      if (ended) return reject(ended);
      const id = ++next;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      // A message that cannot be sent means the child is gone or going: its 'exit' says how.
      child.send({ id, path, ...message }, () => {});
    });
  const probe: Probe = {
    head: (bytes) => call({ op: 'head', bytes }),
    digest: () => call({ op: 'digest' }),
    open: () =>
      call({
        op: 'open',
        options: connectionOptions(opts.budgetMs),
        pragmas: CONNECTION_PRAGMAS,
        allowed: ALLOWED_ACTIONS,
      }),
    all: async <R>(sql: string, ...params: Array<string | number | null>) =>
      (await call<{ rows: R[] }>({ op: 'all', sql, params })).rows,
    badJsonRows: (sql, fields, max) => call({ op: 'badJsonRows', sql, fields, max }),
  };
  try {
    return await Promise.race([work(probe), workEnded]);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    end(new ProbeAborted());
    await gone;
  }
}
