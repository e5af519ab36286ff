import { describe, expect, it } from 'vitest';
import { normal, tableContext, warning } from './explain.test-support';
import { explainPvc } from './explain-pvc';
import type { ObjectLike } from './findings';

const claim = (storageClassName: string | null | undefined, phase = 'Pending'): ObjectLike => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'shop' },
  spec: storageClassName === undefined ? {} : { storageClassName },
  status: { phase },
});
const storageClass = (name: string, volumeBindingMode = 'Immediate'): ObjectLike =>
  ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    volumeBindingMode,
  }) as ObjectLike;
const pod = (name: string, claimName: string, namespace = 'shop'): ObjectLike => ({
  metadata: { name, namespace },
  spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName } }, { name: 'w' }] },
});
const summary = (fs: { source: string; reason: string; severity: string; guidance?: { id: string } }[]) =>
  fs.map((f) => [f.source, f.reason, f.severity, f.guidance?.id]);

const FAST_REF = { resourceType: 'storageclass', name: 'fast' };

describe('explainPvc: a Pending claim', () => {
  it('whose StorageClass does not exist: the phase, then the missing class in the event’s words', async () => {
    const msg =
      'Failed to provision volume with StorageClass "fast": storageclass.storage.k8s.io "fast" not found';
    const ctx = tableContext({ pod: [pod('db-0', 'data')] }, [
      warning('ProvisioningFailed', 'older'),
      normal('ProvisioningFailed', 'not a warning'),
      warning('ProvisioningFailed', msg),
    ]);
    const f = await explainPvc(claim('fast'), ctx);
    expect(summary(f)).toEqual([
      ['status', 'Pending', 'error', 'pvc-status-pending'],
      ['event', 'ProvisioningFailed', 'error', 'pvc-status-storageclassnotfound'],
    ]);
    expect(f[0]?.checks).toEqual([
      { text: 'StorageClass fast provisions the claim.', ref: FAST_REF },
      { text: 'Pod db-0 uses the claim.', ref: { resourceType: 'pod', namespace: 'shop', name: 'db-0' } },
    ]);
    expect(f[1]?.message).toBe(msg);
    expect(f[1]?.checks).toEqual([{ text: 'StorageClass fast does not exist.', ref: FAST_REF }]);
  });

  it('whose StorageClass does not exist and no event said so yet: the finding is the claim’s own', async () => {
    const f = await explainPvc(claim('fast'), tableContext({}));
    expect(summary(f)).toEqual([
      ['status', 'Pending', 'error', 'pvc-status-pending'],
      ['status', 'StorageClassNotFound', 'error', 'pvc-status-storageclassnotfound'],
    ]);
    expect(f[1]?.message).toBeUndefined();
  });

  it.each([[undefined], [''], [null]])(
    'with storageClassName %j: no class, with the FailedBinding message',
    async (cls) => {
      const msg = 'no persistent volumes available for this claim and no storage class is set';
      const ctx = tableContext({}, [normal('FailedBinding', msg)]);
      const f = await explainPvc(claim(cls), ctx);
      expect(summary(f)).toEqual([
        ['status', 'Pending', 'warning', 'pvc-status-pending'],
        ['status', 'NoStorageClass', 'warning', 'pvc-status-nostorageclass'],
      ]);
      expect(f[0]?.checks).toBeUndefined();
      expect(f[1]?.message).toBe(msg);
      expect((await explainPvc(claim(cls), tableContext({})))[1]?.message).toBeUndefined();
    },
  );

  it('whose class exists and provisioning failed: the event, its guidance and what it names', async () => {
    const msg =
      'failed to provision volume with StorageClass "fast": rpc error: secret "csi-creds" not found';
    const ctx = tableContext({ storageclass: [storageClass('fast', 'WaitForFirstConsumer')] }, [
      warning('ProvisioningFailed', msg),
    ]);
    const f = await explainPvc(claim('fast'), ctx);
    expect(summary(f)).toEqual([
      ['status', 'Pending', 'error', 'pvc-status-pending'],
      ['event', 'ProvisioningFailed', 'error', 'event-provisioningfailed'],
    ]);
    expect(f[1]?.message).toBe(msg);
    expect(f[1]?.checks?.map((c) => c.ref)).toEqual([
      { resourceType: 'secret', namespace: 'shop', name: 'csi-creds' },
    ]);
  });

  it('whose class waits for the first consumer: expected, with the pods that use it', async () => {
    const waitMsg = 'waiting for first consumer to be created before binding';
    const ctx = tableContext(
      {
        storageclass: [storageClass('gp3', 'WaitForFirstConsumer')],
        pod: [
          pod('other', 'else'),
          pod('db-0', 'data'),
          pod('elsewhere', 'data', 'other-ns'),
          { metadata: { namespace: 'shop' } },
        ],
      },
      [normal('WaitForFirstConsumer', waitMsg)],
    );
    const f = await explainPvc(claim('gp3'), ctx);
    expect(summary(f)).toEqual([
      ['status', 'Pending', 'info', 'pvc-status-pending'],
      ['status', 'WaitForFirstConsumer', 'info', 'event-waitforfirstconsumer'],
    ]);
    const podRef = { resourceType: 'pod', namespace: 'shop', name: 'db-0' };
    expect(f[1]?.checks).toEqual([{ text: 'Pod db-0 uses the claim.', ref: podRef }]);
    expect(f[1]?.message).toBe(waitMsg);
    const quiet = await explainPvc(
      claim('gp3'),
      tableContext({ storageclass: [storageClass('gp3', 'WaitForFirstConsumer')] }),
    );
    expect(quiet[1]?.message).toBeUndefined();
    expect(quiet[1]?.checks).toBeUndefined();
  });

  it('waiting on an external provisioner: the event', async () => {
    const msg = 'waiting for a volume to be created by the external provisioner "ebs.csi.aws.com"';
    const ctx = tableContext({ storageclass: [storageClass('gp3')] }, [normal('ExternalProvisioning', msg)]);
    const f = await explainPvc(claim('gp3'), ctx);
    expect(summary(f)).toEqual([
      ['status', 'Pending', 'info', 'pvc-status-pending'],
      ['event', 'ExternalProvisioning', 'info', 'event-externalprovisioning'],
    ]);
    expect(f[1]?.message).toBe(msg);
  });

  it('with no cause to show: the phase alone, its own severity', async () => {
    const f = await explainPvc(claim('gp3'), tableContext({ storageclass: [storageClass('gp3')] }));
    expect(summary(f)).toEqual([['status', 'Pending', 'warning', 'pvc-status-pending']]);
  });

  it('whose class cannot be read is not said to lack one, and pods that cannot be read are left out', async () => {
    const f = await explainPvc(claim('fast'), tableContext({}, [], ['storageclass', 'pod']));
    expect(summary(f)).toEqual([['status', 'Pending', 'warning', 'pvc-status-pending']]);
    expect(f[0]?.checks).toEqual([{ text: 'StorageClass fast provisions the claim.', ref: FAST_REF }]);
  });
});

describe('explainPvc: other phases', () => {
  it('a Bound claim, or one without status, has nothing to explain', async () => {
    expect(await explainPvc(claim('gp3', 'Bound'), tableContext({}))).toEqual([]);
    expect(await explainPvc({ metadata: { name: 'x' } }, tableContext({}))).toEqual([]);
  });

  it('a Lost claim names the volume it had', async () => {
    const lost = { ...claim('gp3', 'Lost'), spec: { volumeName: 'pvc-123' } };
    const f = await explainPvc(lost, tableContext({}));
    expect(summary(f)).toEqual([['status', 'Lost', 'error', 'pvc-status-lost']]);
    expect(f[0]?.checks).toEqual([
      {
        text: 'PersistentVolume pvc-123 was bound to the claim.',
        ref: { resourceType: 'persistentvolume', name: 'pvc-123' },
      },
    ]);
    expect((await explainPvc(claim('gp3', 'Lost'), tableContext({})))[0]?.checks).toBeUndefined();
  });
});

describe('explainPvc: what each cause reads', () => {
  it('the latest event of the cause’s reason, whatever came after it; a Normal ProvisioningFailed is no failure', async () => {
    const unbound = tableContext({}, [normal('FailedBinding', 'no volumes'), normal('Other', 'later')]);
    expect((await explainPvc(claim(''), unbound))[1]?.message).toBe('no volumes');
    const failed = tableContext({ storageclass: [storageClass('fast')] }, [
      warning('ProvisioningFailed', 'quota exceeded'),
      warning('Other', 'later'),
      normal('ProvisioningFailed', 'a normal one'),
    ]);
    const f = await explainPvc(claim('fast'), failed);
    expect([f[1]?.reason, f[1]?.message]).toEqual(['ProvisioningFailed', 'quota exceeded']);
    expect(f[1]?.checks).toBeUndefined();
    const onlyNormal = tableContext({ storageclass: [storageClass('fast')] }, [
      normal('ProvisioningFailed', 'x'),
    ]);
    expect((await explainPvc(claim('fast'), onlyNormal)).map((x) => x.reason)).toEqual(['Pending']);
    const waiting = tableContext({ storageclass: [storageClass('gp3', 'WaitForFirstConsumer')] }, [
      normal('WaitForFirstConsumer', 'first'),
      normal('Other', 'later'),
    ]);
    expect((await explainPvc(claim('gp3'), waiting))[1]?.message).toBe('first');
    const external = tableContext({ storageclass: [storageClass('gp3')] }, [
      normal('ExternalProvisioning', 'waiting'),
      normal('Other', 'later'),
    ]);
    expect((await explainPvc(claim('gp3'), external))[1]?.message).toBe('waiting');
  });

  it('a missing class without an event still names the class', async () => {
    const f = await explainPvc(claim('fast'), tableContext({}));
    expect(f[1]?.checks).toEqual([{ text: 'StorageClass fast does not exist.', ref: FAST_REF }]);
  });

  it('pods without volumes do not use it; a claim without metadata or spec has no pods and no class', async () => {
    const ctx = tableContext({
      pod: [
        { metadata: { name: 'bare', namespace: 'shop' }, spec: {} },
        { metadata: { name: 'none', namespace: 'shop' } },
      ],
    });
    expect((await explainPvc(claim('fast'), ctx))[0]?.checks).toEqual([
      { text: 'StorageClass fast provisions the claim.', ref: FAST_REF },
    ]);
    const anonymous = await explainPvc(
      { status: { phase: 'Pending' } },
      tableContext({ pod: [pod('p', 'data')] }),
    );
    expect(anonymous.map((x) => x.reason)).toEqual(['Pending', 'NoStorageClass']);
    expect(anonymous[0]?.checks).toBeUndefined();
  });

  it('a Lost claim without a spec names no volume', async () => {
    const f = await explainPvc({ status: { phase: 'Lost' } }, tableContext({}));
    expect(f.map((x) => [x.reason, x.checks])).toEqual([['Lost', undefined]]);
  });
});
