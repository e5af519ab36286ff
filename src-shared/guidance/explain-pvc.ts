/**
 * Why a PersistentVolumeClaim is not Bound. A Pending claim gets one finding for the phase and one
 * for its cause, first that holds: a StorageClass that does not exist, no StorageClass at all, a
 * ProvisioningFailed Warning event, a class that waits for the first consumer, an
 * ExternalProvisioning event. Only a cause the claim's spec, its class and its events show is
 * named; when none does, the phase finding alone lists what to look at. The phase finding takes
 * its cause's severity (a claim waiting for its first consumer is expected). Steps name the class
 * and the pods using the claim.
 */

import {
  type EventLike,
  type ExplainContext,
  explained,
  type Finding,
  type ListedObject,
  type ObjectLike,
} from './findings';
import { messageChecks } from './refs';
import { requireGuidance } from './registry';
import type { GuidanceCheck, GuidanceRef } from './types';

type PvcLike = ObjectLike & {
  spec?: { storageClassName?: string | null; volumeName?: string } | null;
  status?: { phase?: string } | null;
};

type PodVolumesLike = ListedObject & {
  spec?: { volumes?: readonly { persistentVolumeClaim?: { claimName?: string } | null }[] | null } | null;
};

/** The latest event of this reason, if any. */
function latest(events: readonly EventLike[], reason: string): EventLike | undefined {
  return events.filter((e) => e.reason === reason).at(-1);
}

/** The pods in the claim's namespace that mount it; none when pods cannot be read. */
async function consumers(ctx: ExplainContext, namespace: string, claim: string): Promise<GuidanceCheck[]> {
  const pods = ((await ctx.list('pod', namespace)) ?? []) as readonly PodVolumesLike[];
  return pods
    .filter((p) => p.spec?.volumes?.some((v) => v.persistentVolumeClaim?.claimName === claim))
    .map((p) => ({
      text: `Pod ${p.metadata.name} uses the claim.`,
      ref: { resourceType: 'pod', namespace, name: p.metadata.name },
    }));
}

function lost(pvc: PvcLike): Finding {
  const volume = pvc.spec?.volumeName;
  const checks = volume
    ? [
        {
          text: `PersistentVolume ${volume} was bound to the claim.`,
          ref: { resourceType: 'persistentvolume', name: volume },
        },
      ]
    : undefined;
  return explained('status', 'Lost', requireGuidance('pvc-status', 'Lost'), checks ? { checks } : {});
}

export async function explainPvc(obj: ObjectLike, ctx: ExplainContext): Promise<Finding[]> {
  const pvc = obj as PvcLike;
  const phase = pvc.status?.phase;
  if (phase === 'Lost') return [lost(pvc)];
  if (phase !== 'Pending') return [];
  const namespace = pvc.metadata?.namespace;
  const className = pvc.spec?.storageClassName;
  const classRef: GuidanceRef | undefined = className
    ? { resourceType: 'storageclass', name: className }
    : undefined;
  const storageClass = classRef ? await ctx.find(classRef) : undefined;
  // A claim is always namespaced; one without a namespace or name (not from the API) has no pods.
  const name = pvc.metadata?.name;
  const pods = namespace && name ? await consumers(ctx, namespace, name) : [];
  const classCheck: GuidanceCheck[] = classRef
    ? [{ text: `StorageClass ${className} provisions the claim.`, ref: classRef }]
    : [];
  const cause = pendingCause(classRef, storageClass, ctx.events, pods, namespace);
  const checks = [...classCheck, ...pods];
  const pending = explained('status', 'Pending', requireGuidance('pvc-status', 'Pending'), {
    ...(checks.length > 0 ? { checks } : {}),
  });
  return cause ? [{ ...pending, severity: cause.severity }, cause] : [pending];
}

function pendingCause(
  classRef: GuidanceRef | undefined,
  storageClass: ObjectLike | null | undefined,
  events: readonly EventLike[],
  pods: GuidanceCheck[],
  namespace: string | undefined,
): Finding | undefined {
  const failed = latest(
    events.filter((e) => e.type === 'Warning'),
    'ProvisioningFailed',
  );
  if (classRef && storageClass === null) {
    // The event, when there is one, is what the cluster said; the finding keeps its words.
    const guidance = requireGuidance('pvc-status', 'StorageClassNotFound');
    const checks = [{ text: `StorageClass ${classRef.name} does not exist.`, ref: classRef }];
    return failed
      ? explained('event', failed.reason, guidance, { message: failed.message, checks })
      : explained('status', 'StorageClassNotFound', guidance, { checks });
  }
  if (!classRef) {
    const unbound = latest(events, 'FailedBinding');
    return explained('status', 'NoStorageClass', requireGuidance('pvc-status', 'NoStorageClass'), {
      ...(unbound ? { message: unbound.message } : {}),
    });
  }
  if (failed) {
    const checks = messageChecks(failed.message, namespace);
    return explained('event', failed.reason, requireGuidance('event-reason', failed.reason), {
      message: failed.message,
      ...(checks.length > 0 ? { checks } : {}),
    });
  }
  const mode = (storageClass as { volumeBindingMode?: string } | undefined)?.volumeBindingMode;
  if (mode === 'WaitForFirstConsumer') {
    const waiting = latest(events, 'WaitForFirstConsumer');
    return explained(
      'status',
      'WaitForFirstConsumer',
      requireGuidance('event-reason', 'WaitForFirstConsumer'),
      {
        ...(waiting ? { message: waiting.message } : {}),
        ...(pods.length > 0 ? { checks: pods } : {}),
      },
    );
  }
  const external = latest(events, 'ExternalProvisioning');
  if (!external) return undefined;
  return explained('event', external.reason, requireGuidance('event-reason', external.reason), {
    message: external.message,
  });
}
