/**
 * Label selectors and namespace scoping on a collection view (list-queries.ts), and the rows kept
 * with their view.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import { parseSelector, type Selector } from '../../../src-shared/kube/selector';
import { Collection } from './collection';
import { compareResources, labelKeys, type ResourceEntry, resourceEntry } from './entries';
import { resourceRows } from './list-queries';

/** Pods inserted in an order that is neither namespace/name order nor its reverse. */
const PODS: Array<[string, string, Record<string, string> | undefined]> = [
  ['shop', 'web-b', { app: 'web', env: 'prod', tier: 'front' }],
  ['batch', 'job-1', { app: 'job', env: 'dev' }],
  ['shop-2', 'web-a', { app: 'web', env: 'dev' }],
  ['shop', 'api-a', { app: 'api', env: 'canary', track: '' }],
  ['', 'node-x', { app: 'web' }],
  ['shop', 'bare', undefined],
  ['batch', 'api-z', { app: 'api', env: 'prod' }],
  ['shop', 'web-a', { app: 'web', env: 'dev' }],
  ['zeta', 'web-q', { app: 'web', env: 'prod', tier: 'back' }],
];

function viewOf(pods = PODS) {
  const c = new Collection(compareResources, { label: labelKeys });
  for (const [namespace, name, labels] of pods) {
    const meta = labels ? { namespace, name, labels } : { namespace, name };
    c.upsert(resourceEntry({ metadata: meta } as unknown as KubeObject, 'v1', 'Pod'));
  }
  return { c, view: c.view() };
}

function sel(text: string): Selector {
  const parsed = parseSelector(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.selector;
}

const keys = (rows: readonly ResourceEntry[]) => rows.map((r) => r.key);

describe('label selectors on the resource list', () => {
  it.each([
    ['app=web', ['/node-x', 'shop/web-a', 'shop/web-b', 'shop-2/web-a', 'zeta/web-q']],
    ['app==api', ['batch/api-z', 'shop/api-a']],
    ['env!=prod', ['/node-x', 'batch/job-1', 'shop/api-a', 'shop/bare', 'shop/web-a', 'shop-2/web-a']],
    ['env in (prod,canary)', ['batch/api-z', 'shop/api-a', 'shop/web-b', 'zeta/web-q']],
    ['env in (dev)', ['batch/job-1', 'shop/web-a', 'shop-2/web-a']],
    ['env notin (prod,dev)', ['/node-x', 'shop/api-a', 'shop/bare']],
    ['tier', ['shop/web-b', 'zeta/web-q']],
    ['!env', ['/node-x', 'shop/bare']],
    ['track=', ['shop/api-a']],
    ['app=web,env=prod', ['shop/web-b', 'zeta/web-q']],
    ['app=web,!tier', ['/node-x', 'shop/web-a', 'shop-2/web-a']],
    ['app in (web),env notin (dev)', ['/node-x', 'shop/web-b', 'zeta/web-q']],
    ['app=none', []],
  ])('%s answers exactly its matches across namespaces, by namespace then name', (text, expected) => {
    const { view } = viewOf();
    expect(keys(resourceRows(view, undefined, sel(text)))).toEqual(expected);
  });

  it('an equality on one label does not let through rows that fail another requirement', () => {
    const { view } = viewOf();
    // app=web has the longest index list; env=prod the shorter: either way tier!=back must hold.
    expect(keys(resourceRows(view, undefined, sel('app=web,env=prod,tier!=back')))).toEqual(['shop/web-b']);
  });

  it('an empty selector answers every row', () => {
    const { view } = viewOf();
    expect(resourceRows(view, undefined, [])).toHaveLength(PODS.length);
    expect(keys(resourceRows(view, 'batch', []))).toEqual(['batch/api-z', 'batch/job-1']);
  });
});

describe('namespace scoping of the resource list', () => {
  it.each([
    ['shop', ['shop/api-a', 'shop/bare', 'shop/web-a', 'shop/web-b']],
    ['shop-2', ['shop-2/web-a']],
    ['batch', ['batch/api-z', 'batch/job-1']],
    ['zeta', ['zeta/web-q']],
    ['', ['/node-x']],
    ['absent', []],
    ['a', []],
    ['zz', []],
  ])('namespace %j answers exactly its own rows, in name order', (namespace, expected) => {
    const { view } = viewOf();
    expect(keys(resourceRows(view, namespace, undefined))).toEqual(expected);
  });

  it('a selector within a namespace answers only matches of that namespace', () => {
    const { view } = viewOf();
    expect(keys(resourceRows(view, 'shop', sel('app=web')))).toEqual(['shop/web-a', 'shop/web-b']);
    expect(keys(resourceRows(view, 'shop', sel('env!=prod')))).toEqual([
      'shop/api-a',
      'shop/bare',
      'shop/web-a',
    ]);
    expect(keys(resourceRows(view, 'batch', sel('app=web')))).toEqual([]);
  });

  it('answers each namespace and each selector of one view for itself, however often asked', () => {
    const { view } = viewOf();
    expect(keys(resourceRows(view, 'shop', undefined))).toHaveLength(4);
    expect(keys(resourceRows(view, 'batch', undefined))).toEqual(['batch/api-z', 'batch/job-1']);
    expect(keys(resourceRows(view, 'shop', sel('app=web')))).toEqual(['shop/web-a', 'shop/web-b']);
    expect(keys(resourceRows(view, 'zeta', sel('app=web')))).toEqual(['zeta/web-q']);
    expect(keys(resourceRows(view, undefined, sel('app=web')))).toHaveLength(5);
    expect(keys(resourceRows(view, 'shop', sel('app=api')))).toEqual(['shop/api-a']);
  });

  it('a later view answers the change, an earlier one what it held', () => {
    const { c, view: before } = viewOf();
    c.delete('shop/web-a');
    c.upsert(
      resourceEntry({ metadata: { namespace: 'shop', name: 'api-a', labels: { app: 'web' } } }, 'v1', 'Pod'),
    );
    const after = c.view();
    expect(keys(resourceRows(before, 'shop', sel('app=web')))).toEqual(['shop/web-a', 'shop/web-b']);
    expect(keys(resourceRows(after, 'shop', sel('app=web')))).toEqual(['shop/api-a', 'shop/web-b']);
    expect(keys(resourceRows(after, 'shop', undefined))).toEqual(['shop/api-a', 'shop/bare', 'shop/web-b']);
  });
});

describe('filtered rows are kept with their view', () => {
  it('the same question of the same view is answered from the kept rows', () => {
    const { view } = viewOf();
    expect(resourceRows(view, 'shop', undefined)).toBe(resourceRows(view, 'shop', undefined));
    expect(resourceRows(view, 'shop', sel('env'))).toBe(resourceRows(view, 'shop', sel('env')));
  });

  it('keeps at most 32 answers per view, dropping the oldest first', () => {
    const { view } = viewOf();
    const first = resourceRows(view, undefined, sel('app=web'));
    for (let i = 0; i < 31; i++) resourceRows(view, undefined, sel(`app=x${i}`));
    // 32 answers kept: the first is still there.
    expect(resourceRows(view, undefined, sel('app=web'))).toBe(first);
    resourceRows(view, undefined, sel('app=x-last'));
    // The 33rd pushed the oldest out: asked again, it is computed anew, with the same rows.
    const again = resourceRows(view, undefined, sel('app=web'));
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
