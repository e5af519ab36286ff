/**
 * demo-broken's objects beyond the tailored kinds, agreeing with its scenarios (issue 23 §8):
 * - the unschedulable pod's scratch claim, Pending because its class (gp3) binds
 *   WaitForFirstConsumer and the pod is never scheduled, with the PV controller's event;
 * - a claim whose StorageClass does not exist, Pending with ProvisioningFailed events;
 * - the pod quota that refuses quota-blocked's pods, exactly full with the pods the namespace holds.
 * Built with the other kinds (more-kinds.ts), after the tailored kinds, so those keep their
 * resourceVersions.
 */

import { SECOND } from '../time';
import { AGE, BROKEN_NS, POD_QUOTA, SCRATCH_CLAIM } from './broken-kit';
import type { Gen } from './context';
import { objectEvent } from './events';
import { add, meta } from './more-kinds';

const PV_CONTROLLER = 'persistentvolume-controller';
/** The PV controller retries an unbound claim every resync (15 s): a count for the namespace's age. */
const RESYNCS = Math.floor(AGE / (15 * SECOND));

function pendingClaim(gen: Gen, name: string, storageClassName: string, size: string, app: string) {
  return add(gen, {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      ...meta(gen, 'PersistentVolumeClaim', name, BROKEN_NS, AGE, { labels: { app } }),
      finalizers: ['kubernetes.io/pvc-protection'],
    },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: size } },
      storageClassName,
      volumeMode: 'Filesystem',
    },
    status: { phase: 'Pending' },
  });
}

export function buildBrokenStorage(gen: Gen): void {
  const scratch = pendingClaim(gen, SCRATCH_CLAIM, 'gp3', '100Gi', 'unschedulable');
  objectEvent(gen, scratch, {
    reason: 'WaitForFirstConsumer',
    message: 'waiting for first consumer to be created before binding',
    component: PV_CONTROLLER,
    count: RESYNCS,
    firstAgoMs: AGE - SECOND,
    lastAgoMs: 10 * SECOND,
    recurEvery: 6,
  });
  const archive = pendingClaim(gen, 'reports-archive', 'fast-ssd', '50Gi', 'reports');
  objectEvent(gen, archive, {
    reason: 'ProvisioningFailed',
    type: 'Warning',
    message: 'storageclass.storage.k8s.io "fast-ssd" not found',
    component: PV_CONTROLLER,
    count: RESYNCS,
    firstAgoMs: AGE - SECOND,
    lastAgoMs: 10 * SECOND,
    recurEvery: 6,
  });
  const pods = String(
    gen.objects.filter((o) => o.kind === 'Pod' && o.metadata.namespace === BROKEN_NS).length,
  );
  add(gen, {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: meta(gen, 'ResourceQuota', POD_QUOTA, BROKEN_NS, AGE),
    spec: { hard: { pods } },
    status: { hard: { pods }, used: { pods } },
  });
}
