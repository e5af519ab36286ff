/**
 * Findings from `status.conditions`, for every kind but the pod (explain-pod.ts reads its own).
 * Kinds with entries of their own (Node, Deployment, ReplicaSet, HorizontalPodAutoscaler) say which
 * of their conditions are problems; every other kind follows the convention custom resources share:
 * a Ready or Available condition that is False is a problem, explained by its reason and message.
 * Each finding's steps name the objects its message names, and the owner or scale target it means.
 */

import { type ConditionLike, conditionsOf, type Finding, finding, type ObjectLike } from './findings';
import { groupOf, messageChecks, refOf } from './refs';
import { findGuidance } from './registry';
import type { GuidanceCheck, GuidanceSubject } from './types';

type Rule = {
  subject: GuidanceSubject;
  problem: (c: ConditionLike) => boolean;
  checks?: (obj: ObjectLike, c: ConditionLike) => GuidanceCheck[];
};

const isFalse =
  (...types: string[]) =>
  (c: ConditionLike) =>
    types.includes(c.type) && c.status === 'False';
const replicaFailure = (c: ConditionLike) => c.type === 'ReplicaFailure' && c.status === 'True';

type OwnedLike = { metadata?: { ownerReferences?: readonly OwnerLike[] | null } };
type OwnerLike = { apiVersion?: string; kind: string; name: string; controller?: boolean };
type HpaLike = { spec?: { scaleTargetRef?: { apiVersion?: string; kind?: string; name?: string } } };

function ownerCheck(obj: ObjectLike): GuidanceCheck[] {
  const owner = (obj as OwnedLike).metadata?.ownerReferences?.find((o) => o.controller);
  if (!owner) return [];
  const ref = refOf(owner.apiVersion, owner.kind, owner.name, obj.metadata?.namespace);
  return [{ text: `${owner.kind} ${owner.name} owns it and reports the same.`, ref }];
}

const METRICS_API = { resourceType: 'apiservice', name: 'v1beta1.metrics.k8s.io' };

function hpaChecks(obj: ObjectLike, c: ConditionLike): GuidanceCheck[] {
  const target = (obj as HpaLike).spec?.scaleTargetRef;
  const checks: GuidanceCheck[] = [];
  if (target?.kind && target.name) {
    const ref = refOf(target.apiVersion, target.kind, target.name, obj.metadata?.namespace);
    checks.push({ text: `${target.kind} ${target.name} is the scale target.`, ref });
  }
  // Resource metrics (cpu, memory) come from metrics-server through this APIService.
  if (c.type === 'ScalingActive' && c.reason?.includes('Resource')) {
    checks.push({ text: 'APIService v1beta1.metrics.k8s.io serves resource metrics.', ref: METRICS_API });
  }
  return checks;
}

const RULES: Readonly<Record<string, Rule>> = {
  '/Node': {
    subject: 'node-condition',
    problem: (c) => (c.type === 'Ready' ? c.status !== 'True' : c.status === 'True'),
  },
  'apps/Deployment': {
    subject: 'deployment-condition',
    problem: (c) => isFalse('Available', 'Progressing')(c) || replicaFailure(c),
  },
  'apps/ReplicaSet': { subject: 'replicaset-condition', problem: replicaFailure, checks: ownerCheck },
  'autoscaling/HorizontalPodAutoscaler': {
    subject: 'hpa-condition',
    problem: (c) =>
      isFalse('AbleToScale', 'ScalingActive')(c) ||
      (c.type === 'ScalingLimited' && c.status === 'True' && c.reason === 'TooManyReplicas'),
    checks: hpaChecks,
  },
};

const CONVENTION: Rule = { subject: 'object-condition', problem: isFalse('Ready', 'Available') };

export function explainConditions(obj: ObjectLike): Finding[] {
  const rule = RULES[`${groupOf(obj.apiVersion)}/${obj.kind}`] ?? CONVENTION;
  const namespace = obj.metadata?.namespace;
  return conditionsOf(obj)
    .filter(rule.problem)
    .map((c) => {
      const checks = [...messageChecks(c.message, namespace), ...(rule.checks?.(obj, c) ?? [])];
      return finding('condition', c.type, findGuidance(rule.subject, c.type, c.status), 'warning', {
        ...(c.reason ? { conditionReason: c.reason } : {}),
        ...(c.message ? { message: c.message } : {}),
        ...(checks.length > 0 ? { checks } : {}),
      });
    });
}
