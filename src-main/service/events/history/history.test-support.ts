/**
 * Fixtures of the history's unit tests: a real database in a temp dir of its own (removed by
 * `close`), and event entries shaped as the cache hands them over.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { MonitoringFlags } from '../../../../src-shared/contract/models';
import { silentLogger } from '../../logger';
import { type AppDatabase, openAppDatabase } from '../../storage/database';
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

export interface OpenStore {
  db: AppDatabase;
  store: HistoryStore;
  /** Upserts in one transaction (one fsync, not one per row). */
  put(clusterId: string, entries: readonly EventEntry[], now?: number): void;
  close(): void;
}

export function openStore(): OpenStore {
  const dir = mkdtempSync(join(tmpdir(), 'skiff-history-'));
  const db = openAppDatabase({ dataDir: dir, logger: silentLogger() });
  const store = new HistoryStore(db);
  return {
    db,
    store,
    put: (clusterId, entries, now = T0) => db.write('test', () => store.upsert(clusterId, entries, now)),
    close: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A test's store as the test sees it: closing it is the hooks' job. */
export type TestStore = Omit<OpenStore, 'close'>;

/**
 * The store of whichever test runs now: `open` makes it (from a beforeEach), `close` closes it,
 * and `view` stands for it, so a file can hold one `s` while every test gets a database of its own.
 */
function storeOfEachTest() {
  let current: OpenStore | undefined;
  const now = (): OpenStore => {
    if (!current) throw new Error('a test store is opened in beforeEach: use it inside a test');
    return current;
  };
  const view: TestStore = {
    get db() {
      return now().db;
    },
    get store() {
      return now().store;
    },
    put: (clusterId, entries, at) => now().put(clusterId, entries, at),
  };
  return {
    view,
    open: () => {
      current = openStore();
    },
    close: () => {
      current?.close();
      current = undefined;
    },
  };
}

/** A store opened before each test of the file and closed (its temp dir removed) after it. */
export function storePerTest(): TestStore {
  const each = storeOfEachTest();
  beforeEach(each.open);
  afterEach(each.close);
  return each.view;
}

export interface RecorderPerTest {
  /** The test's store, opened before it. */
  s: TestStore;
  /**
   * Starts the test's recorder, on the test's store unless given another database; after the
   * test it is closed, then the store.
   */
  start(options?: EventHistoryOptions, db?: AppDatabase): RecorderRig;
}

/** A store for each test of the file, and a recorder the test may start on it. */
export function recorderPerTest(): RecorderPerTest {
  const each = storeOfEachTest();
  let rig: RecorderRig | undefined;
  beforeEach(each.open);
  afterEach(async () => {
    await rig?.recorder.close();
    rig = undefined;
    each.close();
  });
  return {
    s: each.view,
    start: (options = {}, db = each.view.db) => {
      rig = startRecorder(db, options);
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

/** A recorder on `db`; nothing flushes or prunes on its own unless the options say so. */
export function startRecorder(db: AppDatabase, options: EventHistoryOptions = {}): RecorderRig {
  const clock = { now: T0 };
  const flags = { resourceEventsEnabled: true, systemEventsEnabled: true };
  const recorder = new EventRecorder({
    db,
    options: resolveHistoryOptions({ flushMs: 3_600_000, pruneEveryMs: 3_600_000, ...options }),
    flags: () => ({ ...flags }),
    logger: silentLogger(),
    now: () => clock.now,
  });
  return { recorder, clock, flags };
}

/** Polls until `check` holds; false if it never did within `timeoutMs`. */
export async function becomes(check: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}
