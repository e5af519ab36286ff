import { describe, expect, it } from 'vitest';
import { explainConditions } from './explain-conditions';
import type { ConditionLike, Finding, ObjectLike } from './findings';

const obj = (
  apiVersion: string,
  kind: string,
  conditions: ConditionLike[],
  extra: object = {},
): ObjectLike => ({
  apiVersion,
  kind,
  metadata: { name: 'x', namespace: 'ns' },
  ...extra,
  status: { conditions },
});
const c = (type: string, status: string, reason?: string, message?: string): ConditionLike => ({
  type,
  status,
  ...(reason ? { reason } : {}),
  ...(message ? { message } : {}),
});
const summary = (fs: Finding[]) => fs.map((f) => [f.reason, f.conditionReason, f.severity, f.guidance?.id]);

describe('explainConditions: the Ready/Available convention of every other kind', () => {
  it('a cert-manager Certificate whose Ready is False: its reason and message', () => {
    const cert = obj('cert-manager.io/v1', 'Certificate', [
      c('Ready', 'False', 'DoesNotExist', 'Issuing certificate as Secret does not exist'),
      c('Issuing', 'False', 'Failed', 'rate limited'),
    ]);
    const f = explainConditions(cert);
    expect(summary(f)).toEqual([['Ready', 'DoesNotExist', 'error', 'object-condition-ready-false']]);
    expect(f[0]).toMatchObject({
      source: 'condition',
      message: 'Issuing certificate as Secret does not exist',
    });
    expect(f[0]?.checks).toBeUndefined();
  });

  it('an APIService whose Available is False; what its message names becomes a step', () => {
    const api = obj('apiregistration.k8s.io/v1', 'APIService', [
      c(
        'Available',
        'False',
        'ServiceNotFound',
        'service/metrics-server in "kube-system" is not present: services "metrics-server" not found',
      ),
    ]);
    const f = explainConditions({ ...api, metadata: { name: 'v1beta1.metrics.k8s.io' } });
    expect(summary(f)).toEqual([
      ['Available', 'ServiceNotFound', 'error', 'object-condition-available-false'],
    ]);
    // A cluster-scoped object's message names objects it cannot place in a namespace.
    expect(f[0]?.checks).toEqual([
      {
        text: 'Service metrics-server is named in the message.',
        ref: { resourceType: 'service', name: 'metrics-server' },
      },
    ]);
  });

  it('Ready or Available that is True or Unknown, and other conditions that are False, are not problems', () => {
    const flux = obj('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', [
      c('Ready', 'True', 'ReconciliationSucceeded'),
      c('Available', 'Unknown'),
      c('Reconciling', 'False'),
      c('Stalled', 'False'),
    ]);
    expect(explainConditions(flux)).toEqual([]);
  });

  it('a condition without reason or message is still a finding, with neither field', () => {
    const f = explainConditions(obj('example.com/v1', 'Widget', [c('Ready', 'False')]));
    expect(f).toEqual([expect.objectContaining({ source: 'condition', reason: 'Ready', severity: 'error' })]);
    expect(Object.keys(f[0] as object).sort()).toEqual(['guidance', 'reason', 'severity', 'source']);
  });

  it('objects without conditions, or with things that are not conditions, have none to explain', () => {
    expect(explainConditions({ kind: 'ConfigMap', apiVersion: 'v1' })).toEqual([]);
    expect(explainConditions({ kind: 'Widget', status: { conditions: 'Ready' } })).toEqual([]);
    const odd = {
      kind: 'Widget',
      status: {
        conditions: [
          null,
          'Ready',
          { type: 'Ready' },
          { status: 'False' },
          { type: 1, status: 'False' },
          { type: 'Ready', status: false },
        ],
      },
    };
    expect(explainConditions(odd)).toEqual([]);
  });
});

describe('explainConditions: kinds with entries of their own', () => {
  it('a Node: Ready not True, and pressure conditions that are True', () => {
    const node = obj('v1', 'Node', [
      c('Ready', 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.'),
      c('MemoryPressure', 'True', 'KubeletHasInsufficientMemory'),
      c('DiskPressure', 'False'),
      c('KernelDeadlock', 'True'),
    ]);
    expect(summary(explainConditions(node))).toEqual([
      ['Ready', 'NodeStatusUnknown', 'error', 'node-condition-ready-unknown'],
      ['MemoryPressure', 'KubeletHasInsufficientMemory', 'warning', 'node-condition-memorypressure'],
      ['KernelDeadlock', undefined, 'warning', undefined],
    ]);
    expect(explainConditions(obj('v1', 'Node', [c('Ready', 'True')]))).toEqual([]);
  });

  it('a Deployment: Available or Progressing False, ReplicaFailure True', () => {
    const d = obj('apps/v1', 'Deployment', [
      c('Available', 'False', 'MinimumReplicasUnavailable'),
      c('Progressing', 'False', 'ProgressDeadlineExceeded'),
      c(
        'ReplicaFailure',
        'True',
        'FailedCreate',
        'pods "q" is forbidden: exceeded quota: compute-quota, requested: cpu=1',
      ),
    ]);
    const f = explainConditions(d);
    expect(summary(f)).toEqual([
      ['Available', 'MinimumReplicasUnavailable', 'error', 'deployment-condition-available-false'],
      ['Progressing', 'ProgressDeadlineExceeded', 'error', 'deployment-condition-progressing-false'],
      ['ReplicaFailure', 'FailedCreate', 'error', 'deployment-condition-replicafailure'],
    ]);
    expect(f[2]?.checks?.map((x) => x.ref)).toEqual([
      { resourceType: 'resourcequota', namespace: 'ns', name: 'compute-quota' },
    ]);
    const fine = obj('apps/v1', 'Deployment', [
      c('Available', 'True'),
      c('Progressing', 'True'),
      c('ReplicaFailure', 'False'),
    ]);
    expect(explainConditions(fine)).toEqual([]);
  });

  it('a ReplicaSet that cannot create pods: the quota its message names, and the Deployment that owns it', () => {
    const msg =
      'pods "quota-blocked-1-x2b7k" is forbidden: exceeded quota: compute-quota, requested: limits.memory=2Gi';
    const rs = obj('apps/v1', 'ReplicaSet', [c('ReplicaFailure', 'True', 'FailedCreate', msg)], {
      metadata: {
        name: 'quota-blocked-1',
        namespace: 'demo-broken',
        ownerReferences: [
          { apiVersion: 'example.com/v1', kind: 'Thing', name: 'not-controller' },
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'quota-blocked', controller: true },
        ],
      },
    });
    const f = explainConditions(rs);
    expect(summary(f)).toEqual([
      ['ReplicaFailure', 'FailedCreate', 'error', 'replicaset-condition-replicafailure-true'],
    ]);
    expect(f[0]?.message).toBe(msg);
    expect(f[0]?.checks).toEqual([
      {
        text: 'ResourceQuota compute-quota is named in the message.',
        ref: { resourceType: 'resourcequota', namespace: 'demo-broken', name: 'compute-quota' },
      },
      {
        text: 'Deployment quota-blocked owns it and reports the same.',
        ref: { resourceType: 'deployment', namespace: 'demo-broken', name: 'quota-blocked' },
      },
    ]);
    // Without a controller owner there is no owner step; Ready=False means nothing for a ReplicaSet.
    const orphan = obj('apps/v1', 'ReplicaSet', [c('ReplicaFailure', 'True'), c('Ready', 'False')]);
    const g = explainConditions(orphan);
    expect(summary(g)).toEqual([
      ['ReplicaFailure', undefined, 'error', 'replicaset-condition-replicafailure-true'],
    ]);
    expect(g[0]?.checks).toBeUndefined();
  });
});

describe('explainConditions: a HorizontalPodAutoscaler', () => {
  const hpa = (conditions: ConditionLike[]) =>
    obj('autoscaling/v2', 'HorizontalPodAutoscaler', conditions, {
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 6 },
    });
  const target = {
    text: 'Deployment web is the scale target.',
    ref: { resourceType: 'deployment', namespace: 'ns', name: 'web' },
  };
  const metricsApi = {
    text: 'APIService v1beta1.metrics.k8s.io serves resource metrics.',
    ref: { resourceType: 'apiservice', name: 'v1beta1.metrics.k8s.io' },
  };

  it('that cannot read resource metrics: its target and the metrics API', () => {
    const msg =
      'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API';
    const f = explainConditions(
      hpa([c('AbleToScale', 'True'), c('ScalingActive', 'False', 'FailedGetResourceMetric', msg)]),
    );
    expect(summary(f)).toEqual([
      ['ScalingActive', 'FailedGetResourceMetric', 'error', 'hpa-condition-scalingactive-false'],
    ]);
    expect(f[0]?.checks).toEqual([target, metricsApi]);
    expect(
      explainConditions(hpa([c('ScalingActive', 'False', 'FailedGetContainerResourceMetric')]))[0]?.checks,
    ).toEqual([target, metricsApi]);
  });

  it('whose metrics are not resource metrics, or that is off: the target alone', () => {
    for (const reason of ['FailedGetPodsMetric', 'ScalingDisabled', undefined]) {
      const f = explainConditions(hpa([c('ScalingActive', 'False', reason)]));
      expect(f[0]?.checks).toEqual([target]);
    }
  });

  it('that cannot scale its target', () => {
    const f = explainConditions(
      hpa([c('AbleToScale', 'False', 'FailedGetScale', 'deployments/scale.apps "web" not found')]),
    );
    expect(summary(f)).toEqual([
      ['AbleToScale', 'FailedGetScale', 'error', 'hpa-condition-abletoscale-false'],
    ]);
    expect(f[0]?.checks).toEqual([target]);
  });

  it('at its maximum is a problem; at its minimum, or limited by a rate policy, is not', () => {
    const atMax = explainConditions(
      hpa([
        c(
          'ScalingLimited',
          'True',
          'TooManyReplicas',
          'the desired replica count is more than the maximum replica count',
        ),
      ]),
    );
    expect(summary(atMax)).toEqual([
      ['ScalingLimited', 'TooManyReplicas', 'warning', 'hpa-condition-scalinglimited-true'],
    ]);
    expect(atMax[0]?.checks).toEqual([target]);
    for (const reason of ['TooFewReplicas', 'ScaleUpLimit']) {
      expect(explainConditions(hpa([c('ScalingLimited', 'True', reason)]))).toEqual([]);
    }
    expect(
      explainConditions(hpa([c('ScalingLimited', 'False', 'DesiredWithinRange'), c('Ready', 'False')])),
    ).toEqual([]);
  });

  it('whose target is incomplete names none', () => {
    const bare = obj('autoscaling/v2', 'HorizontalPodAutoscaler', [c('AbleToScale', 'False')], {
      spec: { scaleTargetRef: { kind: 'Deployment' } },
    });
    expect(explainConditions(bare)[0]?.checks).toBeUndefined();
    const noKind = obj('autoscaling/v2', 'HorizontalPodAutoscaler', [c('AbleToScale', 'False')], {
      spec: { scaleTargetRef: { name: 'web' } },
    });
    expect(explainConditions(noKind)[0]?.checks).toBeUndefined();
  });

  it('only ScalingActive names the metrics API, and only ScalingLimited at TooManyReplicas is a limit', () => {
    expect(explainConditions(hpa([c('AbleToScale', 'False', 'FailedGetResourceScale')]))[0]?.checks).toEqual([
      target,
    ]);
    expect(explainConditions(hpa([c('Other', 'True', 'TooManyReplicas')]))).toEqual([]);
    expect(explainConditions(hpa([c('ScalingLimited', 'False', 'TooManyReplicas')]))).toEqual([]);
  });

  it('an autoscaler or ReplicaSet without metadata or spec names no target and no owner', () => {
    const bare = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      status: { conditions: [c('AbleToScale', 'False')] },
    };
    expect(explainConditions(bare)[0]?.checks).toBeUndefined();
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      status: { conditions: [c('ReplicaFailure', 'True')] },
    };
    expect(explainConditions(rs)[0]?.checks).toBeUndefined();
    const target = explainConditions({
      ...bare,
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } },
    })[0]?.checks?.[0]?.ref;
    expect(target).toStrictEqual({ resourceType: 'deployment', name: 'web' });
    const owned = explainConditions({
      ...rs,
      metadata: {
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', controller: true }],
      },
    } as never)[0]?.checks?.[0]?.ref;
    expect(owned).toStrictEqual({ resourceType: 'deployment', name: 'd' });
  });
});
