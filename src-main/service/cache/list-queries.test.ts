/**
 * Resource list queries (list-queries.ts) checked against a brute-force filter of the same rows.
 */
import { describe, expect, it } from 'vitest';
import { parseSelector, type Selector } from '../../../src-shared/kube/selector';
import { Collection } from './collection';
import { compareResources, labelKeys, type ResourceEntry, resourceEntry } from './entries';
import { resourceRows } from './list-queries';
import { lcg, pick } from './seeded-random.test-support';

const NAMESPACES = ['shop', 'batch', 'kube-system'];
describe('resource list queries', () => {
  const random = lcg(3);
  const pods: ResourceEntry[] = [];
  for (let i = 0; i < 300; i++) {
    const namespace = pick(random, NAMESPACES);
    const labels: Record<string, string> = { app: pick(random, ['web', 'api', 'db']) };
    if (random() < 0.5) labels.tier = pick(random, ['front', 'back']);
    pods.push(
      resourceEntry(
        { metadata: { name: `p${Math.floor(random() * 1e6)}-${i}`, namespace, labels } },
        'v1',
        'Pod',
      ),
    );
  }
  const c = new Collection(compareResources, { label: labelKeys });
  for (const p of pods) c.upsert(p);
  const view = c.view();

  const matches = (sel: Selector | undefined, ns: string | undefined) =>
    [...pods]
      .sort(compareResources)
      .filter(
        (p) =>
          (ns === undefined || p.namespace === ns) &&
          (sel === undefined ||
            sel.every((r) => {
              const v = p.labels?.[r.key];
              if (r.op === '=' || r.op === 'in') return v !== undefined && r.values.includes(v);
              if (r.op === '!=' || r.op === 'notin') return v === undefined || !r.values.includes(v);
              return r.op === 'exists' ? v !== undefined : v === undefined;
            })),
      )
      .map((p) => p.key);

  it.each([
    ['app=web', undefined],
    ['app=web,tier=front', undefined],
    ['app in (web,db),tier!=back', 'shop'],
    ['tier', 'batch'],
    ['!tier,app=api', undefined],
    ['app=nothing', undefined],
  ])('answers %s (namespace %s) exactly, in namespace/name order', (text, ns) => {
    const parsed = parseSelector(text);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(resourceRows(view, ns, parsed.selector).map((r) => r.key)).toEqual(matches(parsed.selector, ns));
  });

  it('answers a namespace without a selector as that namespace, in order', () => {
    expect(resourceRows(view, 'batch', undefined).map((r) => r.key)).toEqual(matches(undefined, 'batch'));
  });

  it('stores each object as JSON with managedFields removed and apiVersion and kind filled in', () => {
    const e = resourceEntry(
      { metadata: { name: 'a', namespace: 'n', managedFields: [{ x: 1 }] } },
      'v1',
      'Pod',
    );
    expect(JSON.parse(e.json)).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'a', namespace: 'n' },
    });
  });
});
