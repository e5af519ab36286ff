/**
 * The objects part of a capture (capture-kinds.ts), from a small cluster of our own making whose
 * discovery, caches and list pages answer or fail as each test says: which kinds are taken and
 * how, pages written as they come, an expired continue token, Secrets, discovery that fails, a
 * request naming kinds, the kinds table's bounds, and a cluster that goes away. Over real HTTP
 * against the simulator: snapshot-capture-kinds.it.test.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotGap, SnapshotProgress } from '../../../src-shared/contract/snapshot-models';
import type { ResourceEntry } from '../cache/entries';
import type { DiscoveryGap } from '../clusters/discovery/model';
import { ProblemError } from '../errors';
import { type KubeClient, KubeRequestError } from '../kube/kube-client';
import {
  captureKinds,
  type KindsRequest,
  type KindsResult,
  LIST_CONCURRENCY,
  listPath,
  NINE,
  PAGE_LIMIT,
  partOf,
  type WantedKind,
} from './capture-kinds';
import { kindRowBytes, type SnapshotKind } from './kinds-table';
import type { CaptureSource } from './source';
import { SnapshotWriter } from './writer';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-capture-kinds-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const kind = (plural: string, group: string, over: Partial<SnapshotKind> = {}): SnapshotKind => ({
  resourceType: plural.replace(/s$/, ''),
  plural,
  singular: plural.replace(/s$/, ''),
  kind: plural[0]!.toUpperCase() + plural.slice(1, -1),
  group,
  version: group === '' ? 'v1' : 'v1beta1',
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: ['get', 'list', 'watch'],
  ...over,
});

const WIDGETS = kind('widgets', 'example.dev', { columns: [] });
const CONFIGMAPS = kind('configmaps', '');
const SECRETS = kind('secrets', '');
const EVENTS = kind('events', '');
const NEW_EVENTS = kind('events', 'events.k8s.io', { resourceType: 'event.events.k8s.io' });
const POD = NINE.find((k) => k.resourceType === 'pod')!;
const NODE = NINE.find((k) => k.resourceType === 'node')!;

/** An object as a list serves it; a cluster-scoped one (namespace '') has no namespace at all. */
const obj = (name: string, namespace = 'shop', extra: Record<string, unknown> = {}) => ({
  metadata: { name, ...(namespace ? { namespace } : {}), managedFields: [{ manager: 'kubectl' }] },
  ...extra,
});

type Answer = (query: Record<string, string | undefined>) => unknown;

interface Cluster {
  /** Discovery's kinds, or what it throws. */
  kinds?: readonly SnapshotKind[] | Error;
  gaps?: DiscoveryGap[];
  /** List answers by path. */
  lists?: Record<string, Answer>;
  /** Cached objects of the nine by singular, or what acquiring the cache throws. */
  cached?: Record<string, ResourceEntry[] | Error>;
}

/** Every list request asked, as `path?continue`. */
let asked: string[];

function source(c: Cluster): CaptureSource {
  asked = [];
  const client = {
    async getJson(path: string, opts: { query: Record<string, string | undefined> }) {
      expect(opts.query.limit).toBe(PAGE_LIMIT);
      asked.push(`${path}?${opts.query.continue ?? ''}`);
      await new Promise((r) => setImmediate(r));
      const answer = c.lists?.[path];
      if (!answer) throw new KubeRequestError(404, undefined, `${path} not found`);
      return answer(opts.query);
    },
  } as unknown as KubeClient;
  return {
    clusterId: 'c',
    context: 'ctx',
    server: 'https://example.invalid',
    client,
    timeoutMs: 1000,
    async objects(nine) {
      const found = c.cached?.[nine.singular] ?? [];
      if (found instanceof Error) throw found;
      return found;
    },
    async discovery() {
      if (c.kinds instanceof Error) throw c.kinds;
      return { kinds: c.kinds ?? [], gaps: c.gaps ?? [] };
    },
    history: async () => undefined,
  };
}

const entry = (namespace: string, name: string): ResourceEntry => ({
  key: `${namespace}/${name}`,
  namespace,
  name,
  labels: undefined,
  json: JSON.stringify({ metadata: { name, namespace } }),
});

interface Taken {
  result: KindsResult;
  gaps: SnapshotGap[];
  progress: SnapshotProgress;
  /** kind → `namespace/name` of its rows. */
  objects: Record<string, string[]>;
  json(kind: string, name: string): Record<string, unknown>;
  kinds: string[];
}

async function take(src: CaptureSource, over: Partial<KindsRequest> = {}): Promise<Taken> {
  const path = join(dir, `t-${Math.random()}.skiff`);
  const writer = new SnapshotWriter(path);
  const req: KindsRequest = {
    progress: { objects: 0, events: 0, podLogsDone: 0, podLogsTotal: 0 },
    gaps: [],
    signal: new AbortController().signal,
    ...over,
  };
  try {
    writer.begin();
    const result = await captureKinds(src, writer, req);
    writer.commit();
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const rows = db
        .prepare('SELECT kind, namespace, name, json FROM objects ORDER BY kind, namespace, name')
        .all() as Array<{
        kind: string;
        namespace: string;
        name: string;
        json: string;
      }>;
      const objects: Record<string, string[]> = {};
      for (const r of rows) objects[r.kind] = [...(objects[r.kind] ?? []), `${r.namespace}/${r.name}`];
      const kinds = db
        .prepare('SELECT resource_type FROM kinds ORDER BY resource_type')
        .all()
        .map((r) => r.resource_type as string);
      const json = (k: string, name: string) =>
        JSON.parse(rows.find((r) => r.kind === k && r.name === name)!.json);
      return { result, gaps: req.gaps, progress: req.progress, objects, json, kinds };
    } finally {
      db.close();
    }
  } finally {
    writer.discard();
  }
}

const list =
  (...items: unknown[]): Answer =>
  () => ({ metadata: {}, items });

describe('which kinds a capture takes, and how', () => {
  it('takes every kind discovery serves: the nine from their caches, the others listed, the event kinds as rows only', async () => {
    const t = await take(
      source({
        kinds: [POD, NODE, CONFIGMAPS, WIDGETS, EVENTS, NEW_EVENTS],
        cached: { pod: [entry('shop', 'web-1'), entry('shop', 'web-2')], node: [entry('', 'n1')] },
        lists: {
          '/api/v1/configmaps': list(obj('settings'), obj('root-ca', 'kube-system')),
          '/apis/example.dev/v1beta1/widgets': list(obj('w', '')),
        },
      }),
    );
    expect(t.kinds).toEqual(['configmap', 'event', 'event.events.k8s.io', 'node', 'pod', 'widget']);
    expect(t.objects).toEqual({
      configmap: ['kube-system/root-ca', 'shop/settings'],
      node: ['/n1'],
      pod: ['shop/web-1', 'shop/web-2'],
      widget: ['/w'],
    });
    // The caches are not listed again; the events are capture.ts's.
    expect(asked.sort()).toEqual(['/api/v1/configmaps?', '/apis/example.dev/v1beta1/widgets?']);
    expect(t.result).toEqual({
      pods: [entry('shop', 'web-1'), entry('shop', 'web-2')],
      attempted: 4,
      failures: [],
    });
    expect(t.progress.objects).toBe(6);
    expect(t.gaps).toEqual([]);
  });

  it('writes a listed object as the API serves it: apiVersion and kind filled in, managedFields gone, the rest kept', async () => {
    const t = await take(
      source({
        kinds: [WIDGETS],
        lists: {
          '/apis/example.dev/v1beta1/widgets': list(
            obj('plain', 'shop', { spec: { size: 3 } }),
            obj('own', 'shop', { apiVersion: 'example.dev/v1', kind: 'Gadget' }),
          ),
        },
      }),
    );
    expect(t.json('widget', 'plain')).toEqual({
      apiVersion: 'example.dev/v1beta1',
      kind: 'Widget',
      metadata: { name: 'plain', namespace: 'shop' },
      spec: { size: 3 },
    });
    expect(t.json('widget', 'own')).toMatchObject({ apiVersion: 'example.dev/v1', kind: 'Gadget' });
  });

  it('leaves out an item without a name, and takes a page without items as empty', async () => {
    const t = await take(
      source({
        kinds: [CONFIGMAPS, WIDGETS, kind('gears', 'example.dev')],
        lists: {
          '/api/v1/configmaps': list(
            obj('a'),
            { metadata: {} },
            null,
            {},
            { metadata: { name: 7 } },
            obj('b'),
          ),
          '/apis/example.dev/v1beta1/widgets': () => ({ metadata: {} }),
          // A page with no metadata at all is the last one.
          '/apis/example.dev/v1beta1/gears': () => ({ items: [obj('g', '')] }),
        },
      }),
    );
    expect(t.objects).toEqual({ configmap: ['shop/a', 'shop/b'], gear: ['/g'] });
    expect(t.kinds).toEqual(['configmap', 'gear', 'widget']);
    expect(t.progress.objects).toBe(3);
    expect(t.gaps).toEqual([]);
  });

  it('lists page by page, writing each before asking for the next', async () => {
    const seen: number[] = [];
    let progress!: SnapshotProgress;
    const pages: Answer = (q) => {
      seen.push(progress.objects);
      if (q.continue === undefined) return { metadata: { continue: 'p2' }, items: [obj('a'), obj('b')] };
      if (q.continue === 'p2') return { metadata: { continue: 'p3' }, items: [obj('c')] };
      return { metadata: { continue: '' }, items: [obj('d')] };
    };
    progress = { objects: 0, events: 0, podLogsDone: 0, podLogsTotal: 0 };
    const t = await take(source({ kinds: [CONFIGMAPS], lists: { '/api/v1/configmaps': pages } }), {
      progress,
    });
    expect(asked).toEqual(['/api/v1/configmaps?', '/api/v1/configmaps?p2', '/api/v1/configmaps?p3']);
    expect(seen).toEqual([0, 2, 3]);
    expect(t.objects.configmap).toEqual(['shop/a', 'shop/b', 'shop/c', 'shop/d']);
  });

  it('starts a kind over once when its continue token expired: nothing twice, nothing gone kept', async () => {
    let round = 0;
    const pages: Answer = (q) => {
      if (q.continue === undefined) {
        round++;
        return { metadata: { continue: 'next' }, items: round === 1 ? [obj('gone'), obj('a')] : [obj('a')] };
      }
      if (round === 1) throw new KubeRequestError(410, undefined, 'the continue token is too old');
      return { metadata: {}, items: [obj('b')] };
    };
    const t = await take(
      source({
        kinds: [CONFIGMAPS, WIDGETS],
        lists: { '/api/v1/configmaps': pages, '/apis/example.dev/v1beta1/widgets': list(obj('w')) },
      }),
    );
    expect(t.objects.configmap).toEqual(['shop/a', 'shop/b']);
    expect(t.objects.widget).toEqual(['shop/w']);
    expect(t.progress.objects).toBe(3);
    expect(t.gaps).toEqual([]);
  });

  it('is a gap when the token expires again, or on the first page, or the list fails otherwise; the rows written stay', async () => {
    const expired = () => {
      throw new KubeRequestError(410, undefined, 'too old');
    };
    const again: Answer = (q) =>
      q.continue === undefined ? { metadata: { continue: 'n' }, items: [obj('a')] } : expired();
    const t = await take(
      source({
        kinds: [CONFIGMAPS, WIDGETS, kind('gears', 'example.dev')],
        lists: {
          '/api/v1/configmaps': again,
          '/apis/example.dev/v1beta1/widgets': expired,
          '/apis/example.dev/v1beta1/gears': (q) =>
            q.continue === undefined
              ? { metadata: { continue: 'n' }, items: [obj('g')] }
              : (() => {
                  throw new KubeRequestError(500, undefined, 'etcd is sad');
                })(),
        },
      }),
    );
    expect(asked.filter((a) => a.startsWith('/api/v1/configmaps'))).toEqual([
      '/api/v1/configmaps?',
      '/api/v1/configmaps?n',
      '/api/v1/configmaps?',
      '/api/v1/configmaps?n',
    ]);
    expect(t.gaps).toEqual(
      expect.arrayContaining([
        { part: 'configmaps', reason: 'the cluster answered 410: too old' },
        { part: 'widgets.example.dev', reason: 'the cluster answered 410: too old' },
        { part: 'gears.example.dev', reason: 'the cluster answered 500: etcd is sad' },
      ]),
    );
    expect(t.gaps).toHaveLength(3);
    // Only an expired token starts a list over; the first page's expiry is no token of ours.
    expect(asked.filter((a) => a.includes('gears'))).toEqual([
      '/apis/example.dev/v1beta1/gears?',
      '/apis/example.dev/v1beta1/gears?n',
    ]);
    expect(asked.filter((a) => a.includes('widgets'))).toEqual(['/apis/example.dev/v1beta1/widgets?']);
    expect(t.objects).toEqual({ configmap: ['shop/a'], gear: ['shop/g'] });
    expect(t.progress.objects).toBe(2);
    expect(t.result.failures).toHaveLength(3);
    expect(t.result.attempted).toBe(3);
  });

  it('keeps of a Secret its key names and sizes, never a value', async () => {
    const t = await take(
      source({
        kinds: [SECRETS, CONFIGMAPS],
        lists: {
          '/api/v1/secrets': list(
            obj('db', 'shop', {
              type: 'Opaque',
              data: { password: 'c2VjcmV0' },
              stringData: { token: 'secret' },
            }),
          ),
          '/api/v1/configmaps': list(obj('cfg', 'shop', { data: { password: 'c2VjcmV0' } })),
        },
      }),
    );
    expect(t.json('secret', 'db')).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', namespace: 'shop' },
      type: 'Opaque',
      keys: [
        { name: 'password', bytes: 6 },
        { name: 'token', bytes: 6 },
      ],
    });
    // Only a Secret is stripped.
    expect(t.json('configmap', 'cfg')).toMatchObject({ data: { password: 'c2VjcmV0' } });
  });

  it('writes a cache of many objects in batches of 2,000, with a turn of the event loop between them', async () => {
    const pods = Array.from({ length: 4_001 }, (_, i) => entry('shop', `p-${String(i).padStart(4, '0')}`));
    const progress: SnapshotProgress = { objects: 0, events: 0, podLogsDone: 0, podLogsTotal: 0 };
    const seen = new Set<number>();
    let watching = true;
    const watch = () => {
      seen.add(progress.objects);
      if (watching) setImmediate(watch);
    };
    watch();
    const t = await take(source({ kinds: [POD], cached: { pod: pods } }), { progress });
    watching = false;
    expect(t.objects.pod).toHaveLength(4_001);
    // Between batches the loop turned (2,000 and 4,000 seen), and only there.
    expect([...seen].filter((n) => n > 0 && n < 4_001).sort((a, b) => a - b)).toEqual([2_000, 4_000]);
  });

  it('answers no pods when the pods could not be read', async () => {
    const t = await take(source({ kinds: [POD, NODE], cached: { pod: new Error('pods are forbidden') } }));
    expect(t.result).toEqual({ pods: undefined, attempted: 2, failures: ['pods are forbidden'] });
    expect(t.gaps).toEqual([{ part: 'pods', reason: 'pods are forbidden' }]);
  });
});

describe('discovery', () => {
  it('a group version it could not read is a gap naming it', async () => {
    const t = await take(
      source({
        kinds: [CONFIGMAPS],
        gaps: [{ groupVersion: 'metrics.k8s.io/v1beta1', message: 'the cluster answered 503: down' }],
        lists: { '/api/v1/configmaps': list() },
      }),
    );
    expect(t.gaps).toEqual([
      { part: 'discovery', target: 'metrics.k8s.io/v1beta1', reason: 'the cluster answered 503: down' },
    ]);
  });

  it('when it fails, the nine are taken, and a gap says why', async () => {
    const t = await take(
      source({
        kinds: new KubeRequestError(503, undefined, 'aggregated discovery is down'),
        cached: { pod: [entry('shop', 'p')] },
      }),
    );
    expect(t.kinds).toEqual(NINE.map((k) => k.resourceType));
    expect(t.objects).toEqual({ pod: ['shop/p'] });
    expect(t.gaps).toEqual([
      {
        part: 'discovery',
        reason:
          'the cluster answered 503: aggregated discovery is down; only the nine built-in kinds Skiff knows were taken',
      },
    ]);
    expect(t.result.attempted).toBe(9);
  });

  it('an abort while it is read ends the capture with the abort’s reason', async () => {
    const abort = new AbortController();
    const why = new Error('stop');
    abort.abort(why);
    await expect(take(source({ kinds: new Error('aborted too') }), { signal: abort.signal })).rejects.toBe(
      why,
    );
  });
});

describe('a capture of some kinds', () => {
  const wanted = (k: SnapshotKind): WantedKind => ({
    resourceType: k.resourceType,
    group: k.group,
    plural: k.plural,
  });

  it('takes only the kinds named (known by group and plural) and the event kinds', async () => {
    const t = await take(
      source({
        kinds: [POD, CONFIGMAPS, WIDGETS, EVENTS, NEW_EVENTS],
        lists: { '/api/v1/configmaps': list(obj('a')), '/apis/example.dev/v1beta1/widgets': list(obj('w')) },
      }),
      { kinds: [wanted(WIDGETS), { resourceType: 'pod', group: '', plural: 'pods' }] },
    );
    expect(t.kinds).toEqual(['event', 'event.events.k8s.io', 'pod', 'widget']);
    expect(asked).toEqual(['/apis/example.dev/v1beta1/widgets?']);
    expect(t.gaps).toEqual([]);
  });

  it('is a gap for a kind named that the cluster no longer serves', async () => {
    const t = await take(source({ kinds: [CONFIGMAPS], lists: { '/api/v1/configmaps': list() } }), {
      kinds: [wanted(CONFIGMAPS), wanted(WIDGETS), { ...wanted(CONFIGMAPS), group: 'other.dev' }],
    });
    expect(t.gaps).toEqual([
      { part: 'widget', reason: 'the cluster does not serve this kind (any more)' },
      { part: 'configmap', reason: 'the cluster does not serve this kind (any more)' },
    ]);
    expect(t.kinds).toEqual(['configmap']);
    expect(t.result.attempted).toBe(1);
  });
});

describe("the kinds table's bounds", () => {
  it('a kind that does not fit is a gap and is not listed', async () => {
    const long = kind('gizmos', 'g'.repeat(254));
    const t = await take(source({ kinds: [long, CONFIGMAPS], lists: { '/api/v1/configmaps': list() } }));
    expect(t.gaps).toEqual([
      {
        part: `gizmos.${'g'.repeat(254)}`,
        reason: `not taken: its name "${'g'.repeat(254)}" is longer than 253 bytes`,
      },
    ]);
    expect(t.kinds).toEqual(['configmap']);
    expect(asked).toEqual(['/api/v1/configmaps?']);
  });

  it('kinds past 8 MiB in all are gaps, the ones up to exactly 8 MiB taken', async () => {
    // Each row exactly 16 KiB: 512 of them are 8 MiB.
    const base = (name: string) =>
      kind('k000s', 'big.dev', { columns: [{ name, type: 'string', jsonPath: '.x', priority: 0 }] });
    const name = 'c'.repeat(16_384 - kindRowBytes(base('')));
    expect(kindRowBytes(base(name))).toBe(16_384);
    const many = Array.from({ length: 600 }, (_, i) =>
      kind(`k${String(i).padStart(3, '0')}s`, 'big.dev', { columns: base(name).columns! }),
    );
    const t = await take(source({ kinds: many, lists: {} }));
    expect(t.kinds).toHaveLength(512);
    const over = t.gaps.filter(
      (g) => g.reason === 'not taken: the cluster serves more kinds than a snapshot holds',
    );
    expect(over.map((g) => g.part)).toEqual(many.slice(512).map((k) => `${k.plural}.big.dev`));
  });

  it('kinds past 10,000 rows are gaps', async () => {
    const many = Array.from({ length: 10_003 }, (_, i) =>
      kind(`k${String(i).padStart(5, '0')}s`, 'many.dev'),
    );
    const t = await take(source({ kinds: many, lists: {} }), { signal: AbortSignal.timeout(60_000) });
    expect(t.kinds).toHaveLength(10_000);
    expect(t.gaps.filter((g) => g.reason.startsWith('not taken:')).map((g) => g.part)).toEqual([
      'k10000s.many.dev',
      'k10001s.many.dev',
      'k10002s.many.dev',
    ]);
  });
});

describe('a cluster that goes away', () => {
  it('once it is unreachable, the kinds not yet listed are not asked for: each a gap with that reason', async () => {
    const kinds = Array.from({ length: 10 }, (_, i) => kind(`k${i}s`, 'x.dev'));
    const gone = () => {
      throw new ProblemError('cluster_unreachable', 'the cluster cannot be reached: connection refused');
    };
    const t = await take(source({ kinds, lists: Object.fromEntries(kinds.map((k) => [listPath(k), gone])) }));
    expect(asked).toHaveLength(LIST_CONCURRENCY);
    expect(t.gaps).toHaveLength(10);
    for (const g of t.gaps) expect(g.reason).toBe('the cluster cannot be reached: connection refused');
    expect(t.result).toMatchObject({ attempted: 10 });
    expect(t.result.failures).toHaveLength(10);
  });

  it('a timeout counts as gone too; a refusal of one kind does not', async () => {
    const kinds = Array.from({ length: 8 }, (_, i) => kind(`k${i}s`, 'x.dev'));
    const timeout = () => {
      throw new ProblemError('cluster_timeout', 'the cluster did not answer within 1 s');
    };
    const timedOut = await take(
      source({ kinds, lists: Object.fromEntries(kinds.map((k) => [listPath(k), timeout])) }),
    );
    expect(asked).toHaveLength(LIST_CONCURRENCY);
    expect(timedOut.gaps).toHaveLength(8);
    const forbidden = () => {
      throw new ProblemError('cluster_unauthorized', 'forbidden');
    };
    const refused = await take(
      source({ kinds, lists: Object.fromEntries(kinds.map((k) => [listPath(k), forbidden])) }),
    );
    expect(asked).toHaveLength(8);
    expect(refused.gaps).toHaveLength(8);
  });

  it('an abort during a list ends the capture with the abort’s reason', async () => {
    const abort = new AbortController();
    const why = new Error('interrupted');
    const t = take(
      source({
        kinds: [CONFIGMAPS],
        lists: {
          '/api/v1/configmaps': () => {
            abort.abort(why);
            throw new Error('the request was aborted');
          },
        },
      }),
      { signal: abort.signal },
    );
    await expect(t).rejects.toBe(why);
  });
});

describe('names', () => {
  it("a kind's gap part is its plural, qualified by its group outside the core group and the nine", () => {
    expect(partOf(CONFIGMAPS)).toBe('configmaps');
    expect(partOf(WIDGETS)).toBe('widgets.example.dev');
    expect(partOf(NINE.find((k) => k.resourceType === 'deployment')!)).toBe('deployments');
    expect(partOf(kind('deployments', 'example.dev'))).toBe('deployments.example.dev');
    expect(partOf(kind('pods', 'metrics.k8s.io'))).toBe('pods.metrics.k8s.io');
  });

  it("a kind's list path is the core group's /api or a group's /apis", () => {
    expect(listPath(CONFIGMAPS)).toBe('/api/v1/configmaps');
    expect(listPath(WIDGETS)).toBe('/apis/example.dev/v1beta1/widgets');
  });
});
