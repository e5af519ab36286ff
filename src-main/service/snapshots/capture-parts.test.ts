/**
 * What a capture (capture.ts) writes for each part, from a small cluster of our own making whose
 * parts answer or fail as each test says: the times it was taken, the cluster's version, a kind
 * that cannot be listed, events listed page by page or not at all, and when no logs are taken.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotGap, SnapshotProgress } from '../../../src-shared/contract/snapshot-models';
import type { ResourceEntry } from '../cache/entries';
import type { HistoryRow } from '../events/history/filter';
import type { KubeClient } from '../kube/kube-client';
import { CaptureFailed, type CaptureRequest, captureSnapshot } from './capture';
import { NINE } from './capture-kinds';
import type { CaptureSource } from './source';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-capture-parts-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: 'shop', name: 'web-1', uid: 'pod-uid' },
  spec: { containers: [{ name: 'app' }] },
  status: {
    phase: 'Running',
    containerStatuses: [{ name: 'app', restartCount: 0, ready: true, state: { running: {} }, lastState: {} }],
  },
};

const event = (uid: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { namespace: 'shop', name: `web-1.${uid}`, uid, creationTimestamp: '2026-03-01T11:00:00Z' },
  involvedObject: { kind: 'Pod', namespace: 'shop', name: 'web-1', uid: 'pod-uid' },
  reason: 'Started',
  message: 'Started container app',
  type: 'Normal',
  count: 1,
  firstTimestamp: '2026-03-01T11:00:00Z',
  lastTimestamp: '2026-03-01T11:00:00Z',
});

const historyRow = (eventId: string, i: number, expiredAt: number | undefined): HistoryRow => ({
  key: eventId,
  eventId,
  lastMs: Date.parse('2026-03-01T10:00:00Z') + i,
  firstMs: Date.parse('2026-03-01T09:00:00Z'),
  type: 'NORMAL',
  reason: 'Pulled',
  namespace: 'shop',
  kind: 'Pod',
  kindKey: 'pod',
  name: 'web-1',
  category: 'resource',
  clusterId: 'c',
  resourceId: 'pod-uid',
  firstTimestamp: '2026-03-01T09:00:00Z',
  lastTimestamp: new Date(Date.parse('2026-03-01T10:00:00Z') + i).toISOString(),
  count: 1,
  message: 'pulled',
  component: 'kubelet',
  host: 'worker-1',
  expiredAt,
});

interface Cluster {
  answers?: Record<string, (query: Record<string, string> | undefined) => unknown>;
  failKinds?: string[];
  /** The recorded rows, in the history's order (lastMs, eventId). */
  recorded?: HistoryRow[];
  /** Counts the recorded rows handed out. */
  read?: { rows: number };
}

function source({ answers = {}, failKinds = [], recorded, read }: Cluster): CaptureSource {
  const client = {
    async getJson(path: string, opts: { query?: Record<string, string> }) {
      const answer = answers[path];
      if (!answer) throw new Error(`${path}: not served`);
      return answer(opts.query);
    },
  } as unknown as KubeClient;
  return {
    clusterId: 'c',
    context: 'ctx',
    server: 'https://example.invalid',
    client,
    timeoutMs: 1000,
    async objects(kind) {
      if (failKinds.includes(kind.singular)) throw new Error(`${kind.plural} are forbidden`);
      if (kind.singular !== 'pod') return [];
      return [
        { key: 'shop/web-1', namespace: 'shop', name: 'web-1', labels: undefined, json: JSON.stringify(POD) },
      ] as ResourceEntry[];
    },
    discovery: async () => ({ kinds: NINE, gaps: [] }),
    history: async (after, limit) => {
      if (!recorded) return undefined;
      if (recorded.length === 0) throw new Error('the history is closed');
      const from = after
        ? recorded.findIndex((r) => r.lastMs === after.lastMs && r.eventId === after.eventId) + 1
        : 0;
      if (after && from === 0) throw new Error('no such row');
      const rows = recorded.slice(from, from + limit);
      if (read) read.rows += rows.length;
      return rows;
    },
  };
}

async function capture(src: CaptureSource, over: Partial<CaptureRequest> = {}) {
  const req: CaptureRequest = {
    logLines: 10,
    logs: 'none',
    skiffVersion: 'test',
    tempPath: join(dir, 'c.skiff.partial'),
    finalPath: join(dir, 'c.skiff'),
    progress: { objects: 0, events: 0, podLogsDone: 0, podLogsTotal: 0 } as SnapshotProgress,
    gaps: [] as SnapshotGap[],
    signal: new AbortController().signal,
    ...over,
  };
  const result = await captureSnapshot(src, req);
  const db = new DatabaseSync(req.finalPath, { readOnly: true });
  try {
    const meta = Object.fromEntries(
      (db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map((r) => [
        r.key,
        r.value,
      ]),
    );
    const rows = db.prepare('SELECT uid, expired FROM events ORDER BY uid').all() as Array<{
      uid: string;
      expired: number;
    }>;
    const events = rows.map((r) => r.uid);
    const expired = Object.fromEntries(rows.map((r) => [r.uid, r.expired]));
    return { result, meta, events, expired, gaps: req.gaps, progress: req.progress };
  } finally {
    db.close();
  }
}

describe('a capture', () => {
  it("is taken at the job's start and finished at the clock's now, both from the clock it is given", async () => {
    let t = Date.parse('2026-03-01T12:00:00Z');
    const now = () => (t += 1000);
    const started = await capture(source({}), { now, startedMs: Date.parse('2026-03-01T11:59:00Z') });
    expect(started.meta.takenAt).toBe('2026-03-01T11:59:00.000Z');
    expect(started.meta.finishedAt).toBe('2026-03-01T12:00:01.000Z');
    await rm(join(dir, 'c.skiff'));
    t = Date.parse('2026-03-01T12:00:00Z');
    const unstarted = await capture(source({}), { now });
    expect(unstarted.meta.takenAt).toBe('2026-03-01T12:00:01.000Z');
    expect(unstarted.meta.finishedAt).toBe('2026-03-01T12:00:02.000Z');
  });

  it("records the cluster's version from /version, and none when it does not answer", async () => {
    const served = await capture(source({ answers: { '/version': () => ({ gitVersion: 'v1.30.2' }) } }));
    expect(served.meta.kubernetesVersion).toBe('v1.30.2');
    await rm(join(dir, 'c.skiff'));
    const unanswered = await capture(source({}));
    expect(unanswered.meta.kubernetesVersion).toBeUndefined();
  });

  it('goes on without a kind that cannot be listed, a gap naming it; without pods, a gap for the logs', async () => {
    const { gaps } = await capture(source({ failKinds: ['deployment', 'pod'] }), { logs: 'all' });
    expect(gaps).toContainEqual({ part: 'deployments', reason: 'deployments are forbidden' });
    expect(gaps).toContainEqual({ part: 'pods', reason: 'pods are forbidden' });
    expect(gaps.find((g) => g.part === 'logs')?.reason).toMatch(/pods could not be listed/);
  });

  it('fails, leaving no file, only when every kind it tried failed, naming the first reason', async () => {
    const all = NINE.map((k) => k.resourceType);
    const failed = capture(source({ failKinds: all }));
    await expect(failed).rejects.toThrow(CaptureFailed);
    await expect(failed).rejects.toThrow(/^the cluster's objects could not be listed: \w+ are forbidden$/);
    expect(existsSync(join(dir, 'c.skiff'))).toBe(false);
    expect(existsSync(join(dir, 'c.skiff.partial'))).toBe(false);
    const one = await capture(source({ failKinds: all.filter((k) => k !== 'service') }));
    expect(one.gaps.filter((g) => g.reason.endsWith('are forbidden'))).toHaveLength(8);
  });

  it('is done, though it took no objects, when the only kind asked for is no longer served', async () => {
    const { gaps, result } = await capture(source({}), {
      kinds: [{ resourceType: 'widget', group: 'example.dev', plural: 'widgets' }],
    });
    expect(result.sizeBytes).toBeGreaterThan(0);
    expect(gaps).toContainEqual({
      part: 'widget',
      reason: 'the cluster does not serve this kind (any more)',
    });
  });

  it('lists the events page by page, following the continue token, a page without items being empty', async () => {
    const pages = (q: Record<string, string> | undefined) =>
      q?.continue === 'next'
        ? { metadata: {} }
        : q?.continue === undefined
          ? { metadata: { continue: 'middle' }, items: [event('e-1'), event('e-2')] }
          : { metadata: { continue: 'next' }, items: [event('e-3')] };
    const { events, gaps, progress } = await capture(source({ answers: { '/api/v1/events': pages } }));
    expect(events).toEqual(['e-1', 'e-2', 'e-3']);
    expect(progress.events).toBe(3);
    expect(gaps.filter((g) => g.part === 'events')).toEqual([]);
  });

  it('is a gap for the events when they cannot be listed', async () => {
    const { gaps } = await capture(source({}));
    expect(gaps).toContainEqual({ part: 'events', reason: '/api/v1/events: not served' });
  });

  it('takes no logs with logs=none or logLines=0', async () => {
    for (const over of [{ logs: 'none' as const }, { logs: 'all' as const, logLines: 0 }]) {
      const { progress, gaps } = await capture(source({}), over);
      expect(progress.podLogsTotal).toBe(0);
      expect(gaps.filter((g) => g.part === 'logs')).toEqual([]);
      await rm(join(dir, 'c.skiff'));
    }
  });

  it('adds the recorded events the list did not have, expired, and when the list failed, those the history holds as present, present', async () => {
    const recorded = [
      historyRow('h-gone', 1, 1),
      historyRow('h-here', 2, undefined),
      historyRow('e-1', 3, undefined),
    ];
    const listed = await capture(
      source({ recorded, answers: { '/api/v1/events': () => ({ metadata: {}, items: [event('e-1')] }) } }),
    );
    expect(listed.expired).toEqual({ 'e-1': 0, 'h-gone': 1, 'h-here': 1 });
    expect(listed.progress.events).toBe(3);
    await rm(join(dir, 'c.skiff'));
    const unlisted = await capture(source({ recorded }));
    expect(unlisted.expired).toEqual({ 'e-1': 0, 'h-gone': 1, 'h-here': 0 });
    expect(unlisted.progress.events).toBe(3);
  });

  it('reads the recorded events in batches to the last one', async () => {
    const recorded = Array.from({ length: 5_003 }, (_, i) =>
      historyRow(`h-${String(i).padStart(5, '0')}`, i, 1),
    );
    const read = { rows: 0 };
    const { events, progress } = await capture(source({ recorded, read }));
    expect(events).toHaveLength(5_003);
    // Each batch starts after the last row of the one before: every row is read once.
    expect(read.rows).toBe(5_003);
    expect(progress.events).toBe(5_003);
  });

  it('is a gap for the event history when it cannot be read', async () => {
    const { gaps } = await capture(source({ recorded: [] }));
    expect(gaps).toContainEqual({ part: 'eventHistory', reason: 'the history is closed' });
  });
});
