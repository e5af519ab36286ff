/**
 * Why a PersistentVolumeClaim is not Bound. A Pending claim gets one finding for the phase and one
 * for its cause, first that holds: a StorageClass that does not exist, no StorageClass at all, a
 * ProvisioningFailed event, a class that waits for the first consumer, an ExternalProvisioning
 * event. Only a cause the claim's spec, its class and its events show is named; when none does,
 * the phase finding alone lists what to look at. Steps name the class and the pods using the claim.
 */

import { type EventLike, type ExplainContext, type Finding, finding, type ObjectLike } from './findings';
import { messageChecks } from './refs';
import { findGuidance } from './registry';
import type { GuidanceCheck, GuidanceRef } from './types';

type PvcLike = ObjectLike & {
  spec?: { storageClassName?: string | null; volumeName?: string } | null;
  status?: { phase?: string } | null;
};

type PodVolumesLike = ObjectLike & {
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
    .map((p) => {
      const name = p.metadata?.name ?? '';
      return { text: `Pod ${name} uses the claim.`, ref: { resourceType: 'pod', namespace, name } };
    });
}

export async function explainPvc(obj: ObjectLike, ctx: ExplainContext): Promise<Finding[]> {
  const pvc = obj as PvcLike;
  const phase = pvc.status?.phase;
  if (phase === 'Lost') {
    const volume = pvc.spec?.volumeName;
    const checks = volume
      ? [
          {
            text: `PersistentVolume ${volume} was bound to the claim.`,
            ref: { resourceType: 'persistentvolume', name: volume },
          },
        ]
      : [];
    return [
      finding('status', 'Lost', findGuidance('pvc-status', 'Lost'), 'error', checks.length ? { checks } : {}),
    ];
  }
  if (phase !== 'Pending') return [];
  const namespace = pvc.metadata?.namespace ?? '';
  const className = pvc.spec?.storageClassName;
  const classRef: GuidanceRef | undefined = className
    ? { resourceType: 'storageclass', name: className }
    : undefined;
  const storageClass = classRef ? await ctx.find(classRef) : undefined;
  const pods = await consumers(ctx, namespace, pvc.metadata?.name ?? '');
  const classCheck: GuidanceCheck[] = classRef
    ? [{ text: `StorageClass ${className} provisions the claim.`, ref: classRef }]
    : [];
  const cause = pendingCause(classRef, storageClass, ctx.events, pods, namespace);
  const checks = [...classCheck, ...pods];
  const pending = finding('status', 'Pending', findGuidance('pvc-status', 'Pending'), 'warning', {
    ...(checks.length > 0 ? { checks } : {}),
  });
  if (!cause) return [pending];
  return [{ ...pending, severity: cause.severity }, cause];
}

function pendingCause(
  classRef: GuidanceRef | undefined,
  storageClass: ObjectLike | null | undefined,
  events: readonly EventLike[],
  pods: GuidanceCheck[],
  namespace: string,
): Finding | undefined {
  const failed = latest(
    events.filter((e) => e.type === 'Warning'),
    'ProvisioningFailed',
  );
  if (classRef && storageClass === null) {
    // The event, when there is one, is what the cluster said; the finding keeps its words.
    const guidance = findGuidance('pvc-status', 'StorageClassNotFound');
    const checks = [{ text: `StorageClass ${classRef.name} does not exist.`, ref: classRef }];
    return failed
      ? finding('event', failed.reason, guidance, 'error', { message: failed.message, checks })
      : finding('status', 'StorageClassNotFound', guidance, 'error', { checks });
  }
  if (!classRef) {
    const unbound = latest(events, 'FailedBinding');
    return finding('status', 'NoStorageClass', findGuidance('pvc-status', 'NoStorageClass'), 'warning', {
      ...(unbound ? { message: unbound.message } : {}),
    });
  }
  if (failed) {
    return finding('event', failed.reason, findGuidance('event-reason', failed.reason), 'error', {
      message: failed.message,
      checks: messageChecks(failed.message, namespace),
    });
  }
  const mode = (storageClass as { volumeBindingMode?: string } | undefined)?.volumeBindingMode;
  if (mode === 'WaitForFirstConsumer') {
    const waiting = latest(events, 'WaitForFirstConsumer');
    const guidance = findGuidance('event-reason', 'WaitForFirstConsumer');
    return finding('status', 'WaitForFirstConsumer', guidance, 'info', {
      ...(waiting ? { message: waiting.message } : {}),
      ...(pods.length > 0 ? { checks: pods } : {}),
    });
  }
  const external = latest(events, 'ExternalProvisioning');
  if (!external) return undefined;
  const guidance = findGuidance('event-reason', external.reason);
  return finding('event', external.reason, guidance, 'info', { message: external.message });
}
