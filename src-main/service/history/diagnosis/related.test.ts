/**
 * The related objects a diagnosis reads the changes of (related.ts), most direct first.
 */
import { describe, expect, it } from 'vitest';
import type { Relations } from '../../../../src-shared/contract/relations-operations';
import { relatedRefs } from './related';

const empty: Relations = {
  object: { resourceType: 'pod', namespace: 'shop', name: 'p' },
  owners: [],
  dependents: [],
  uses: [],
  usedBy: [],
  selects: [],
  selectedBy: [],
};

describe('relatedRefs', () => {
  it('a pod: itself, owners, config, autoscalers, node, then its namespace’s policies', () => {
    const relations: Relations = {
      ...empty,
      owners: [
        { resourceType: 'replicaset', namespace: 'shop', name: 'checkout-1' },
        { resourceType: 'deployment', namespace: 'shop', name: 'checkout' },
      ],
      uses: [
        { resourceType: 'node', name: 'worker-1' },
        { resourceType: 'configmap', namespace: 'shop', name: 'conf' },
        { resourceType: 'secret', namespace: 'shop', name: 'db' },
      ],
      selectedBy: [
        { resourceType: 'service', namespace: 'shop', name: 'checkout' },
        { resourceType: 'horizontalpodautoscaler', namespace: 'shop', name: 'own' },
      ],
    };
    const root: Relations = {
      ...empty,
      uses: [{ resourceType: 'configmap', namespace: 'shop', name: 'template-conf' }],
      selectedBy: [
        { resourceType: 'horizontalpodautoscaler.autoscaling', namespace: 'shop', name: 'checkout' },
        { resourceType: 'poddisruptionbudget', namespace: 'shop', name: 'pdb' },
        { resourceType: 'horizontalpodautoscalerx', namespace: 'shop', name: 'not-one' },
      ],
    };
    expect(relatedRefs({ resourceType: 'pod', namespace: 'shop', name: 'p' }, relations, root)).toEqual([
      { resourceType: 'pod', namespace: 'shop', name: 'p', relation: 'self' },
      { resourceType: 'replicaset', namespace: 'shop', name: 'checkout-1', relation: 'owner' },
      { resourceType: 'deployment', namespace: 'shop', name: 'checkout', relation: 'owner' },
      { resourceType: 'configmap', namespace: 'shop', name: 'conf', relation: 'uses' },
      { resourceType: 'secret', namespace: 'shop', name: 'db', relation: 'uses' },
      { resourceType: 'configmap', namespace: 'shop', name: 'template-conf', relation: 'uses' },
      { resourceType: 'horizontalpodautoscaler', namespace: 'shop', name: 'own', relation: 'autoscaler' },
      {
        resourceType: 'horizontalpodautoscaler.autoscaling',
        namespace: 'shop',
        name: 'checkout',
        relation: 'autoscaler',
      },
      { resourceType: 'node', namespace: '', name: 'worker-1', relation: 'node' },
      { resourceType: 'resourcequota', namespace: 'shop', relation: 'namespace' },
      { resourceType: 'limitrange', namespace: 'shop', relation: 'namespace' },
    ]);
  });

  it('a cluster-scoped object without relations: itself alone', () => {
    expect(
      relatedRefs({ resourceType: 'node', namespace: '', name: 'worker-3' }, undefined, undefined),
    ).toEqual([{ resourceType: 'node', namespace: '', name: 'worker-3', relation: 'self' }]);
  });
});
