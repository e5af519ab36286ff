/**
 * Fixtures of the history's unit tests: a real database of its own per test, on either backend
 * (SQLite in a temp dir, removed by `close`; a database of the file's real PostgreSQL server,
 * postgres.test-support.ts), and event entries shaped as the cache hands them over.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import type { MonitoringFlags } from '../../../../src-shared/contract/models';
import { silentLogger } from '../../logger';
import type { StorageBackend } from '../../storage/backend';
import { type AppDatabase, openAppDatabase } from '../../storage/database';
import { postgresSkipReason, startPostgres, type TestPostgres } from '../../storage/postgres.test-support';
import { openPostgresBackend } from '../../storage/postgres-backend';
import { SqliteBackend } from '../../storage/sqlite-backend';
import type { EventEntry } from '../entries';
import type { EventFilter } from '../filter';
import { type EventHistoryOptions, resolveHistoryOptions } from './options';
import { EventRecorder } from './recorder';
import { HistoryStore } from './store';

/** 2024-03-01T00:00:00Z: the tests' clock starts here. */
export const T0 = Date.UTC(2024, 2, 1);
export const SEC = 1_000;
export const MIN = 60_000;
export const DAY = 86_400_000;

export const iso = (ms: number) => new Date(ms).toISOString();

/**
 * An event entry: a Pod event in `shop` unless told otherwise. The category follows the
 * namespace, kindKey the kind, and lastTimestamp lastMs, as eventEntry makes them.
 */
export function entry(eventId: string, lastMs: number, over: Partial<EventEntry> = {}): EventEntry {
  const namespace = over.namespace ?? 'shop';
  const kind = over.kind ?? 'Pod';
  return {
    key: eventId,
    eventId,
    lastMs,
    type: 'NORMAL',
    reason: 'Started',
    namespace,
    kind,
    kindKey: kind.toLowerCase(),
    name: 'web',
    category: namespace === '' ? 'system' : 'resource',
    clusterId: 'c1',
    resourceId: 'uid-web',
    firstTimestamp: iso(lastMs),
    lastTimestamp: iso(lastMs),
    count: 1,
    message: `message of ${eventId}`,
    component: 'kubelet',
    host: 'node-1',
    ...over,
  };
}

/**
 * The group that `entry`'s events make by default (the Pod shop/web, uid-web, Started, NORMAL),
 * with what its events add up to: the timestamps are those of firstMs and lastMs.
 */
export function webGroup(sums: {
  count: number;
  events: number;
  firstMs: number;
  lastMs: number;
  message: string;
}) {
  return {
    kind: 'Pod',
    namespace: 'shop',
    name: 'web',
    resourceId: 'uid-web',
    reason: 'Started',
    type: 'NORMAL',
    ...sums,
    firstTimestamp: iso(sums.firstMs),
    lastTimestamp: iso(sums.lastMs),
  };
}

/** The filter that lets every row through. */
export const ALL: EventFilter = { resourceEvents: true, systemEvents: true };

export type BackendKind = 'sqlite' | 'postgres';

/** Both backends, for `describe.each`: PostgreSQL is skipped (with its reason) where it cannot run. */
export const BACKENDS: ReadonlyArray<{ kind: BackendKind; skip: string | undefined }> = [
  { kind: 'sqlite', skip: undefined },
  { kind: 'postgres', skip: postgresSkipReason },
];

/**
 * The describes of `body` once per backend, named `on sqlite` and `on postgres`; PostgreSQL's
 * skipped, with its reason in the name, where it cannot run.
 */
export function eachBackend(body: (kind: BackendKind) => void): void {
  for (const { kind, skip } of BACKENDS)
    describe.skipIf(skip !== undefined)(`on ${kind}${skip ? ` (skipped: ${skip})` : ''}`, () => body(kind));
}

let server: Promise<TestPostgres> | undefined;

/**
 * The file's PostgreSQL server, started by the first describe that asks for it and stopped after
 * the file (call from a describe body or at the file's top level).
 */
export function postgresPerFile(): () => Promise<TestPostgres> {
  beforeAll(() => {
    server ??= startPostgres();
  });
  afterAll(async () => {
    const s = server;
    server = undefined;
    await (await s)?.stop();
  });
  return () => {
    server ??= startPostgres();
    return server;
  };
}

/** A backend on a database of its own: a PostgreSQL database of the file's server, or a SQLite file. */
export async function openBackend(
  kind: BackendKind,
): Promise<{ backend: StorageBackend; db: AppDatabase | undefined; close(): Promise<void> }> {
  if (kind === 'postgres') {
    if (!server) throw new Error('call postgresPerFile() in the describe that opens PostgreSQL stores');
    const backend = await openPostgresBackend(await (await server).createDatabase(), silentLogger(), {
      max: 3,
    });
    return { backend, db: undefined, close: () => backend.close() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'skiff-history-'));
  const db = openAppDatabase({ dataDir: dir, logger: silentLogger() });
  const backend = new SqliteBackend(db, silentLogger());
  return {
    backend,
    db,
    close: async () => {
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface OpenStore {
  backend: StorageBackend;
  /** The SQLite database under the backend; undefined on PostgreSQL. */
  db: AppDatabase | undefined;
  store: HistoryStore;
  /** Upserts in one transaction (one fsync, not one per row). */
  put(clusterId: string, entries: readonly EventEntry[], now?: number): Promise<void>;
  /** Marks the events expired, in one transaction. */
  expire(clusterId: string, eventIds: readonly string[], now: number): Promise<void>;
  /** pruneOldest in a transaction of its own: how many rows it removed. */
  prune(clusterId: string, opts: { beforeMs?: number; expiredOnly: boolean; batch: number }): Promise<number>;
  close(): Promise<void>;
}

export async function openStore(kind: BackendKind = 'sqlite'): Promise<OpenStore> {
  const { backend, db, close } = await openBackend(kind);
  const store = new HistoryStore(backend);
  return {
    backend,
    db,
    store,
    put: async (clusterId, entries, now = T0) => {
      await backend.transaction('test', (tx) => store.upsert(tx, clusterId, entries, now));
    },
    expire: async (clusterId, eventIds, now) => {
      await backend.transaction('test', (tx) => store.markExpired(tx, clusterId, eventIds, now));
    },
    prune: async (clusterId, opts) => {
      let n = 0;
      await backend.transaction('test', async (tx) => {
        n = await store.pruneOldest(tx, clusterId, opts);
      });
      return n;
    },
    close,
  };
}

/** A test's store as the test sees it: closing it is the hooks' job. */
export type TestStore = Omit<OpenStore, 'close'>;

/**
 * The store of whichever test runs now: `open` makes it (from a beforeEach), `close` closes it,
 * and `view` stands for it, so a file can hold one `s` while every test gets a database of its own.
 */
function storeOfEachTest(kind: BackendKind) {
  let current: OpenStore | undefined;
  const now = (): OpenStore => {
    if (!current) throw new Error('a test store is opened in beforeEach: use it inside a test');
    return current;
  };
  const view: TestStore = {
    get backend() {
      return now().backend;
    },
    get db() {
      return now().db;
    },
    get store() {
      return now().store;
    },
    put: (clusterId, entries, at) => now().put(clusterId, entries, at),
    expire: (clusterId, eventIds, at) => now().expire(clusterId, eventIds, at),
    prune: (clusterId, opts) => now().prune(clusterId, opts),
  };
  return {
    view,
    open: async () => {
      current = await openStore(kind);
    },
    close: async () => {
      await current?.close();
      current = undefined;
    },
  };
}

/** A store opened before each test of the file (or describe) and closed (its temp dir removed) after it. */
export function storePerTest(kind: BackendKind = 'sqlite'): TestStore {
  if (kind === 'postgres') postgresPerFile();
  const each = storeOfEachTest(kind);
  beforeEach(each.open);
  afterEach(each.close);
  return each.view;
}

export interface RecorderPerTest {
  /** The test's store, opened before it. */
  s: TestStore;
  /**
   * Starts the test's recorder, on the test's store unless given another backend; after the
   * test it is closed, then the store.
   */
  start(options?: EventHistoryOptions, backend?: StorageBackend): RecorderRig;
}

/** A store for each test of the file, and a recorder the test may start on it. */
export function recorderPerTest(kind: BackendKind = 'sqlite'): RecorderPerTest {
  if (kind === 'postgres') postgresPerFile();
  const each = storeOfEachTest(kind);
  let rig: RecorderRig | undefined;
  beforeEach(each.open);
  afterEach(async () => {
    await rig?.recorder.close();
    rig = undefined;
    await each.close();
  });
  return {
    s: each.view,
    start: (options = {}, backend = each.view.backend) => {
      rig = startRecorder(backend, options);
      return rig;
    },
  };
}

/** The event ids of rows, in their order. */
export const ids = (rows: ReadonlyArray<{ eventId: string }>) => rows.map((r) => r.eventId);

export interface RecorderRig {
  recorder: EventRecorder;
  /** The recorder's clock: what it stamps writes with and counts retention back from. */
  clock: { now: number };
  /** The monitoring flags every cluster has; change them in place. */
  flags: MonitoringFlags;
}

/** A recorder on `backend`; nothing flushes or prunes on its own unless the options say so. */
export function startRecorder(backend: StorageBackend, options: EventHistoryOptions = {}): RecorderRig {
  const clock = { now: T0 };
  const flags = { resourceEventsEnabled: true, systemEventsEnabled: true };
  const recorder = new EventRecorder({
    backend,
    options: resolveHistoryOptions({ flushMs: 3_600_000, pruneEveryMs: 3_600_000, ...options }),
    flags: () => ({ ...flags }),
    logger: silentLogger(),
    now: () => clock.now,
  });
  return { recorder, clock, flags };
}

/** Polls until `check` holds; false if it never did within `timeoutMs`. */
export async function becomes(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}
