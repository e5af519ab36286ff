/**
 * "Why is this object broken", for any kind: the kind's own explainer (pod, claim, Ingress, or the
 * conditions of everything else), then the object's Warning events that finding did not already
 * tell, then every step that names another object looked up once, so a missing one says so.
 *
 * Rules: an event finding is left out when a finding already has its reason (as reason or as
 * condition reason). Events get knowledge-base guidance only for Kubernetes' own kinds: a custom
 * resource's event reasons are its controller's vocabulary (cert-manager's `Failed` is not a
 * container's), so they come with their message alone. At most MAX_EVENT_FINDINGS reasons, newest
 * first. Look-ups that cannot answer leave a ref unmarked, never marked missing.
 */

import { explainConditions } from './explain-conditions';
import { explainIngress } from './explain-ingress';
import { explainPod, type PodLike } from './explain-pod';
import { explainPvc } from './explain-pvc';
import type { EventLike, ExplainContext, Finding, ObjectLike } from './findings';
import { finding } from './findings';
import { type FitPodSpec, nodeFitChecks, nodeFits } from './node-fit';
import { groupOf, isOwnGroup, messageChecks, refKey } from './refs';
import { guidanceForReason } from './registry';
import type { GuidanceRef } from './types';

export const MAX_EVENT_FINDINGS = 10;

async function kindFindings(obj: ObjectLike, ctx: ExplainContext): Promise<Finding[]> {
  const key = `${groupOf(obj.apiVersion)}/${obj.kind}`;
  if (key === '/Pod') return withNodeFit(obj as PodLike & FitPodLike, explainPod(obj as PodLike), ctx);
  if (key === '/PersistentVolumeClaim') return explainPvc(obj, ctx);
  if (key === 'networking.k8s.io/Ingress') return explainIngress(obj, ctx);
  return explainConditions(obj);
}

type FitPodLike = { spec?: FitPodSpec | null; status?: { phase?: string } | null };

/**
 * A Pending pod on no node: its phase finding names every node that could take it and why each
 * other one cannot (node-fit.ts), when the nodes and every namespace's pods can be read.
 */
async function withNodeFit(pod: FitPodLike, findings: Finding[], ctx: ExplainContext): Promise<Finding[]> {
  if (pod.spec?.nodeName || pod.status?.phase !== 'Pending' || !ctx.listAll) return findings;
  const [nodes, pods] = await Promise.all([ctx.list('node', ''), ctx.listAll('pod')]);
  if (!nodes || !pods || nodes.length === 0) return findings;
  const checks = nodeFitChecks(pod.spec, nodeFits(pod.spec, nodes, pods));
  return findings.map((f) => (f.source === 'phase' ? { ...f, checks: [...checks, ...(f.checks ?? [])] } : f));
}

/** One finding per Warning reason, from its latest event, newest first. */
export function explainEvents(events: readonly EventLike[], obj: ObjectLike): Finding[] {
  const latest = new Map<string, EventLike>();
  for (const e of events) {
    if (e.type !== 'Warning') continue;
    // Re-inserting moves the reason to the end: the map ends in order of last occurrence.
    latest.delete(e.reason);
    latest.set(e.reason, e);
  }
  const known = isOwnGroup(groupOf(obj.apiVersion));
  const namespace = obj.metadata?.namespace;
  return [...latest.values()]
    .reverse()
    .slice(0, MAX_EVENT_FINDINGS)
    .map((e) => {
      const checks = messageChecks(e.message, namespace);
      const guidance = known ? guidanceForReason(e.reason, 'event-reason') : undefined;
      return finding('event', e.reason, guidance, 'warning', {
        message: e.message,
        ...(checks.length > 0 ? { checks } : {}),
      });
    });
}

/** Each ref looked up once; a ref whose object does not exist comes back marked missing. */
async function markMissing(findings: Finding[], ctx: ExplainContext): Promise<Finding[]> {
  const refs = new Map<string, GuidanceRef>();
  for (const f of findings) for (const c of f.checks ?? []) if (c.ref) refs.set(refKey(c.ref), c.ref);
  const missing = new Set<string>();
  await Promise.all(
    [...refs].map(async ([key, ref]) => {
      if ((await ctx.find(ref)) === null) missing.add(key);
    }),
  );
  return findings.map((f) =>
    f.checks
      ? {
          ...f,
          checks: f.checks.map((c) =>
            c.ref && missing.has(refKey(c.ref)) ? { ...c, ref: { ...c.ref, missing: true } } : c,
          ),
        }
      : f,
  );
}

export async function explainObject(obj: ObjectLike, ctx: ExplainContext): Promise<Finding[]> {
  const own = await kindFindings(obj, ctx);
  const told = new Set(
    own
      .flatMap((f) => (f.conditionReason ? [f.reason, f.conditionReason] : [f.reason]))
      .map((r) => r.toLowerCase()),
  );
  const events = explainEvents(ctx.events, obj).filter((f) => !told.has(f.reason.toLowerCase()));
  return markMissing([...own, ...events], ctx);
}
