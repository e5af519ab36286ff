import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SNAPSHOT_SCHEMA_VERSION } from './format';
import { checkSnapshot } from './inspect';
import type { SnapshotEventRow, SnapshotFile } from './reader';
import {
  META,
  objectJson,
  openChecked,
  type Rows,
  tableRows,
  tempFolder,
  writeSnapshot,
} from './skiff-file.test-support';
import { SnapshotWriter } from './writer';

/**
 * A file the writer wrote reads back exactly through the reader: every part, in rows written in
 * no particular order (the reader promises no order of its own; the simulator sorts what it
 * serves), so the answers are compared as sets.
 */

let folder: ReturnType<typeof tempFolder>;
const opened: SnapshotFile[] = [];
beforeEach(() => {
  folder = tempFolder();
});
afterEach(() => {
  for (const f of opened.splice(0)) f.close();
  folder.remove();
});

async function roundTrip(
  rows: Rows,
  meta: Partial<typeof META> = {},
): Promise<{ file: SnapshotFile; path: string }> {
  const path = folder.path('rt.skiff');
  writeSnapshot(path, rows, meta);
  const file = await openChecked(path);
  opened.push(file);
  return { file, path };
}

const byKey = <T extends { namespace?: string | undefined; name?: string | undefined }>(items: T[]) =>
  [...items].sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));

describe('objects', () => {
  it('every kind reads back as written, with its namespace and name, decoded with the kind and apiVersion of its type', async () => {
    const rows: NonNullable<Rows['objects']> = [
      [
        'pod',
        'shop',
        'web-2',
        objectJson('v1', 'Pod', 'shop', 'web-2', { spec: { containers: [{ name: 'a' }] } }),
      ],
      [
        'deployment',
        'shop',
        'web',
        objectJson('apps/v1', 'Deployment', 'shop', 'web', { custom: { kept: 1 } }),
      ],
      ['node', '', 'worker-2', objectJson('v1', 'Node', '', 'worker-2')],
      ['pod', 'api', 'api-1', objectJson('v1', 'Pod', 'api', 'api-1', { status: { phase: 'Running' } })],
      ['cronjob', 'ops', 'nightly', JSON.stringify({ metadata: { name: 'nightly', namespace: 'ops' } })],
      ['node', '', 'worker-1', objectJson('v1', 'Node', '', 'worker-1')],
      ['pod', 'shop', 'web-1', objectJson('v1', 'Pod', 'shop', 'web-1')],
    ];
    const { file } = await roundTrip({ objects: rows });
    for (const type of ['pod', 'deployment', 'node', 'cronjob'] as const) {
      const expected = byKey(
        rows.filter((r) => r[0] === type).map(([, namespace, name, json]) => ({ namespace, name, json })),
      );
      const got = byKey(file.objects(type));
      expect(got.map(({ namespace, name, json, valid }) => ({ namespace, name, json, valid }))).toEqual(
        expected.map((e) => ({ ...e, valid: true })),
      );
    }
    const typed = (type: 'pod' | 'deployment' | 'node' | 'cronjob') =>
      file.objects(type).map((o) => [o.decode().apiVersion, o.decode().kind]);
    expect(new Set(typed('pod').map(String))).toEqual(new Set(['v1,Pod']));
    expect(typed('deployment')).toEqual([['apps/v1', 'Deployment']]);
    expect(typed('cronjob')).toEqual([['batch/v1', 'CronJob']]);
    expect(new Set(typed('node').map(String))).toEqual(new Set(['v1,Node']));
    expect(file.objects('cronjob')[0]!.decode().metadata).toEqual({ name: 'nightly', namespace: 'ops' });
    expect(file.objects('deployment')[0]!.decode()).toMatchObject({ custom: { kept: 1 } });
    // A kind with no rows has none; a type that is not one of the nine is not read at all.
    expect(file.objects('statefulset')).toEqual([]);
    expect(file.objects('secret' as 'pod')).toEqual([]);
  });

  it('a pod read back gets what the apiserver defaults (no containers, phase Pending), and keeps what it has', async () => {
    const { file } = await roundTrip({
      objects: [
        ['pod', 'shop', 'bare', JSON.stringify({ metadata: { name: 'bare', namespace: 'shop' }, spec: [] })],
        ['service', 'shop', 'front', objectJson('v1', 'Service', 'shop', 'front')],
        [
          'pod',
          'shop',
          'full',
          objectJson('v1', 'Pod', 'shop', 'full', {
            spec: { containers: [{ name: 'app' }] },
            status: { phase: 'Running' },
          }),
        ],
        [
          'pod',
          'shop',
          'half',
          objectJson('v1', 'Pod', 'shop', 'half', { spec: { nodeName: 'w' }, status: {} }),
        ],
      ],
    });
    const pods = new Map(file.objects('pod').map((o) => [o.name, o.decode()]));
    // As served (serialised): a spec that is not an object is replaced, not given a property.
    expect(JSON.parse(JSON.stringify(pods.get('bare')))).toMatchObject({
      spec: { containers: [] },
      status: { phase: 'Pending' },
    });
    expect(pods.get('half')).toMatchObject({
      spec: { nodeName: 'w', containers: [] },
      status: { phase: 'Pending' },
    });
    expect(pods.get('full')).toMatchObject({
      spec: { containers: [{ name: 'app' }] },
      status: { phase: 'Running' },
    });
    const service = file.objects('service')[0]!.decode();
    expect(service.spec).toBeUndefined();
    expect(service.status).toBeUndefined();
  });
});

describe('events', () => {
  const event = (uid: string, extra = {}) =>
    JSON.stringify({ metadata: { name: `e.${uid}`, namespace: 'shop', uid }, reason: `R-${uid}`, ...extra });

  it('every event reads back with its expired flag; the live list has only those the cluster still had', async () => {
    const written: NonNullable<Rows['events']> = [
      ['u-3', 'shop', '2026-03-01T11:00:00Z', false, event('u-3')],
      ['u-1', 'shop', '2026-03-01T11:30:00Z', true, event('u-1')],
      ['u-5', 'default', '2026-03-01T09:00:00Z', false, event('u-5')],
      ['u-2', 'shop', '2026-03-01T11:59:00Z', false, event('u-2')],
      ['u-4', 'shop', '2026-03-01T10:00:00Z', true, event('u-4')],
    ];
    const { file } = await roundTrip({ events: written });
    const all = (size: number) => {
      const batches = [...file.eventBatches(size)];
      return { sizes: batches.map((b) => b.length), rows: batches.flat() };
    };
    const expected: SnapshotEventRow[] = written.map(([, , , expired, json]) => ({ json, expired }));
    const sorted = (r: SnapshotEventRow[]) => [...r].sort((a, b) => a.json.localeCompare(b.json));
    expect(all(2).sizes).toEqual([2, 2, 1]);
    expect(sorted(all(2).rows)).toEqual(sorted(expected));
    expect(all(5).sizes).toEqual([5]);
    expect(sorted(all(5).rows)).toEqual(sorted(expected));

    const live = file.liveEvents();
    expect(live.map((e) => e.json).sort()).toEqual([event('u-2'), event('u-3'), event('u-5')].sort());
    expect(live.every((e) => e.valid)).toBe(true);
    const decoded = live.map((e) => e.decode());
    expect(decoded.every((e) => e.kind === 'Event' && e.apiVersion === 'v1')).toBe(true);
    expect(decoded.map((e) => e.metadata.uid).sort()).toEqual(['u-2', 'u-3', 'u-5']);
  });

  it('a file without events has no live events and no batch at all', async () => {
    const { file } = await roundTrip({ objects: [['node', '', 'n', objectJson('v1', 'Node', '', 'n')]] });
    expect(file.liveEvents()).toEqual([]);
    expect([...file.eventBatches(10)]).toEqual([]);
  });

  it('an event is written once: a second row with its uid is refused and the first one stays', async () => {
    const path = folder.path('dup.skiff');
    const writer = new SnapshotWriter(`${path}.partial`);
    expect(
      writer.event('u-1', 'shop', '2026-03-01T11:00:00Z', true, event('u-1', { message: 'first' })),
    ).toBe(true);
    expect(
      writer.event('u-1', 'shop', '2026-03-01T11:05:00Z', false, event('u-1', { message: 'second' })),
    ).toBe(false);
    writer.finish(META, [], path);
    const file = await openChecked(path);
    opened.push(file);
    expect([...file.eventBatches(10)].flat()).toEqual([
      { json: event('u-1', { message: 'first' }), expired: true },
    ]);
  });

  it('event rows that cannot be read are left out of the live list and of the batches, and counted in missing', async () => {
    const unreadable = [
      '{"metadata": {"name": ',
      '[1, 2]',
      '{"reason": "x"}',
      '{"metadata": {}, "type": 5}',
      '{"metadata": {}, "message": {"text": "x"}}',
      '{"metadata": {}, "count": 1.5}',
      '{"metadata": {}, "involvedObject": "pod"}',
      '{"metadata": {}, "reason": "a", "reason": {}}',
    ];
    const path = folder.path('unreadable.skiff');
    writeSnapshot(path, {
      events: [
        ['u-good', 'shop', '2026-03-01T11:00:00Z', false, event('u-good')],
        ['u-old', 'shop', '2026-03-01T10:00:00Z', true, event('u-old', { count: 2.0 })],
        ...unreadable.map(
          (json, i) =>
            [`u-${i}`, 'shop', '2026-03-01T11:00:00Z', i % 2 === 0, json] as [
              string,
              string,
              string,
              boolean,
              string,
            ],
        ),
      ],
    });
    const checked = await checkSnapshot(path);
    expect(checked.unreadableEvents).toHaveLength(unreadable.length);
    expect(checked.missing).toEqual([
      {
        part: 'events',
        reason: `${unreadable.length} event rows of the file cannot be read (not a JSON object with an Event's fields) and are left out`,
      },
    ]);
    const file = await openChecked(path);
    opened.push(file);
    expect(file.liveEvents().map((e) => e.json)).toEqual([event('u-good')]);
    expect(
      [...file.eventBatches(2)]
        .flat()
        .map((r) => r.json)
        .sort(),
    ).toEqual([event('u-good'), event('u-old', { count: 2.0 })].sort());
  });
});

describe('logs, metrics, gaps and meta', () => {
  it("a container's log reads back as written, the previous run apart from the current, and nothing for a container without one", async () => {
    const { file, path } = await roundTrip({
      logs: [
        [
          'shop',
          'web-1',
          'app',
          true,
          ['2026-03-01T10:00:00.000000001Z old 1', '2026-03-01T10:00:01.000000001Z old 2'],
        ],
        ['shop', 'web-1', 'app', false, ['2026-03-01T11:00:00.000000001Z new']],
        ['shop', 'web-1', 'sidecar', false, []],
        ['api', 'web-1', 'app', false, ['2026-03-01T11:00:00.000000001Z other namespace']],
      ],
    });
    expect(file.log('shop', 'web-1', 'app', false)).toBe('2026-03-01T11:00:00.000000001Z new\n');
    expect(file.log('shop', 'web-1', 'app', true)).toBe(
      '2026-03-01T10:00:00.000000001Z old 1\n2026-03-01T10:00:01.000000001Z old 2\n',
    );
    expect(file.log('api', 'web-1', 'app', false)).toBe('2026-03-01T11:00:00.000000001Z other namespace\n');
    // An empty log is a log (the container ran and wrote nothing), not a missing one.
    expect(file.log('shop', 'web-1', 'sidecar', false)).toBe('');
    expect(file.log('shop', 'web-1', 'sidecar', true)).toBeUndefined();
    expect(file.log('shop', 'web-1', 'missing', false)).toBeUndefined();
    expect(file.log('shop', 'web-9', 'app', false)).toBeUndefined();
    const counts = tableRows<{ container: string; previous: number; line_count: number }>(
      path,
      "SELECT container, previous, line_count FROM logs WHERE namespace = 'shop' ORDER BY container, previous",
    );
    expect(counts.map((c) => ({ ...c }))).toEqual([
      { container: 'app', previous: 0, line_count: 1 },
      { container: 'app', previous: 1, line_count: 2 },
      { container: 'sidecar', previous: 0, line_count: 0 },
    ]);
    file.close();
    expect(file.log('shop', 'web-1', 'app', false)).toBeUndefined();
  });

  it('pod and node metrics read back apart, typed as PodMetrics and NodeMetrics of metrics.k8s.io', async () => {
    const m = (name: string, namespace = '') =>
      JSON.stringify({
        metadata: { name, ...(namespace ? { namespace } : {}) },
        usage: { cpu: `${name.length}m` },
      });
    const { file } = await roundTrip({
      metrics: [
        ['node', '', 'worker-2', m('worker-2')],
        ['pod', 'shop', 'web-1', m('web-1', 'shop')],
        ['node', '', 'worker-1', m('worker-1')],
      ],
    });
    const pods = file.podMetrics();
    expect(pods).toEqual([
      { ...JSON.parse(m('web-1', 'shop')), kind: 'PodMetrics', apiVersion: 'metrics.k8s.io/v1beta1' },
    ]);
    const nodes = file.nodeMetrics();
    expect(nodes.map((n) => n.metadata.name).sort()).toEqual(['worker-1', 'worker-2']);
    expect(nodes.every((n) => n.kind === 'NodeMetrics' && n.apiVersion === 'metrics.k8s.io/v1beta1')).toBe(
      true,
    );
  });

  it('the gaps are written as given, one without a target with no target', async () => {
    const gaps = [
      { part: 'logs', target: 'shop/web-1/app', reason: 'previous run: the cluster answered 500: boom' },
      { part: 'metrics', reason: 'pod metrics: down' },
      { part: 'pods', reason: 'forbidden' },
    ];
    const { path } = await roundTrip({ gaps });
    const rows = tableRows<{ part: string; target: string | null; reason: string }>(
      path,
      'SELECT part, target, reason FROM gaps',
    );
    expect(rows.map((r) => ({ ...r })).sort((a, b) => a.part.localeCompare(b.part))).toEqual([
      gaps[0],
      { ...gaps[1], target: null },
      { ...gaps[2], target: null },
    ]);
  });

  it('meta holds every key given, complete = 1 as its last row, and reads back as the facts', async () => {
    const { file, path } = await roundTrip({}, { context: 'staging', takenAt: '2026-02-02T02:02:02Z' });
    const rows = tableRows<{ key: string; value: string }>(
      path,
      'SELECT key, value FROM meta ORDER BY rowid',
    );
    expect(rows.at(-1)).toEqual({ key: 'complete', value: '1' });
    expect(Object.fromEntries(rows.map((r) => [r.key, r.value]))).toEqual({
      ...META,
      context: 'staging',
      takenAt: '2026-02-02T02:02:02Z',
      complete: '1',
    });
    expect(file.facts).toEqual({
      schemaVersion: SNAPSHOT_SCHEMA_VERSION,
      context: 'staging',
      server: META.server,
      kubernetesVersion: META.kubernetesVersion,
      takenAt: '2026-02-02T02:02:02Z',
      finishedAt: META.finishedAt,
    });
  });

  it('a meta key given as undefined is not written, and the facts leave out what the file lacks', async () => {
    const { file, path } = await roundTrip({}, { kubernetesVersion: undefined });
    const keys = tableRows<{ key: string }>(path, 'SELECT key FROM meta').map((r) => r.key);
    expect(keys).not.toContain('kubernetesVersion');
    expect(file.facts).not.toHaveProperty('kubernetesVersion');
  });
});
