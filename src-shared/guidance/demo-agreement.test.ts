import type { KubeObject, Pod } from '@skiff/kube-simulator';
import { buildDemo, DEMO_PODS } from '@skiff/kube-simulator';
import { describe, expect, it } from 'vitest';
import { podUses, refsInMessage } from './refs';

/**
 * The demo agrees with its scenarios (issue 23 §8): what a scenario says is missing is missing,
 * what the pods use exists, a claim a Pending pod mounts is itself Pending with the event that
 * says why, and every object a Warning event names as not found really is absent. Built at a
 * fixed instant; nothing here depends on the clock.
 */

const NOW = Date.parse('2025-03-04T05:06:07Z');
const demo = buildDemo({ seed: 3, now: NOW });

type Obj = KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };
const RESOURCE_TYPE_OF: Record<string, string> = {
  ConfigMap: 'configmap',
  Secret: 'secret',
  PersistentVolumeClaim: 'persistentvolumeclaim',
  ServiceAccount: 'serviceaccount',
  Service: 'service',
  StorageClass: 'storageclass',
  ResourceQuota: 'resourcequota',
};
const byRef = new Map<string, Obj>();
for (const o of demo.objects as Obj[]) {
  const type = RESOURCE_TYPE_OF[o.kind];
  if (type) byRef.set(`${type}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, o);
}
const lookup = (resourceType: string, namespace: string | undefined, name: string) =>
  byRef.get(`${resourceType}/${namespace ?? ''}/${name}`);

const pods = demo.objects.filter((o): o is Pod => o.kind === 'Pod');
const podNamed = (p: { namespace: string; name: string }) =>
  pods.find((x) => x.metadata.namespace === p.namespace && x.metadata.name === p.name) as Pod;
const eventsAbout = (kind: string, namespace: string, name: string) =>
  (demo.objects as Obj[]).filter((e) => {
    const about = (e as unknown as { involvedObject?: { kind: string; namespace?: string; name: string } })
      .involvedObject;
    return e.kind === 'Event' && about?.kind === kind && about.namespace === namespace && about.name === name;
  }) as unknown as { type: string; reason: string; message: string }[];

describe('the demo agrees with its scenarios', () => {
  it('the FailedMount pod’s ConfigMap and the config-error pod’s Secret really are missing', () => {
    const mount = podNamed(DEMO_PODS.failedMount);
    const used = podUses(mount.metadata.namespace, mount.spec).map((u) => u.ref);
    expect(used).toContainEqual({ resourceType: 'configmap', namespace: 'demo-broken', name: 'app-config' });
    expect(lookup('configmap', 'demo-broken', 'app-config')).toBeUndefined();
    expect(lookup('secret', 'demo-broken', 'db-credentials')).toBeUndefined();
  });

  it('every ConfigMap, Secret and claim a pod uses exists, but for those two', () => {
    const absent: string[] = [];
    for (const p of pods) {
      for (const u of podUses(p.metadata.namespace, p.spec)) {
        if (u.optional || lookup(u.ref.resourceType, u.ref.namespace, u.ref.name)) continue;
        absent.push(`${u.ref.resourceType}/${u.ref.namespace}/${u.ref.name}`);
      }
    }
    expect(absent.sort()).toEqual(['configmap/demo-broken/app-config', 'secret/demo-broken/db-credentials']);
  });

  it('the Pending pod mounts a claim that is Pending, whose StorageClass waits for the first consumer, and says so', () => {
    const pending = podNamed(DEMO_PODS.unschedulable);
    expect(pending.status.phase).toBe('Pending');
    const claims = podUses(pending.metadata.namespace, pending.spec).filter(
      (u) => u.kind === 'PersistentVolumeClaim',
    );
    expect(claims).toHaveLength(1);
    const claim = lookup('persistentvolumeclaim', 'demo-broken', claims[0]?.ref.name ?? '');
    expect(claim?.status?.phase).toBe('Pending');
    expect(claim?.spec?.volumeName).toBeUndefined();
    const cls = lookup('storageclass', undefined, String(claim?.spec?.storageClassName));
    expect((cls as { volumeBindingMode?: string } | undefined)?.volumeBindingMode).toBe(
      'WaitForFirstConsumer',
    );
    const events = eventsAbout('PersistentVolumeClaim', 'demo-broken', claim?.metadata.name ?? '');
    expect(events.map((e) => [e.type, e.reason])).toEqual([['Normal', 'WaitForFirstConsumer']]);
  });

  it('a claim whose StorageClass does not exist is Pending with ProvisioningFailed events', () => {
    const claims = (demo.objects as Obj[]).filter(
      (o) =>
        o.kind === 'PersistentVolumeClaim' &&
        !lookup('storageclass', undefined, String(o.spec?.storageClassName)),
    );
    expect(claims.map((c) => [c.metadata.namespace, c.status?.phase])).toEqual([['demo-broken', 'Pending']]);
    const events = eventsAbout('PersistentVolumeClaim', 'demo-broken', claims[0]?.metadata.name ?? '');
    expect(events.map((e) => [e.type, e.reason])).toEqual([['Warning', 'ProvisioningFailed']]);
  });

  it('every object a Warning event names as not found is absent; every quota one names exists', () => {
    const named = (demo.objects as Obj[])
      .filter((e) => e.kind === 'Event' && (e as unknown as { type: string }).type === 'Warning')
      .flatMap((e) => refsInMessage((e as unknown as { message: string }).message, e.metadata.namespace));
    expect(named.length).toBeGreaterThan(0);
    const wrong = named.filter(({ ref }) => {
      const exists = lookup(ref.resourceType, ref.namespace, ref.name) !== undefined;
      return ref.resourceType === 'resourcequota' ? !exists : exists;
    });
    expect(wrong).toEqual([]);
    expect(named.map((n) => n.ref.resourceType)).toContain('resourcequota');
  });

  it('the quota the ReplicaSet’s refusal names is exactly full', () => {
    type Quota = {
      spec: { hard: { pods: string } };
      status: { hard: { pods: string }; used: { pods: string } };
    };
    const quota = lookup('resourcequota', 'demo-broken', 'pod-count') as unknown as Quota;
    const hard = quota.status.hard.pods;
    expect(quota.spec.hard.pods).toBe(hard);
    expect(quota.status.used.pods).toBe(hard);
    expect(String(pods.filter((p) => p.metadata.namespace === 'demo-broken').length)).toBe(hard);
  });
});
