/**
 * What a usage read answers beside its samples: points, a pod's bounds and OOM kills, a node's
 * capacity and allocatable, and the two lookups of recorded rows (the change history's last whole
 * object, the kept logs' OOM kills) on both backends, never past a snapshot's asOfMs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachBackend, openBackend, postgresPerFile } from '../../events/history/history.test-support';
import type { StorageBackend } from '../../storage/backend';
import type { RecordedSource } from '../source';
import {
  bound,
  containerBounds,
  keptOomKills,
  lastRecordedObject,
  nodeBounds,
  oomKillsWithin,
  statusOomKills,
  toPoints,
} from './reads';

const T = Date.UTC(2026, 0, 10, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

describe('toPoints', () => {
  it('answers each row as its instant and its containers', () => {
    expect(
      toPoints([
        { time_ms: T, resolution_ms: 30_000, containers: '{"app":{"cpuMillicores":1,"memoryBytes":2}}' },
        { time_ms: T + 1, resolution_ms: 300_000, containers: '{}' },
      ]),
    ).toEqual([
      { time: iso(T), containers: { app: { cpuMillicores: 1, memoryBytes: 2 } } },
      { time: iso(T + 1), containers: {} },
    ]);
  });
});

describe('bound', () => {
  it('reads text and number quantities, leaving out what is absent or does not parse', () => {
    expect(bound({ cpu: '250m', memory: '128Mi' })).toEqual({
      cpuMillicores: 250,
      memoryBytes: 128 * 2 ** 20,
    });
    expect(bound({ cpu: 2, memory: 1000 })).toEqual({ cpuMillicores: 2000, memoryBytes: 1000 });
    expect(bound({ cpu: '1500u', memory: '0.5' })).toEqual({ cpuMillicores: 1.5, memoryBytes: 1 });
    expect(bound({ cpu: 'x', memory: null })).toEqual({});
    expect(bound({ cpu: '-1', memory: '-1' })).toEqual({});
    expect(bound({ cpu: true })).toEqual({});
    expect(bound(undefined)).toEqual({});
    expect(bound({ cpu: '0' })).toEqual({ cpuMillicores: 0 });
    expect(bound({ memory: '0' })).toEqual({ memoryBytes: 0 });
  });
});

describe('containerBounds', () => {
  it('answers each named container’s requests and limits in the pod’s order', () => {
    const pod = {
      spec: {
        containers: [
          { name: 'app', resources: { requests: { cpu: '100m' }, limits: { memory: '1Ki' } } },
          { name: 'side' },
          { resources: { requests: { cpu: '1' } } },
          null,
        ],
      },
    };
    expect(containerBounds(pod)).toEqual([
      { name: 'app', requests: { cpuMillicores: 100 }, limits: { memoryBytes: 1024 } },
      { name: 'side', requests: {}, limits: {} },
    ]);
  });

  it('answers nothing for no pod or a pod without containers', () => {
    expect(containerBounds(undefined)).toEqual([]);
    expect(containerBounds({})).toEqual([]);
    expect(containerBounds({ spec: { containers: 'x' } })).toEqual([]);
  });
});

describe('statusOomKills and oomKillsWithin', () => {
  const pod = {
    status: {
      containerStatuses: [
        {
          name: 'app',
          state: { terminated: { reason: 'OOMKilled', finishedAt: iso(T + 10) } },
          lastState: { terminated: { reason: 'OOMKilled', finishedAt: iso(T) } },
        },
        { name: 'side', lastState: { terminated: { reason: 'Error', finishedAt: iso(T) } } },
        { name: 'bad-time', lastState: { terminated: { reason: 'OOMKilled', finishedAt: 'never' } } },
        { name: 'no-time', lastState: { terminated: { reason: 'OOMKilled' } } },
        { lastState: { terminated: { reason: 'OOMKilled', finishedAt: iso(T) } } },
      ],
    },
  };

  it('finds the kills in the current and the previous instance of each container', () => {
    expect(statusOomKills(pod)).toEqual([
      { container: 'app', ms: T + 10 },
      { container: 'app', ms: T },
    ]);
    expect(statusOomKills(undefined)).toEqual([]);
    expect(statusOomKills({})).toEqual([]);
    expect(
      statusOomKills({ status: { containerStatuses: [null, { name: 'x' }, { name: 'y', state: {} }] } }),
    ).toEqual([]);
    expect(statusOomKills({ status: { containerStatuses: {} } })).toEqual([]);
  });

  it('keeps the kills within the window, oldest first, each container and instant once', () => {
    const kills = [
      { container: 'b', ms: T },
      { container: 'a', ms: T + 10 },
      { container: 'a', ms: T },
      { container: 'a', ms: T },
      { container: 'a', ms: T - 1 },
      { container: 'a', ms: T + 11 },
    ];
    expect(oomKillsWithin(kills, T, T + 10)).toEqual([
      { container: 'a', time: iso(T) },
      { container: 'b', time: iso(T) },
      { container: 'a', time: iso(T + 10) },
    ]);
    const same = ['c', 'a', 'd', 'b'].map((container) => ({ container, ms: T }));
    expect(oomKillsWithin(same, T, T).map((k) => k.container)).toEqual(['a', 'b', 'c', 'd']);
    expect(oomKillsWithin([...same].reverse(), T, T).map((k) => k.container)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('nodeBounds', () => {
  it('answers capacity and allocatable when the node has them', () => {
    expect(
      nodeBounds({ status: { capacity: { cpu: '4', memory: '1Gi' }, allocatable: { cpu: '3800m' } } }),
    ).toEqual({
      capacity: { cpuMillicores: 4000, memoryBytes: 2 ** 30 },
      allocatable: { cpuMillicores: 3800 },
    });
    expect(nodeBounds({ status: {} })).toEqual({});
    expect(nodeBounds(undefined)).toEqual({});
  });
});

eachBackend((kind) => {
  if (kind === 'postgres') postgresPerFile();
  let backend: StorageBackend;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ backend, close } = await openBackend(kind));
    const change = (id: number, cluster: string, time: number, name: string, object: unknown) =>
      backend.run(
        `INSERT INTO change_history (id, cluster_id, time_ms, resource_type, kind, namespace, name, uid, change,
           resource_version, patch, summary, object, recorded_at)
         VALUES ($id, $cluster, $time, 'pod', 'Pod', 'ns', $name, 'u', 'updated', '1', '[]', '', $object, $time)`,
        { id, cluster, time, name, object: object === null ? null : JSON.stringify(object) },
      );
    await change(1, 'c', T, 'p', { v: 1 });
    await change(2, 'c', T + 10, 'p', { v: 2 });
    await change(3, 'c', T + 20, 'p', null); // a patch row: no whole object
    await change(4, 'c', T + 10, 'p', { v: 3 }); // same instant, later row
    await change(5, 'c', T + 30, 'p', { v: 5 });
    await change(6, 'other', T + 40, 'p', { v: 6 });
    await change(7, 'c', T + 50, 'q', { v: 7 });
    const kept = (id: number, cluster: string, container: string, reason: string, finished: number) =>
      backend.run(
        `INSERT INTO kept_logs (id, cluster_id, namespace, pod, pod_uid, container, restart_count, finished_at,
           finished_ms, exit_code, reason, lines, line_count, bytes, kept_at)
         VALUES ($id, $cluster, 'ns', 'p', 'u', $container, $id, NULL, $finished, 137, $reason, '', 0, 0, $finished)`,
        { id, cluster, container, reason, finished },
      );
    await kept(1, 'c', 'app', 'OOMKilled', T + 20);
    await kept(2, 'c', 'app', 'OOMKilled', T);
    await kept(3, 'c', 'app', 'Error', T + 5);
    await kept(4, 'other', 'app', 'OOMKilled', T + 1);
    await kept(5, 'c', 'side', 'OOMKilled', T + 40);
  });
  afterAll(async () => close?.());

  const live = (): RecordedSource => ({ db: backend, clusterId: 'c', frozen: false });
  const asOf = (ms: number): RecordedSource => ({ db: backend, clusterId: 'c', frozen: true, asOfMs: ms });

  it('lastRecordedObject answers the newest whole copy of that object in that cluster, not past asOfMs', async () => {
    expect(await lastRecordedObject(live(), 'pod', 'ns', 'p')).toEqual({ v: 5 });
    expect(await lastRecordedObject(asOf(T + 29), 'pod', 'ns', 'p')).toEqual({ v: 3 });
    expect(await lastRecordedObject(asOf(T + 9), 'pod', 'ns', 'p')).toEqual({ v: 1 });
    expect(await lastRecordedObject(asOf(T - 1), 'pod', 'ns', 'p')).toBeUndefined();
    expect(await lastRecordedObject(live(), 'pod', 'ns', 'q')).toEqual({ v: 7 });
    expect(await lastRecordedObject(live(), 'node', 'ns', 'p')).toBeUndefined();
    expect(await lastRecordedObject(live(), 'pod', 'other-ns', 'p')).toBeUndefined();
  });

  it('keptOomKills answers the OOMKilled runs kept of that pod in that cluster, oldest first, not past asOfMs', async () => {
    expect(await keptOomKills(live(), 'ns', 'p')).toEqual([
      { container: 'app', ms: T },
      { container: 'app', ms: T + 20 },
      { container: 'side', ms: T + 40 },
    ]);
    expect(await keptOomKills(asOf(T + 20), 'ns', 'p')).toEqual([
      { container: 'app', ms: T },
      { container: 'app', ms: T + 20 },
    ]);
    expect(await keptOomKills(live(), 'ns', 'other')).toEqual([]);
  });
});
