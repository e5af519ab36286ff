/**
 * readDiscovery (reader.ts): one discovery read of a cluster.
 */
import {
  aggregatedCore,
  aggregatedGroups,
  apiGroupList,
  apiVersions,
  resourceList,
  SimKinds,
} from '@skiff/kube-simulator';
import { describe, expect, it } from 'vitest';
import { AGGREGATED_ACCEPT } from './aggregated';
import { nameKinds } from './names';
import { type DiscoveryGet, LEGACY_CONCURRENCY, readDiscovery } from './reader';

const kinds = new SimKinds();

/** An apiserver's discovery paths as documents (the simulator's), answered as the service's client would. */
function server(opts: {
  aggregated: boolean;
  failing?: Record<string, Error>;
  docs?: Record<string, unknown>;
}) {
  const asked: { path: string; accept: string | undefined }[] = [];
  let open = 0;
  let mostOpen = 0;
  const get: DiscoveryGet = async (path, accept) => {
    asked.push({ path, accept });
    open++;
    mostOpen = Math.max(mostOpen, open);
    try {
      await new Promise((r) => setTimeout(r, 1));
      const failure = opts.failing?.[path];
      if (failure) throw failure;
      if (opts.docs && path in opts.docs) return opts.docs[path];
      const wantsAggregated = opts.aggregated && accept === AGGREGATED_ACCEPT;
      if (path === '/api') return wantsAggregated ? aggregatedCore(kinds) : apiVersions('x');
      if (path === '/apis')
        return wantsAggregated
          ? aggregatedGroups(kinds, { served: true, down: false })
          : apiGroupList(kinds, true);
      const [, , a, b] = path.split('/');
      const doc = path.startsWith('/api/')
        ? resourceList(kinds, '', a as string)
        : resourceList(kinds, a as string, b as string);
      if (doc === undefined) throw new Error(`404 ${path}`);
      return doc;
    } finally {
      open--;
    }
  };
  return { get, asked, mostOpen: () => mostOpen };
}

describe('readDiscovery', () => {
  it('reads only /api and /apis from a server that answers aggregated discovery', async () => {
    const s = server({ aggregated: true });
    const read = await readDiscovery(s.get);
    expect(read.source).toBe('aggregated');
    expect(s.asked).toEqual([
      { path: '/api', accept: AGGREGATED_ACCEPT },
      { path: '/apis', accept: AGGREGATED_ACCEPT },
    ]);
    expect(read.gaps).toEqual([]);
    expect(read.resources.find((r) => r.resource === 'pods')?.group).toBe('');
    expect(read.resources.find((r) => r.resource === 'certificatesigningrequests')?.group).toBe(
      'certificates.k8s.io',
    );
  });

  it('reads the legacy documents, every group at its preferred version, a bounded number at a time', async () => {
    const s = server({ aggregated: false });
    const read = await readDiscovery(s.get);
    expect(read.source).toBe('legacy');
    const paths = s.asked.map((a) => a.path);
    expect(paths.slice(0, 2)).toEqual(['/api', '/apis']);
    expect(s.asked[1]?.accept).toBeUndefined();
    expect(paths).toContain('/api/v1');
    expect(paths).toContain('/apis/autoscaling/v2');
    expect(paths).not.toContain('/apis/autoscaling/v1');
    expect(paths).toContain('/apis/metrics.k8s.io/v1beta1');
    expect(s.mostOpen()).toBe(LEGACY_CONCURRENCY);
    expect(read.gaps).toEqual([]);
  });

  it('gives the same kinds either way', async () => {
    const aggregated = await readDiscovery(server({ aggregated: true }).get);
    const legacy = await readDiscovery(server({ aggregated: false }).get);
    expect(nameKinds(legacy.resources)).toEqual(nameKinds(aggregated.resources));
    expect(legacy.resources.length).toBe(aggregated.resources.length);
  });

  it('makes a failing group version a gap and reads every other', async () => {
    const s = server({
      aggregated: false,
      failing: {
        '/apis/metrics.k8s.io/v1beta1': new Error('the cluster answered 503: service unavailable'),
        '/apis/apps/v1': new Error('the cluster answered 500: etcd'),
      },
      docs: { '/apis/batch/v1': { kind: 'Status' } },
    });
    const read = await readDiscovery(s.get);
    expect(read.gaps).toEqual([
      { groupVersion: 'apps/v1', message: 'the cluster answered 500: etcd' },
      {
        groupVersion: 'batch/v1',
        message: 'the cluster answered /apis/batch/v1 with something that is not a discovery document',
      },
      { groupVersion: 'metrics.k8s.io/v1beta1', message: 'the cluster answered 503: service unavailable' },
    ]);
    const groups = new Set(read.resources.map((r) => r.group));
    expect(groups.has('apps')).toBe(false);
    expect(groups.has('')).toBe(true);
    expect(groups.has('networking.k8s.io')).toBe(true);
  });

  it('names the core group version `v1` when /api/v1 fails, and orders gaps by group version', async () => {
    // /api/v1 is read first and fails first: the gaps still come in group-version order.
    const failing = {
      '/api/v1': new Error('boom'),
      '/apis/policy/v1': new Error('later'),
      '/apis/apps/v1': new Error('x'),
    };
    const read = await readDiscovery(server({ aggregated: false, failing }).get);
    expect(read.gaps).toEqual([
      { groupVersion: 'apps/v1', message: 'x' },
      { groupVersion: 'policy/v1', message: 'later' },
      { groupVersion: 'v1', message: 'boom' },
    ]);
    // The failed reads leave nothing in their place.
    expect(read.resources.every((r) => typeof r === 'object' && r.group !== '')).toBe(true);
  });

  it('takes the gaps of both aggregated documents, in group-version order', async () => {
    const stale = (name: string | undefined) => ({
      ...(name ? { metadata: { name } } : {}),
      versions: [{ version: 'v1', freshness: 'Stale', resources: [] }],
    });
    const doc = (items: unknown[]) => ({ kind: 'APIGroupDiscoveryList', items });
    const docs = { '/api': doc([stale(undefined)]), '/apis': doc([stale('z.dev'), stale('a.dev')]) };
    const read = await readDiscovery(server({ aggregated: true, docs }).get);
    expect(read.gaps.map((g) => g.groupVersion)).toEqual(['a.dev/v1', 'v1', 'z.dev/v1']);
  });

  it('names a gap that is no Error by its text', async () => {
    const get: DiscoveryGet = async (path) => {
      if (path === '/api') return { kind: 'APIVersions', versions: ['v1'] };
      if (path === '/apis') return { kind: 'APIGroupList', groups: [] };
      throw 'refused';
    };
    expect((await readDiscovery(get)).gaps).toEqual([{ groupVersion: 'v1', message: 'refused' }]);
  });

  it('fails when /api or /apis fails or is no discovery document', async () => {
    await expect(
      readDiscovery(server({ aggregated: true, failing: { '/api': new Error('down') } }).get),
    ).rejects.toThrow('down');
    await expect(
      readDiscovery(server({ aggregated: false, failing: { '/apis': new Error('down') } }).get),
    ).rejects.toThrow('down');
    await expect(
      readDiscovery(server({ aggregated: false, docs: { '/api': { kind: 'Status' } } }).get),
    ).rejects.toMatchObject({
      name: 'DiscoveryDocumentError',
      message: 'the cluster answered /api with something that is not a discovery document',
    });
    await expect(
      readDiscovery(server({ aggregated: false, docs: { '/apis': { kind: 'Status' } } }).get),
    ).rejects.toThrow('the cluster answered /apis with something');
    // /api aggregated but /apis not: a proxy in between that rewrote one of them.
    await expect(
      readDiscovery(server({ aggregated: true, docs: { '/apis': apiGroupList(kinds, false) } }).get),
    ).rejects.toThrow('the cluster answered /apis with something');
  });

  it('reads a cluster with no named groups at all', async () => {
    const get: DiscoveryGet = async (path) => {
      if (path === '/api') return { kind: 'APIVersions', versions: ['v1'] };
      if (path === '/apis') return { kind: 'APIGroupList', groups: [] };
      return { resources: [{ name: 'pods', namespaced: true, kind: 'Pod', verbs: ['list', 'watch'] }] };
    };
    const read = await readDiscovery(get);
    expect(read.resources.map((r) => r.resource)).toEqual(['pods']);
  });
});
