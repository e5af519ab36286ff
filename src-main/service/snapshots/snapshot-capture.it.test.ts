/**
 * Taking a snapshot over real HTTP: the job's life (202, Location, polling), the downloaded file
 * read with node:sqlite (objects, events with the expired history, logs with previous runs,
 * metrics, meta), the logs=failing choice, a metrics API that fails, and bad requests.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TOKEN, DEMO_NODES, DEMO_PODS } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRecord } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import type { SnapshotJob } from '../../../src-shared/contract/snapshot-models';
import { SNAPSHOT_MEDIA_TYPE } from '../../../src-shared/contract/snapshot-operations';
import { RESOURCE_KINDS, RESOURCE_TYPES } from '../../../src-shared/kube/kinds';
import { normaliseEvent } from '../events/normalise';
import { SERVICE_VERSION } from '../operations/index';
import { eventually } from '../test-support/eventually.test-support';
import { CONTEXT, collectAll, type Stack, startStack } from '../test-support/harness.test-support';
import {
  download,
  finished,
  gapsOf,
  metaOf,
  readSnapshot,
  SNAPSHOTS,
  startCapture,
} from './snapshot-capture.test-support';

const DAY = 86_400_000;
// The demo data is made 400 days back; then the clock moves to today and the simulator's event
// TTL drops every demo event, which only the event history still holds.
let simNow = Date.now() - 400 * DAY;
let stack: Stack;
let dir: string;
let expiredCount = 0;
/** The records the live list served before the TTL ran, by eventId. */
const before = new Map<string, EventRecord>();

const objectKey = (o: { metadata: { namespace?: string; name: string } }) =>
  `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

async function simGet<T>(path: string): Promise<T> {
  const res = await fetch(stack.sim.url + path, { headers: { authorization: `Bearer ${DEFAULT_TOKEN}` } });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

async function simLog(namespace: string, pod: string, query: string): Promise<string> {
  const res = await fetch(`${stack.sim.url}/api/v1/namespaces/${namespace}/pods/${pod}/log?${query}`, {
    headers: { authorization: `Bearer ${DEFAULT_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return res.text();
}

/**
 * The demo's NotReady node answers no log request (its kubelet is unreachable, HTTP 500): the
 * logs of its pods are the only gaps a healthy capture may have, one per container.
 */
function expectOnlyUnreachableNodeGaps(job: SnapshotJob) {
  expect(job.missing.length).toBeGreaterThan(0);
  for (const g of job.missing) {
    expect(g.part).toBe('logs');
    const [namespace, pod] = g.target!.split('/') as [string, string];
    const spec = stack.sim.store.peek('pods', namespace, pod)?.spec as { nodeName?: string };
    expect(spec.nodeName, g.target).toBe(DEMO_NODES.notReady);
    expect(g.reason).toMatch(/^the cluster answered 500: .*no route to host/);
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-capture-'));
  stack = await startStack({
    simulator: { listOrder: 'scrambled', now: () => simNow, eventTtlMs: 365 * DAY },
    service: { eventHistory: { record: 'all', flushMs: 20, retentionMs: 1_000 * DAY } },
  });
  for (const e of await collectAll<EventRecord>(stack, `${stack.cluster}/kubernetes-events?limit=1000`))
    before.set(e.eventId, e);
  simNow = Date.now();
  stack.sim.store.addEvent({
    involvedObject: { kind: 'Pod', name: 'fresh-pod', namespace: 'shop', uid: 'uid-fresh' },
    reason: 'FreshToday',
    message: 'still in the cluster',
  });
  expiredCount = stack.sim.expireEvents();
  expect(expiredCount).toBeGreaterThan(20);
  await eventually(async () =>
    expect((await stack.get(`${stack.cluster}/kubernetes-events`)).headers.get('x-total')).toBe('1'),
  );
});
afterAll(async () => {
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a full capture', () => {
  let job: SnapshotJob;
  let file: string;

  beforeAll(async () => {
    const started = await startCapture(stack);
    expect(started).toMatchObject({
      status: 'running',
      clusterId: 'sim-test',
      context: CONTEXT,
      missing: [],
    });
    job = await finished(stack, started.snapshotId);
    file = (await download(stack, job.snapshotId, dir)).path;
  });

  it('ends done, its progress and size matching the file', async () => {
    expect(job.status).toBe('done');
    expectOnlyUnreachableNodeGaps(job);
    expect(job.error).toBeUndefined();
    expect(job.finishedAt).toBeDefined();
    expect(job.fileName).toMatch(/^sim-test-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.skiff$/);
    const res = await fetch(`${stack.url}/v1/snapshots/${job.snapshotId}/file`, {
      method: 'HEAD',
      headers: stack.session.headers,
    });
    expect(res.headers.get('content-type')).toBe(SNAPSHOT_MEDIA_TYPE);
    expect(res.headers.get('content-length')).toBe(String(job.sizeBytes));
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${job.fileName}"`);
    readSnapshot(file, (db) => {
      const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      expect(count('SELECT count(*) AS n FROM objects')).toBe(job.progress.objects);
      expect(count('SELECT count(*) AS n FROM events')).toBe(job.progress.events);
    });
    expect(job.progress.podLogsDone).toBe(job.progress.podLogsTotal);
    expect(job.progress.podLogsTotal).toBeGreaterThan(10);
  });

  it('holds every object of the nine kinds as the cluster has them, without managedFields, and Secrets without values', () => {
    readSnapshot(file, (db) => {
      const kinds = db
        .prepare('SELECT DISTINCT kind FROM objects ORDER BY kind')
        .all()
        .map((r) => r.kind);
      // The other kinds: snapshot-capture-kinds.it.test.ts.
      expect(kinds).toEqual(expect.arrayContaining([...RESOURCE_TYPES]));
      for (const type of RESOURCE_TYPES) {
        const kind = RESOURCE_KINDS[type];
        const rows = db
          .prepare('SELECT namespace, name, json FROM objects WHERE kind = ?')
          .all(type) as Array<{
          namespace: string;
          name: string;
          json: string;
        }>;
        const inCluster = stack.sim.store.list(kind.plural);
        expect(
          inCluster.some((o) => o.metadata.managedFields !== undefined),
          type,
        ).toBe(true);
        expect(rows.map((r) => `${r.namespace}/${r.name}`).sort(), type).toEqual(
          inCluster.map(objectKey).sort(),
        );
        for (const r of rows) {
          const obj = JSON.parse(r.json) as { kind: string; metadata: { managedFields?: unknown } };
          expect(obj.kind).toBe(kind.kind);
          expect(obj.metadata.managedFields).toBeUndefined();
        }
      }
      const secrets = db.prepare("SELECT json FROM objects WHERE kind = 'secret'").all() as Array<{
        json: string;
      }>;
      expect(secrets.length).toBeGreaterThan(0);
      for (const r of secrets) expect(JSON.parse(r.json)).not.toHaveProperty('data');
    });
  });

  it('holds the live events and, marked expired, the ones only the event history still had', () => {
    readSnapshot(file, (db) => {
      const rows = db.prepare('SELECT uid, expired, json FROM events').all() as Array<{
        uid: string;
        expired: number;
        json: string;
      }>;
      const live = rows.filter((r) => r.expired === 0);
      expect(live.map((r) => r.uid).sort()).toEqual(
        stack.sim.store
          .list('events')
          .map((e) => e.metadata.uid)
          .sort(),
      );
      const expired = rows.filter((r) => r.expired === 1);
      expect(expired).toHaveLength(expiredCount);
      // Written back as core/v1 Events, they normalise to the records the live list served.
      for (const r of expired) {
        const record = normaliseEvent(JSON.parse(r.json), 'sim-test');
        const { lastMs: _l, category: _c, ...fields } = record;
        const { workspaceId: _w, ...served } = before.get(r.uid)!;
        expect(fields).toEqual(served);
      }
    });
  });

  it("holds each container's last lines, and the previous run of one that restarted", async () => {
    const crash = DEMO_PODS.crashLoop;
    const rows = readSnapshot(file, (db) =>
      db
        .prepare(
          'SELECT previous, line_count, text FROM logs WHERE namespace = ? AND pod = ? AND container = ?',
        )
        .all(crash.namespace, crash.name, crash.container),
    ) as Array<{ previous: number; line_count: number; text: string }>;
    expect(rows.map((r) => r.previous).sort()).toEqual([0, 1]);
    const previous = rows.find((r) => r.previous === 1)!;
    const served = await simLog(
      crash.namespace,
      crash.name,
      `container=${crash.container}&previous=true&timestamps=true&tailLines=1000`,
    );
    expect(previous.text).toBe(served);
    expect(previous.line_count).toBe(served.split('\n').length - 1);
    expect(previous.text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z /);
    const checkout = DEMO_PODS.checkout;
    const containers = readSnapshot(file, (db) =>
      db
        .prepare('SELECT container FROM logs WHERE namespace = ? AND pod = ? AND previous = 0')
        .all(checkout.namespace, checkout.name),
    ).map((r) => r.container);
    // Both containers and the init container.
    expect(containers.sort()).toEqual(['checkout', 'envoy', 'migrate']);
  });

  it('holds the pod and node metrics that metrics.k8s.io served', async () => {
    const pods = await simGet<{ items: unknown[] }>('/apis/metrics.k8s.io/v1beta1/pods');
    const nodes = await simGet<{ items: unknown[] }>('/apis/metrics.k8s.io/v1beta1/nodes');
    expect(pods.items.length).toBeGreaterThan(0);
    readSnapshot(file, (db) => {
      const n = (kind: string) =>
        (db.prepare('SELECT count(*) AS n FROM metrics WHERE kind = ?').get(kind) as { n: number }).n;
      expect(n('pod')).toBe(pods.items.length);
      expect(n('node')).toBe(nodes.items.length);
    });
  });

  it('says what it is, whence and when in meta, complete last', async () => {
    const version = await simGet<{ gitVersion: string }>('/version');
    readSnapshot(file, (db) => {
      const meta = metaOf(db);
      expect(meta).toMatchObject({
        format: 'skiff-snapshot',
        schemaVersion: '3',
        skiffVersion: SERVICE_VERSION,
        context: CONTEXT,
        server: stack.sim.url,
        kubernetesVersion: version.gitVersion,
        takenAt: job.startedAt,
        logLines: '1000',
        logs: 'all',
        complete: '1',
      });
      expect(Date.parse(meta.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(meta.takenAt!));
      expect(Number(meta.durationMs)).toBe(Date.parse(meta.finishedAt!) - Date.parse(meta.takenAt!));
      expect(gapsOf(db)).toEqual(
        job.missing.map((g) => ({ part: g.part, target: g.target ?? null, reason: g.reason })),
      );
    });
  });
});

describe('choices and failures', () => {
  it("takes only the failing pods' logs, and at most logLines lines each, with logs=failing", async () => {
    const job = await finished(
      stack,
      (await startCapture(stack, { logs: 'failing', logLines: 3 })).snapshotId,
    );
    expect(job.status).toBe('done');
    expectOnlyUnreachableNodeGaps(job);
    const file = (await download(stack, job.snapshotId, dir)).path;
    readSnapshot(file, (db) => {
      const pods = new Set(
        db
          .prepare('SELECT DISTINCT pod FROM logs')
          .all()
          .map((r) => r.pod as string),
      );
      expect(pods.has(DEMO_PODS.crashLoop.name)).toBe(true);
      expect(pods.has(DEMO_PODS.oomKilled.name)).toBe(true);
      expect(pods.has(DEMO_PODS.checkout.name)).toBe(false);
      // A failing pod on the NotReady node has its logs as gaps instead (the kubelet is unreachable).
      for (const g of job.missing) pods.add(g.target!.split('/')[1]!);
      expect(job.progress.podLogsTotal).toBe(pods.size);
      const most = db.prepare('SELECT max(line_count) AS n FROM logs').get() as { n: number };
      expect(most.n).toBe(3);
      expect(metaOf(db)).toMatchObject({ logs: 'failing', logLines: '3' });
    });
  });

  it('is done with a metrics gap when the metrics API fails, in the job and in the file', async () => {
    stack.sim.faults.metricsDown = true;
    try {
      const job = await finished(stack, (await startCapture(stack, { logs: 'none' })).snapshotId);
      expect(job.status).toBe('done');
      expect(job.missing).toHaveLength(1);
      expect(job.missing[0]).toMatchObject({ part: 'metrics' });
      expect(job.missing[0]!.reason).toBe(
        'pod metrics: the cluster answered 503: service unavailable; node metrics: the cluster answered 503: service unavailable',
      );
      const file = (await download(stack, job.snapshotId, dir)).path;
      readSnapshot(file, (db) => {
        expect(gapsOf(db)).toEqual([{ part: 'metrics', target: null, reason: job.missing[0]!.reason }]);
        expect(db.prepare('SELECT count(*) AS n FROM metrics').get()).toEqual({ n: 0 });
        expect(db.prepare('SELECT count(*) AS n FROM logs').get()).toEqual({ n: 0 });
        expect(metaOf(db).complete).toBe('1');
      });
    } finally {
      stack.sim.faults.metricsDown = false;
    }
  });

  it('answers 409 for the file while the job runs and for a second capture of the cluster', async () => {
    stack.sim.faults.latencyMs = 300;
    try {
      const job = await startCapture(stack, { logs: 'none' });
      const file = await stack.get<Problem>(`/v1/snapshots/${job.snapshotId}/file`);
      expect(file.status).toBe(409);
      expect(file.body).toMatchObject({ code: 'conflict' });
      const again = await stack.send<Problem>('POST', SNAPSHOTS, {});
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'conflict', snapshotId: job.snapshotId });
      expect((await finished(stack, job.snapshotId)).status).toBe('done');
    } finally {
      stack.sim.faults.latencyMs = 0;
    }
  });

  it('answers 404 for an unknown job and 400 for a malformed id or body', async () => {
    for (const path of ['/v1/snapshots/snap-0000', '/v1/snapshots/snap-0000/file']) {
      const res = await stack.get<Problem>(path);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'snapshot_not_found' });
    }
    expect((await stack.get<Problem>('/v1/snapshots/Not_An_Id')).status).toBe(400);
    for (const body of [{ logLines: -1 }, { logLines: 10_001 }, { logs: 'some' }, { extra: true }]) {
      const res = await stack.send<Problem>('POST', SNAPSHOTS, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_body' });
    }
    const unknown = await stack.send<Problem>('POST', '/v1/workspaces/default/clusters/nope/snapshots', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'cluster_not_found' });
  });
});
