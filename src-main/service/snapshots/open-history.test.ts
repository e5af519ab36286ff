import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LEVEL, recordingLogger } from '../http/recording-logger.test-support';
import { silentLogger } from '../logger';
import { AppDatabase } from '../storage/database';
import { buildSnapshotHistory } from './open-history';
import type { SnapshotFile } from './reader';
import {
  alterFile,
  META,
  openChecked,
  type Rows,
  tempFolder,
  writeSnapshot,
} from './skiff-file.test-support';

/**
 * A snapshot's event history: every event of the file, in an in-memory database of the app's own
 * schema, so the live cluster's history queries answer it.
 */

let folder: ReturnType<typeof tempFolder>;
const closing: Array<() => void> = [];
beforeEach(() => {
  folder = tempFolder();
});
afterEach(() => {
  for (const close of closing.splice(0)) close();
  folder.remove();
});

const TAKEN_MS = Date.parse(META.takenAt);

const event = (uid: string, name: string, lastTimestamp: string) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${name}.${uid}`, namespace: 'shop', uid, creationTimestamp: '2026-03-01T08:00:00Z' },
    involvedObject: { kind: 'Pod', name, namespace: 'shop', uid: `pod-${name}` },
    reason: 'BackOff',
    message: `about ${name}`,
    type: 'Warning',
    count: 3,
    firstTimestamp: '2026-03-01T08:00:00Z',
    lastTimestamp,
    source: { component: 'kubelet', host: 'worker-1' },
  });

async function fileWith(rows: Rows, change?: (path: string) => void): Promise<SnapshotFile> {
  const path = folder.path(`history-${Math.random().toString(36).slice(2)}.skiff`);
  writeSnapshot(path, rows);
  const file = await openChecked(path);
  closing.push(() => file.close());
  change?.(path);
  return file;
}

describe('buildSnapshotHistory', () => {
  it('holds every event of the file for the cluster: the expired ones gone at takenAt, the live ones present', async () => {
    const file = await fileWith({
      events: [
        ['u-2', 'shop', '2026-03-01T11:00:00Z', true, event('u-2', 'web-2', '2026-03-01T11:00:00Z')],
        ['u-1', 'shop', '2026-03-01T11:30:00Z', false, event('u-1', 'web-1', '2026-03-01T11:30:00Z')],
        ['u-3', 'shop', '2026-03-01T10:00:00Z', false, event('u-3', 'web-3', '2026-03-01T10:00:00Z')],
      ],
    });
    const { store, db } = await buildSnapshotHistory(file, 'snap-1', silentLogger());
    closing.push(() => db.close());
    const rows = await store.rowsAfter('snap-1', undefined, 10);
    expect(rows.map((r) => [r.eventId, r.expiredAt])).toEqual([
      ['u-1', undefined],
      ['u-2', TAKEN_MS],
      ['u-3', undefined],
    ]);
    expect(rows[0]).toMatchObject({
      clusterId: 'snap-1',
      name: 'web-1',
      namespace: 'shop',
      kind: 'Pod',
      reason: 'BackOff',
      message: 'about web-1',
      count: 3,
      lastTimestamp: '2026-03-01T11:30:00Z',
      firstTimestamp: '2026-03-01T08:00:00Z',
      component: 'kubelet',
      host: 'worker-1',
    });
    expect((await store.presentIds('snap-1')).sort()).toEqual(['u-1', 'u-3']);
    expect(await store.rowsAfter('another-cluster', undefined, 10)).toEqual([]);
    const recorded = db.all<{ recorded_at: number }>('SELECT DISTINCT recorded_at FROM event_history');
    expect(recorded.map((r) => r.recorded_at)).toEqual([TAKEN_MS]);
  });

  it('ends with the same indexes on the history table as the app database has', async () => {
    const file = await fileWith({
      events: [['u-1', 'shop', '2026-03-01T11:30:00Z', false, event('u-1', 'web-1', '2026-03-01T11:30:00Z')]],
    });
    const { db } = await buildSnapshotHistory(file, 'snap-2', silentLogger());
    closing.push(() => db.close());
    const fresh = AppDatabase.open(':memory:', silentLogger());
    closing.push(() => fresh.close());
    const indexes = (d: AppDatabase) =>
      d
        .all<{ name: string; sql: string }>(
          "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'event_history' ORDER BY name",
        )
        .map((r) => ({ ...r }));
    expect(indexes(fresh).length).toBeGreaterThan(0);
    expect(indexes(db)).toEqual(indexes(fresh));
  });

  it('a file with no events gives an empty history', async () => {
    const { store, db } = await buildSnapshotHistory(await fileWith({}), 'snap-3', silentLogger());
    closing.push(() => db.close());
    expect(await store.total('snap-3')).toBe(0);
  });

  it('event rows that cannot be read are left out, whether the check found them or the file changed after it', async () => {
    const good = (uid: string): NonNullable<Rows['events']>[number] => [
      uid,
      'shop',
      '2026-03-01T11:30:00Z',
      false,
      event(uid, `web-${uid}`, '2026-03-01T11:30:00Z'),
    ];
    const { logger, entries } = recordingLogger();
    const file = await fileWith(
      {
        events: [
          good('u-1'),
          ['u-bad', 'shop', '2026-03-01T11:31:00Z', true, '{"metadata": '],
          good('u-2'),
          good('u-3'),
          good('u-4'),
        ],
      },
      // After the check: one row no longer JSON, one whose message is an object, one whose count is text.
      (path) =>
        alterFile(
          path,
          `UPDATE events SET json = CASE uid WHEN 'u-2' THEN '[' WHEN 'u-3' THEN json_set(json, '$.message', json('{}')) ELSE json_set(json, '$.count', 'x') END WHERE uid IN ('u-2', 'u-3', 'u-4')`,
        ),
    );
    const { store, db } = await buildSnapshotHistory(file, 'snap-4', logger);
    closing.push(() => db.close());
    expect((await store.rowsAfter('snap-4', undefined, 10)).map((r) => r.eventId)).toEqual(['u-1']);
    expect(entries.filter((e) => e.msg?.includes('cannot be read'))).toMatchObject([
      { level: LEVEL.warn, clusterId: 'snap-4', unreadable: 3 },
    ]);
  });
});
