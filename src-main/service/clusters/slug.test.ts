/**
 * clusterIds (slug.ts): slugify rule by rule, and ids that stay and never collide.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assignClusterIds, slugify } from './slug';

describe('slugify', () => {
  it('makes URL-safe lower-case slugs', () => {
    expect(slugify('arn:aws:eks:eu-west-1:123456789012:cluster/Prod')).toBe(
      'arn-aws-eks-eu-west-1-123456789012-cluster-prod',
    );
    expect(slugify('kind-kind')).toBe('kind-kind');
    expect(slugify('gke_my-project_europe-west1_main')).toBe('gke-my-project-europe-west1-main');
    expect(slugify('!!!')).toBe('cluster');
  });
});

describe('assignClusterIds', () => {
  it('gives colliding contexts a stable hash suffix', () => {
    const ids = assignClusterIds(['Prod', 'prod', 'PROD!'], {});
    expect(ids.Prod).toBe('prod');
    expect(ids.prod).toMatch(/^prod-[0-9a-f]{6}$/);
    expect(ids['PROD!']).toMatch(/^prod-[0-9a-f]{6}$/);
    expect(ids.prod).not.toBe(ids['PROD!']);
    // The same context gets the same suffix on every machine.
    expect(assignClusterIds(['x', 'prod'], { x: 'prod' }).prod).toBe(ids.prod);
  });

  it('keeps ids already assigned even when kubeconfig order changes', () => {
    const first = assignClusterIds(['a', 'A'], {});
    const again = assignClusterIds(['A', 'a'], first);
    expect(again).toEqual(first);
  });

  it('never hands out a reserved id', () => {
    expect(assignClusterIds(['demo'], {}, ['demo']).demo).toMatch(/^demo-[0-9a-f]{6}$/);
  });
});

describe('slugify, rule by rule', () => {
  it('turns a run of other characters into one dash', () => {
    expect(slugify('a  b__c')).toBe('a-b-c');
  });

  it('cuts to 50 characters, and drops a dash the cut leaves at the end', () => {
    expect(slugify('x'.repeat(60))).toBe('x'.repeat(50));
    expect(slugify(`${'a'.repeat(49)} tail`)).toBe('a'.repeat(49));
  });
});

describe('assignClusterIds, rule by rule', () => {
  const suffix = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 6);

  it('keeps a known id only once: a second context that knew the same id gets its own', () => {
    expect(assignClusterIds(['b', 'a'], { a: 'x', b: 'x' })).toEqual({ b: 'x', a: 'a' });
  });

  it('does not keep a known id that is now reserved', () => {
    expect(assignClusterIds(['demo'], { demo: 'demo' }, ['demo'])).toEqual({
      demo: `demo-${suffix('demo')}`,
    });
  });

  it('never gives a new context the id of one that is gone from the kubeconfig', () => {
    // "Prod" was removed; "PROD" slugs the same, and gets an id of its own.
    expect(assignClusterIds(['PROD', 'stage'], { Prod: 'prod', stage: 'stage' })).toEqual({
      PROD: `prod-${suffix('PROD')}`,
      stage: 'stage',
    });
  });

  it('counts up from 2 when the slug and its hash suffix are both taken', () => {
    const taken = ['prod', `prod-${suffix('Prod')}`, `prod-${suffix('Prod')}-2`];
    expect(assignClusterIds(['Prod'], {}, taken)).toEqual({ Prod: `prod-${suffix('Prod')}-3` });
    expect(assignClusterIds(['Prod'], {}, taken.slice(0, 2))).toEqual({ Prod: `prod-${suffix('Prod')}-2` });
  });
});
