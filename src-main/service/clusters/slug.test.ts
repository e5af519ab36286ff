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
