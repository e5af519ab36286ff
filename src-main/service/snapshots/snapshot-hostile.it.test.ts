/**
 * Hostile snapshot files over real HTTP (issue 22 §1): each is uploaded with POST /v1/snapshots
 * and refused with 400 problem+json naming what is wrong while /v1/health keeps answering; a check
 * still under way leaves the service answering, ends at its budget, and ends with the service;
 * event rows that cannot be read are left out of every event answer and counted on the cluster;
 * another file of an open capture is 409.
 */
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster, EventRecord } from '../../../src-shared/contract/models';
import { SNAPSHOT_MEDIA_TYPE } from '../../../src-shared/contract/snapshot-operations';
import { ProblemError } from '../errors';
import { eventually } from '../test-support/eventually.test-support';
import { HOSTILE_FILES } from './hostile-files.test-support';
import { alterMeta } from './open-fixture.test-support';
import { runningProbes } from './probe';
import { type Captured, captureFixture, type OpenStack, startOpenStack } from './snapshot-open.test-support';

let files: string;
let good: string;
let captured: Captured;
const stacks: OpenStack[] = [];

beforeAll(async () => {
  files = await mkdtemp(join(tmpdir(), 'skiff-hostile-'));
  good = join(files, 'good.skiff');
  captured = await captureFixture(good);
});
afterEach(async () => {
  for (const s of stacks.splice(0)) await s.close();
});
afterAll(() => rm(files, { recursive: true, force: true }));

async function stack(config: Parameters<typeof startOpenStack>[0] = {}) {
  const s = await startOpenStack(config);
  stacks.push(s);
  return s;
}

const post = (s: OpenStack, body: BodyInit) =>
  s.call<Cluster & { code: string; detail: string; clusterId?: string }>('POST', '/v1/snapshots', {
    headers: { 'content-type': SNAPSHOT_MEDIA_TYPE },
    body,
  });

/**
 * Asks /v1/health again and again until `stop` says so: every answer must be 200, and come within
 * a bound far above any answer's (a "did not hang" guard, not a timing). Returns how many answered.
 */
function keepAsking(url: string): { stop(): Promise<number> } {
  let asking = true;
  const loop = (async () => {
    let answered = 0;
    while (asking) {
      const res = await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(5_000) });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      answered++;
    }
    return answered;
  })();
  return {
    stop: async () => {
      asking = false;
      return loop;
    },
  };
}

/** Resolves `true` once `p` settles, `false` while it has not (a state, read now). */
const settledNow = async (p: Promise<unknown>) =>
  Promise.race([
    p.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((r) => setImmediate(() => r(false))),
  ]);

/** Holds an exclusive SQLite lock on `path` until released: a check reading it waits. */
function lockFile(path: string): { release(): void } {
  const db = new DatabaseSync(path);
  db.exec('BEGIN EXCLUSIVE');
  return {
    release() {
      db.exec('ROLLBACK');
      db.close();
    },
  };
}

describe('hostile files uploaded', () => {
  it('each is 400 invalid_snapshot naming what is wrong, leaves nothing behind, and /v1/health answers all the while', async () => {
    const s = await stack();
    const health = keepAsking(s.url);
    try {
      for (const [i, hostile] of HOSTILE_FILES.entries()) {
        const path = join(files, `hostile-${i}.skiff`);
        hostile.build(path);
        const res = await post(s, await readFile(path));
        expect(res.status, hostile.what).toBe(400);
        expect(res.headers.get('content-type')).toContain('application/problem+json');
        expect(res.body.code).toBe('invalid_snapshot');
        expect(res.body.detail, hostile.what).toMatch(hostile.detail);
        expect(res.body.detail).toMatch(/^the uploaded file is not a usable Skiff snapshot: /);
        await rm(path);
      }
    } finally {
      expect(await health.stop()).toBeGreaterThan(0);
    }
    expect(await readdir(join(s.dir, 'data', 'opened-snapshots')).catch(() => [])).toEqual([]);
    const clusters = await s.call<Cluster[]>('GET', '/v1/workspaces/default/clusters');
    expect(clusters.body).toEqual([]);
    expect(runningProbes()).toBe(0);
  }, 120_000);
});

describe('a check under way', () => {
  it('leaves /v1/health answering while it waits, and opens the file once it can read it', async () => {
    const s = await stack();
    const path = join(files, 'waited.skiff');
    await copyFile(good, path);
    const lock = lockFile(path);
    let opening: Promise<Cluster> | undefined;
    try {
      opening = s.service.snapshots.open(path);
      const health = keepAsking(s.url);
      await eventually(async () => expect(runningProbes()).toBe(2), 20_000);
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${s.url}/v1/health`, { signal: AbortSignal.timeout(5_000) });
        expect(res.status).toBe(200);
      }
      expect(await settledNow(opening)).toBe(false);
      expect(await health.stop()).toBeGreaterThan(0);
    } finally {
      lock.release();
    }
    expect((await opening).status).toBe('snapshot');
  }, 60_000);

  it('is ended at its budget and the file refused, the service answering meanwhile', async () => {
    const s = await stack({ snapshotCheckMs: 1_000 });
    const path = join(files, 'outlasted.skiff');
    await copyFile(good, path);
    const lock = lockFile(path);
    try {
      const health = keepAsking(s.url);
      const thrown = await s.service.snapshots.open(path).catch((err: unknown) => err);
      expect(await health.stop()).toBeGreaterThan(0);
      expect(thrown).toBeInstanceOf(ProblemError);
      expect((thrown as ProblemError).code).toBe('invalid_snapshot');
      expect((thrown as ProblemError).message).toMatch(/checking it took longer than 1 s/);
    } finally {
      lock.release();
    }
    expect(runningProbes()).toBe(0);
  }, 60_000);

  it('ends when the service closes', async () => {
    const s = await startOpenStack();
    const path = join(files, 'closed.skiff');
    await copyFile(good, path);
    const lock = lockFile(path);
    try {
      const opening = s.service.snapshots.open(path).catch((err: unknown) => err);
      await eventually(async () => expect(runningProbes()).toBe(2), 20_000);
      await s.close();
      expect(await opening).toBeInstanceOf(Error);
      expect(runningProbes()).toBe(0);
    } finally {
      lock.release();
    }
  }, 60_000);
});

describe('event rows that cannot be read', () => {
  it('are left out of the list, the timeline and the groups, history or not, and counted on the cluster', async () => {
    const s = await stack();
    const path = join(files, 'unreadable.skiff');
    await copyFile(good, path);
    const db = new DatabaseSync(path);
    // Two the cluster still had and two from the history: cut, an array, an object for a message.
    const broken = db
      .prepare(
        `SELECT uid, expired FROM events WHERE rowid IN (
           SELECT rowid FROM events WHERE expired = 0 LIMIT 2) OR rowid IN (SELECT rowid FROM events WHERE expired = 1 LIMIT 2)`,
      )
      .all() as Array<{ uid: string; expired: number }>;
    const texts = [
      '{"metadata": {"name": ',
      '[1]',
      '{"metadata":{},"message":{"a":1}}',
      '{"metadata":{},"type":5}',
    ];
    const update = db.prepare('UPDATE events SET json = ? WHERE uid = ?');
    broken.forEach((b, i) => {
      update.run(texts[i]!, b.uid);
    });
    db.close();
    expect(broken.map((b) => b.expired).sort()).toEqual([0, 0, 1, 1]);

    const opened = await post(s, await readFile(path));
    expect(opened.status, opened.text).toBe(201);
    expect(opened.body.missing).toEqual([
      {
        part: 'events',
        reason:
          "4 event rows of the file cannot be read (not a JSON object with an Event's fields) and are left out",
      },
    ]);
    const listed = await s.call<Cluster[]>('GET', '/v1/workspaces/default/clusters');
    expect(listed.body[0]!.missing).toEqual(opened.body.missing);

    const base = `/v1/workspaces/default/observability/${opened.body.clusterId}/kubernetes-events`;
    const gone = new Set(broken.map((b) => b.uid));
    const live = captured.summary.liveEvents;
    const all = captured.summary.liveEvents + captured.summary.expiredEvents;
    for (const [query, total] of [
      ['?limit=500', live - 2],
      ['?includeExpired=true&limit=500', all - 4],
    ] as const) {
      const res = await s.call<EventRecord[]>('GET', `${base}${query}`);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(Number(res.headers.get('x-total')), query).toBe(total);
      expect(res.body.filter((e) => gone.has(e.eventId))).toEqual([]);
    }
    for (const view of ['timeline', 'groups'])
      for (const query of ['', '?includeExpired=true']) {
        const res = await s.call('GET', `${base}/${view}${query}`);
        expect(res.status, `${view}${query}: ${res.text}`).toBe(200);
      }
    const timeline = await s.call<{ buckets: Array<{ normal: number; warning: number }> }>(
      'GET',
      `${base}/timeline?includeExpired=true`,
    );
    const counted = timeline.body.buckets.reduce((n, b) => n + b.normal + b.warning, 0);
    expect(counted).toBe(all - 4);
  }, 60_000);
});

describe('another file of a capture already open', () => {
  it('is 409 conflict naming the open cluster when its content differs, and the open cluster when it is the same', async () => {
    const s = await stack();
    const first = await post(s, await readFile(good));
    expect(first.status).toBe(201);
    const other = join(files, 'other-content.skiff');
    await copyFile(good, other);
    // Same context, takenAt and finishedAt; one object less.
    const db = new DatabaseSync(other);
    db.exec(
      "DELETE FROM objects WHERE kind = 'pod' AND name = (SELECT min(name) FROM objects WHERE kind = 'pod')",
    );
    db.close();
    const refused = await post(s, await readFile(other));
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.body.code).toBe('conflict');
    expect(refused.body.clusterId).toBe(first.body.clusterId);
    expect(refused.body.detail).toBe(
      `the uploaded file is a file of the capture of prod-eu taken 2026-03-01T12:00:00Z, which is open already as ${first.body.clusterId} from a file with other content`,
    );
    const byPath = await s.service.snapshots.open(other).catch((err: unknown) => err);
    expect((byPath as ProblemError).code).toBe('conflict');

    const same = await post(s, await readFile(good));
    expect(same.status).toBe(200);
    expect(same.body.clusterId).toBe(first.body.clusterId);
    // A file of another capture (finished at another time) is a cluster of its own.
    const later = join(files, 'later.skiff');
    await copyFile(good, later);
    alterMeta(later, 'finishedAt', '2026-03-01T12:00:09Z');
    const second = await post(s, await readFile(later));
    expect(second.status).toBe(201);
    expect(second.body.clusterId).toBe(`${first.body.clusterId}-2`);
    const clusters = await s.call<Cluster[]>('GET', '/v1/workspaces/default/clusters');
    expect(clusters.body).toHaveLength(2);
  }, 60_000);

  it('sent twice at once opens one cluster, answered to both', async () => {
    const s = await stack();
    const body = await readFile(good);
    const [a, b] = await Promise.all([post(s, body), post(s, body)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.clusterId).toBe(b.body.clusterId);
    const clusters = await s.call<Cluster[]>('GET', '/v1/workspaces/default/clusters');
    expect(clusters.body).toHaveLength(1);
  }, 60_000);
});
