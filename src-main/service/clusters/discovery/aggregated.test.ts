/**
 * Aggregated discovery documents parsed (aggregated.ts).
 */
import { aggregatedCore, aggregatedGroups, SimKinds } from '@skiff/kube-simulator';
import { describe, expect, it } from 'vitest';
import { AGGREGATED_ACCEPT, parseAggregated } from './aggregated';

const list = (items: unknown[]) => ({
  kind: 'APIGroupDiscoveryList',
  apiVersion: 'apidiscovery.k8s.io/v2',
  items,
});
const resource = (over: Record<string, unknown> = {}) => ({
  resource: 'widgets',
  responseKind: { group: 'example.dev', version: 'v2', kind: 'Widget' },
  scope: 'Namespaced',
  singularResource: 'widget',
  verbs: ['get', 'list', 'watch'],
  ...over,
});

describe('parseAggregated', () => {
  it('asks for v2 first and takes plain JSON as the fallback, as client-go does', () => {
    expect(AGGREGATED_ACCEPT).toBe(
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
    );
  });

  it('reads the documents a 1.31 apiserver answers on /api and /apis', () => {
    const kinds = new SimKinds();
    const core = parseAggregated(aggregatedCore(kinds));
    expect(core?.gaps).toEqual([]);
    expect(core?.resources.find((r) => r.resource === 'pods')).toEqual({
      group: '',
      version: 'v1',
      resource: 'pods',
      singular: 'pod',
      kind: 'Pod',
      namespaced: true,
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['po'],
      categories: ['all'],
    });
    expect(core?.resources.some((r) => r.resource.includes('/'))).toBe(false);
    const groups = parseAggregated(aggregatedGroups(kinds, { served: true, down: true }));
    const hpas = groups?.resources.filter((r) => r.resource === 'horizontalpodautoscalers');
    expect(hpas?.map((r) => r.version)).toEqual(['v2']);
    expect(
      groups?.resources.find((r) => r.resource === 'nodes' && r.group === 'metrics.k8s.io'),
    ).toMatchObject({
      kind: 'NodeMetrics',
      singular: 'nodemetrics',
      namespaced: false,
    });
    expect(groups?.gaps).toEqual([
      { groupVersion: 'metrics.k8s.io/v1beta1', message: expect.stringContaining('stale') },
    ]);
  });

  it('is undefined for anything but an APIGroupDiscoveryList', () => {
    expect(parseAggregated({ kind: 'APIVersions', versions: ['v1'] })).toBeUndefined();
    expect(parseAggregated({ kind: 'APIGroupDiscoveryList' })).toBeUndefined();
    expect(parseAggregated('text')).toBeUndefined();
    expect(parseAggregated(list([]))).toEqual({ resources: [], gaps: [] });
  });

  it('takes only the first (preferred) version, and reads a nameless group as the core group', () => {
    const doc = list([
      {
        metadata: { name: 'example.dev' },
        versions: [
          { version: 'v2', resources: [resource()], freshness: 'Current' },
          { version: 'v1', resources: [resource({ resource: 'olds' })], freshness: 'Stale' },
        ],
      },
      { versions: [{ version: 'v1', resources: [resource({ resource: 'things', scope: 'Cluster' })] }] },
      { metadata: { name: 'empty.dev' }, versions: [] },
      { metadata: { name: 'none.dev' } },
    ]);
    const read = parseAggregated(doc);
    expect(read?.gaps).toEqual([]);
    expect(read?.resources.map((r) => `${r.group}/${r.version}/${r.resource}/${r.namespaced}`)).toEqual([
      'example.dev/v2/widgets/true',
      '/v1/things/false',
    ]);
  });

  it('skips an entry of another shape or with no responseKind, never the document', () => {
    const doc = list([
      {
        metadata: { name: 'example.dev' },
        versions: [
          {
            version: 'v2',
            resources: [
              resource({ resource: 'noverbs', verbs: undefined }),
              resource({ resource: 'badscope', scope: 'Galaxy' }),
              resource({ resource: 'subonly', responseKind: undefined }),
              resource({ resource: 'nullkind', responseKind: null }),
              resource({ resource: '' }),
              'not an object',
              resource({ singularResource: '', shortNames: ['wd'], categories: ['toys'] }),
            ],
          },
        ],
      },
    ]);
    expect(parseAggregated(doc)?.resources).toEqual([
      {
        group: 'example.dev',
        version: 'v2',
        resource: 'widgets',
        singular: 'widget',
        kind: 'Widget',
        namespaced: true,
        verbs: ['get', 'list', 'watch'],
        shortNames: ['wd'],
        categories: ['toys'],
      },
    ]);
  });

  it('marks a Stale preferred version as a gap and still takes what was last read of it', () => {
    const doc = list([
      {
        metadata: { name: 'example.dev' },
        versions: [{ version: 'v2', resources: [resource()], freshness: 'Stale' }],
      },
      { metadata: { name: 'ok.dev' }, versions: [{ version: 'v1', freshness: 'Current' }] },
    ]);
    const read = parseAggregated(doc);
    expect(read?.gaps).toEqual([
      {
        groupVersion: 'example.dev/v2',
        message:
          'the apiserver reports this group version as stale: the aggregated API serving it is unavailable',
      },
    ]);
    expect(read?.resources.map((r) => r.resource)).toEqual(['widgets']);
    const core = parseAggregated(
      list([{ versions: [{ version: 'v1', freshness: 'Stale', resources: null }] }]),
    );
    expect(core?.gaps.map((g) => g.groupVersion)).toEqual(['v1']);
  });
});
