import { describe, expect, it } from 'vitest';
import { normal, tableContext, warning } from './explain.test-support';
import { explainEvents, explainObject, MAX_EVENT_FINDINGS } from './explain-object';
import type { Finding, ObjectLike } from './findings';

const summary = (fs: Finding[]) => fs.map((f) => [f.source, f.reason, f.guidance?.id]);

const failedMountPod: ObjectLike = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'failedmount-1', namespace: 'demo-broken' },
  spec: {
    volumes: [
      { name: 'config', configMap: { name: 'app-config' } },
      { name: 'ca', configMap: { name: 'kube-root-ca.crt' } },
    ],
    containers: [{ name: 'app' }],
  },
  status: {
    phase: 'Pending',
    containerStatuses: [{ name: 'app', state: { waiting: { reason: 'ContainerCreating' } } }],
  },
} as ObjectLike;

describe('explainObject', () => {
  it('a pod whose ConfigMap is missing: the step and the event name it, marked missing; the one present is not', async () => {
    const mount = 'MountVolume.SetUp failed for volume "config" : configmap "app-config" not found';
    const ctx = tableContext(
      { configmap: [{ metadata: { name: 'kube-root-ca.crt', namespace: 'demo-broken' } }] },
      [normal('Scheduled', 'Successfully assigned'), warning('FailedMount', mount)],
    );
    const f = await explainObject(failedMountPod, ctx);
    expect(summary(f)).toEqual([
      ['phase', 'Pending', 'pod-phase-pending'],
      ['waiting', 'ContainerCreating', 'waiting-containercreating'],
      ['event', 'FailedMount', 'event-failedmount'],
    ]);
    const appConfig = {
      resourceType: 'configmap',
      namespace: 'demo-broken',
      name: 'app-config',
      missing: true,
    };
    expect(f[1]?.checks).toEqual([
      { text: 'ConfigMap app-config, used by volume "config".', ref: appConfig },
      {
        text: 'ConfigMap kube-root-ca.crt, used by volume "ca".',
        ref: { resourceType: 'configmap', namespace: 'demo-broken', name: 'kube-root-ca.crt' },
      },
    ]);
    expect(f[2]?.message).toBe(mount);
    expect(f[2]?.checks).toEqual([{ text: 'ConfigMap app-config is named in the message.', ref: appConfig }]);
    // Each object is looked up once however many steps name it.
    expect(ctx.lookups.sort()).toEqual([
      'configmap/demo-broken/app-config',
      'configmap/demo-broken/kube-root-ca.crt',
    ]);
  });

  it('a ref whose kind cannot be read stays unmarked', async () => {
    const f = await explainObject(failedMountPod, tableContext({}, [], ['configmap']));
    expect(f[1]?.checks?.map((c) => c.ref?.missing)).toEqual([undefined, undefined]);
  });

  it('a claim goes to the claim’s explainer, and its cause’s event is not told twice', async () => {
    const pvc: ObjectLike = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'ns' },
      spec: { storageClassName: 'fast' },
      status: { phase: 'Pending' },
    };
    const ctx = tableContext({}, [
      warning('ProvisioningFailed', 'storageclass.storage.k8s.io "fast" not found'),
    ]);
    const f = await explainObject(pvc, ctx);
    expect(summary(f)).toEqual([
      ['status', 'Pending', 'pvc-status-pending'],
      ['event', 'ProvisioningFailed', 'pvc-status-storageclassnotfound'],
    ]);
    expect(f[1]?.checks?.[0]?.ref).toEqual({ resourceType: 'storageclass', name: 'fast', missing: true });
  });

  it('an Ingress goes to the Ingress explainer', async () => {
    const ing: ObjectLike = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'web', namespace: 'ns' },
      spec: { ingressClassName: 'nginx' },
    };
    const f = await explainObject(ing, tableContext({}));
    expect(summary(f)).toEqual([['status', 'NoAddress', 'ingress-status-noaddress']]);
    expect(f[0]?.checks?.[0]?.ref).toEqual({ resourceType: 'ingressclass', name: 'nginx', missing: true });
    // An Ingress of another group is just an object with conditions.
    expect(await explainObject({ ...ing, apiVersion: 'example.com/v1' }, tableContext({}))).toEqual([]);
  });

  it('a ReplicaSet’s FailedCreate events are told by its condition; a custom resource’s events keep their words only', async () => {
    const rs: ObjectLike = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'rs', namespace: 'ns' },
      status: {
        conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'm' }],
      },
    };
    const f = await explainObject(
      rs,
      tableContext({}, [warning('FailedCreate', 'Error creating: m'), warning('Other', 'x')]),
    );
    expect(summary(f)).toEqual([
      ['condition', 'ReplicaFailure', 'replicaset-condition-replicafailure-true'],
      ['event', 'Other', undefined],
    ]);
    const cert: ObjectLike = {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'grafana-tls', namespace: 'monitoring' },
      status: {
        conditions: [{ type: 'Ready', status: 'False', reason: 'DoesNotExist', message: 'no secret' }],
      },
    };
    const g = await explainObject(cert, tableContext({}, [warning('Failed', 'rate limited')]));
    expect(summary(g)).toEqual([
      ['condition', 'Ready', 'object-condition-ready-false'],
      ['event', 'Failed', undefined],
    ]);
    expect(g[1]).toEqual({ source: 'event', reason: 'Failed', message: 'rate limited', severity: 'warning' });
  });
});

describe('explainEvents', () => {
  const pod: ObjectLike = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' } };

  it('one finding per Warning reason, from its latest event, newest first; Normal events are not problems', () => {
    const f = explainEvents(
      [warning('BackOff', 'old'), warning('Failed', 'f'), normal('Pulled', 'ok'), warning('BackOff', 'new')],
      pod,
    );
    expect(f.map((x) => [x.reason, x.message, x.guidance?.id])).toEqual([
      ['BackOff', 'new', 'event-backoff'],
      ['Failed', 'f', 'event-failed'],
    ]);
    expect(f[0]?.severity).toBe('warning');
    expect(f[0]?.checks).toBeUndefined();
  });

  it('keeps the newest reasons up to the bound', () => {
    const events = Array.from({ length: MAX_EVENT_FINDINGS + 2 }, (_, i) => warning(`R${i}`, `m${i}`));
    const f = explainEvents(events, pod);
    expect(f).toHaveLength(MAX_EVENT_FINDINGS);
    expect(f[0]?.reason).toBe(`R${MAX_EVENT_FINDINGS + 1}`);
    expect(f.at(-1)?.reason).toBe('R2');
  });

  it('Kubernetes’ own groups get guidance, with the severity of their entry; other groups do not', () => {
    const node = explainEvents([warning('NodeNotReady', 'x')], { apiVersion: 'v1', kind: 'Node' });
    expect(node[0]?.guidance?.id).toBe('event-nodenotready');
    const hpa = explainEvents([warning('FailedGetResourceMetric', 'x')], {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
    });
    expect(hpa[0]?.guidance?.id).toBe('event-failedgetresourcemetric');
    const pvcEvent = explainEvents([warning('ProvisioningFailed', 'x')], {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
    });
    expect(pvcEvent[0]?.guidance?.id).toBe('event-provisioningfailed');
    expect(pvcEvent[0]?.severity).toBe('error');
    const flux = explainEvents([warning('BackOff', 'x')], {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
    });
    expect(flux[0]?.guidance).toBeUndefined();
  });

  it('names what each message names, in the object’s namespace', () => {
    const f = explainEvents([warning('FailedCreate', 'Error creating: serviceaccount "builder" not found')], {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { namespace: 'ci' },
    });
    expect(f[0]?.checks).toEqual([
      {
        text: 'ServiceAccount builder is named in the message.',
        ref: { resourceType: 'serviceaccount', namespace: 'ci', name: 'builder' },
      },
    ]);
  });

  it('an event reason that is also a container state gets the event’s entry', () => {
    const f = explainEvents([warning('OOMKilled', 'x'), warning('Evicted', 'y')], pod);
    expect(f.map((x) => x.guidance?.id)).toEqual(['event-evicted', 'event-oomkilled']);
  });
});

describe('explainObject: edges', () => {
  it('an object with no kind has nothing to explain', async () => {
    expect(await explainObject({}, tableContext({}))).toEqual([]);
  });

  it('steps without a ref are kept as they are, and not looked up', async () => {
    const ing: ObjectLike = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'w', namespace: 'ns' },
    };
    const ctx = tableContext({});
    const f = await explainObject(ing, ctx);
    expect(f[0]?.checks).toEqual([{ text: expect.stringMatching(/default/) }]);
    expect(ctx.lookups).toEqual([]);
  });

  it('a finding without a condition reason tells only its own reason', async () => {
    const d: ObjectLike = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'ns' },
      status: { conditions: [{ type: 'Available', status: 'False' }] },
    };
    const f = await explainObject(
      d,
      tableContext({}, [warning('Available', 'told'), warning('FailedCreate', 'x')]),
    );
    expect(f.map((x) => x.reason)).toEqual(['Available', 'FailedCreate']);
  });
});
