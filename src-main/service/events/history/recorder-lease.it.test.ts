/**
 * One recorder per cluster across replicas: two services' event histories (their cluster registries
 * and recorders, as createService wires them) on one real PostgreSQL database, watching the same
 * simulator cluster with `--record-events all`. Only the holder of the cluster's recorder lease
 * writes; when the holder dies (its database connections killed), the other takes the lease over
 * within 30 s, and the table ends with every event the cluster has, each once.
 *
 * Who wrote a row is told by its recorded_at: each replica's clock runs ahead by years of its
 * own (10 and 20), far from the other's.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ClusterRegistry } from '../../clusters/registry';
import { loadContexts } from '../../kube/kubeconfig';
import { createLogger, silentLogger } from '../../logger';
import type { StorageBackend } from '../../storage/backend';
import type { TestPostgres } from '../../storage/postgres.test-support';
import { openPostgresBackend } from '../../storage/postgres-backend';
import { memoryStore } from '../../storage/store';
import { eventually } from '../../test-support/eventually.test-support';
import { BACKENDS, postgresPerFile } from './history.test-support';
import { EventHistory } from './index';

const YEAR = 365 * 86_400_000;
const CONTEXT = 'lease-test';

interface Replica {
  name: string;
  backend: StorageBackend;
  history: EventHistory;
  registry: ClusterRegistry;
  /** This replica's clock offset: its rows' recorded_at are about now + offset. */
  offset: number;
  /** The event history's write transactions this replica ran (begun, whether or not they changed rows). */
  writes: number;
  close(): Promise<void>;
}

const skip = BACKENDS.find((b) => b.kind === 'postgres')!.skip;

describe.skipIf(skip !== undefined)('the recorder lease on a shared PostgreSQL database', () => {
  const server = postgresPerFile();
  let pg: TestPostgres;
  let sim: Simulator | undefined;
  let dir: string | undefined;
  const open: Replica[] = [];

  beforeAll(async () => {
    pg = await server();
  });

  afterEach(async () => {
    for (const r of open.splice(0)) await r.close().catch(() => {});
    await sim?.close();
    sim = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function replica(name: string, url: string, kubeconfig: string, offset: number): Promise<Replica> {
    const logger = process.env.H2_DEBUG ? createLogger('debug') : silentLogger();
    const backend = await openPostgresBackend(url, logger, { max: 3 });
    const now = () => Date.now() + offset;
    // The real backend, with the history's write transactions counted on their way through.
    const counted = new Proxy(backend, {
      get(target, prop) {
        if (prop === 'transaction')
          return (label: string, fn: Parameters<StorageBackend['transaction']>[1]) => {
            if (label === 'event history') r.writes++;
            return target.transaction(label, fn);
          };
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const history = new EventHistory({
      backend: counted,
      replicaId: name,
      options: { record: 'all', flushMs: 50, leaseRetryMs: 5_000, retentionMs: 100 * YEAR },
      flags: () => ({ resourceEventsEnabled: true, systemEventsEnabled: true }),
      logger,
      now,
    });
    const registry: ClusterRegistry = new ClusterRegistry({
      contexts: loadContexts([kubeconfig]),
      store: memoryStore(),
      logger,
      timeoutMs: 10_000,
      eventRecording: history,
    });
    history.startAll(registry.allClusters());
    const r: Replica = {
      name,
      backend,
      history,
      registry,
      offset,
      writes: 0,
      close: async () => {
        await registry.close();
        await history.close();
        await backend.close();
      },
    };
    open.push(r);
    return r;
  }

  async function setUp() {
    sim = await startSimulator({ tickMs: false });
    dir = await mkdtemp(join(tmpdir(), 'skiff-lease-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await writeFile(kubeconfig, sim.kubeconfigYaml(CONTEXT));
    const url = await pg.createDatabase();
    const a = await replica('replica-a', url, kubeconfig, 10 * YEAR);
    const b = await replica('replica-b', url, kubeconfig, 20 * YEAR);
    const clusterId = a.registry.allClusters()[0]!.clusterId;
    return { a, b, url, clusterId };
  }

  /** Adds `n` events to the cluster; answers their event ids. */
  const addEvents = (prefix: string, n: number) =>
    Array.from(
      { length: n },
      (_, i) =>
        sim!.store.addEvent({
          involvedObject: {
            kind: 'Pod',
            name: `${prefix}-${i}`,
            namespace: 'shop',
            uid: `uid-${prefix}-${i}`,
          },
          reason: 'Tested',
          message: `about ${prefix}-${i}`,
        }).metadata.uid!,
    );

  /** Every row of the cluster: event id and who wrote it last (by recorded_at). */
  async function rows(backend: StorageBackend, clusterId: string) {
    return backend.all<{ event_id: string; recorded_at: number }>(
      'SELECT event_id, recorded_at FROM event_history WHERE cluster_id = $cluster ORDER BY event_id',
      { cluster: clusterId },
    );
  }

  const simEventIds = () =>
    sim!.store
      .list('events')
      .map((e) => e.metadata.uid!)
      .sort();

  const writer = (r: { recorded_at: number }, replicas: Replica[]) =>
    replicas.find((x) => Math.abs(r.recorded_at - Date.now() - x.offset) < YEAR)?.name;

  it('only the lease holder writes, and a killed holder is replaced within 30 s with no row lost or doubled', async () => {
    const { a, b, clusterId } = await setUp();
    // Exactly one of the two records the cluster.
    const holder = await eventually(async () => {
      const held = [a, b].filter((r) => r.history.recordingClusters().includes(clusterId));
      expect(held).toHaveLength(1);
      return held[0]!;
    }, 15_000);
    const other = holder === a ? b : a;
    expect(other.history.recordingClusters()).toEqual([]);

    addEvents('before', 5);
    await eventually(async () => {
      const got = await rows(a.backend, clusterId);
      expect(got.map((r) => r.event_id)).toEqual(simEventIds());
    }, 15_000);
    // Every row so far was written by the holder: the other replica saw the same events and wrote none.
    expect(holder.writes).toBeGreaterThan(0);
    expect(other.writes).toBe(0);
    expect(new Set((await rows(a.backend, clusterId)).map((r) => writer(r, [a, b])))).toEqual(
      new Set([holder.name]),
    );

    // The holder dies as kill -9 leaves it: its lease's session is cut off by the server, and
    // nothing of it asks or writes again (its pool closed, its caches stopped).
    const locks = await other.backend.all<{ pid: number }>(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(locks).toHaveLength(1);
    await other.backend.all('SELECT pg_terminate_backend($pid) AS done', { pid: locks[0]!.pid });
    await holder.backend.close();
    open.splice(open.indexOf(holder), 1);
    await holder.registry.close();
    await holder.history.close();
    expect(holder.history.recordingClusters()).toEqual([]);
    // Events while nobody records, then after the takeover.
    const during = addEvents('during', 5);
    await eventually(async () => expect(other.history.recordingClusters()).toEqual([clusterId]), 30_000);
    const after = addEvents('after', 5);
    await eventually(async () => {
      // Each event once (the key is (cluster, event id)), and none the cluster has missing.
      expect((await rows(other.backend, clusterId)).map((r) => r.event_id)).toEqual(simEventIds());
    }, 15_000);
    // What happened while nobody recorded, and after, was written by the new holder.
    const got = await rows(other.backend, clusterId);
    for (const r of got.filter((x) => during.includes(x.event_id) || after.includes(x.event_id)))
      expect(writer(r, [a, b])).toBe(other.name);
    expect(got.filter((x) => during.includes(x.event_id) || after.includes(x.event_id))).toHaveLength(10);
  });

  it('a holder that gives its leases back (SIGTERM) is replaced, and writes nothing after', async () => {
    const { a, b, clusterId } = await setUp();
    const holder = await eventually(async () => {
      const held = [a, b].filter((r) => r.history.recordingClusters().includes(clusterId));
      expect(held).toHaveLength(1);
      return held[0]!;
    }, 15_000);
    const other = holder === a ? b : a;
    await holder.history.releaseLeases();
    expect(holder.history.recordingClusters()).toEqual([]);
    const writesBefore = holder.writes;
    const later = addEvents('later', 3);
    await eventually(async () => expect(other.history.recordingClusters()).toEqual([clusterId]), 30_000);
    await eventually(async () => {
      expect((await rows(other.backend, clusterId)).map((r) => r.event_id)).toEqual(simEventIds());
    }, 15_000);
    const got = await rows(other.backend, clusterId);
    for (const r of got.filter((x) => later.includes(x.event_id))) expect(writer(r, [a, b])).toBe(other.name);
    // It still watches the cluster and sees its changes, but never takes the lease again.
    expect(holder.writes).toBe(writesBefore);
    expect(holder.history.recordingClusters()).toEqual([]);
  });
});
