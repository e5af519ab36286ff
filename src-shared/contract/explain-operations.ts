import { z } from 'zod';
import type { Finding } from '../guidance/findings';
import { guidanceCheck, guidanceEntry } from './guidance-models';
import { objectReads } from './object-reads';
import { anyResourceType, namespacedResourceType, objectNameParam } from './params';

/**
 * "Why is this object broken", for any kind the cluster serves: the findings of
 * src-shared/guidance/explain-object.ts (the kind's own explainer, its Warning events, every object
 * a step names looked up), computed by the service from its watch caches, never a cluster read per
 * request. The finding schema describes src-shared/guidance/findings.ts; the assertion below keeps
 * the two equal.
 */

const schedulingReason = z.strictObject({
  count: z.number().int(),
  reason: z.string(),
  hint: z.string().optional(),
});

const finding = z
  .strictObject({
    source: z
      .enum([
        'phase',
        'pod-reason',
        'waiting',
        'terminated',
        'last-terminated',
        'condition',
        'status',
        'event',
      ])
      .meta({
        description:
          'Where the reason was found: a pod’s phase, status.reason or container states; a condition; `status`, what spec and status say together (a claim whose StorageClass does not exist, an Ingress without address); `event`, a Warning event about the object.',
      }),
    container: z.string().optional(),
    initContainer: z.boolean().optional(),
    reason: z.string().meta({
      description:
        'The raw phase, reason, condition type or event reason; for `status`, the conclusion (StorageClassNotFound, NoStorageClass, WaitForFirstConsumer, NoAddress, ServiceNotFound).',
    }),
    conditionReason: z
      .string()
      .optional()
      .meta({ description: 'A condition’s own reason, e.g. DoesNotExist.' }),
    message: z.string().optional().meta({ description: 'The object’s or the event’s own words.' }),
    severity: z.enum(['info', 'warning', 'error']),
    guidance: guidanceEntry.optional().meta({
      description:
        'The knowledge-base entry explaining it. Absent for a reason it does not know, and for a custom resource’s event reasons (its controller’s own vocabulary).',
    }),
    exitCode: guidanceEntry
      .extend({
        code: z.number().int(),
        signal: z.number().int().optional(),
        signalName: z.string().optional(),
      })
      .optional(),
    scheduling: z
      .strictObject({
        available: z.number().int(),
        total: z.number().int(),
        reasons: z.array(schedulingReason),
        preemption: z
          .strictObject({
            message: z.string(),
            available: z.number().int().optional(),
            total: z.number().int().optional(),
            reasons: z.array(schedulingReason),
          })
          .optional(),
      })
      .optional(),
    checks: z.array(guidanceCheck).optional().meta({
      description:
        'Steps about this very object, before the entry’s generic ones. Each `ref` names the object it points at; `ref.missing` is true when that object does not exist.',
    }),
  })
  .meta({ id: 'Finding' });

export const explanation = z
  .strictObject({
    object: z.strictObject({
      resourceType: z.string().meta({ description: 'The canonical resourceType of the object’s kind.' }),
      namespace: z.string().optional(),
      name: z.string(),
      uid: z.string().optional(),
    }),
    findings: z.array(finding).meta({
      description:
        'In reading order: the kind’s own findings (a pod’s phase, containers and conditions; a claim’s phase and cause; an Ingress’s address and backends; other kinds’ failing conditions), then the newest Warning event of each reason not already told, at most 10. Empty when nothing is wrong.',
    }),
  })
  .meta({ id: 'Explanation' });
export type Explanation = z.infer<typeof explanation>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Fails to compile when the schema and src-shared/guidance/findings.ts disagree. */
const sameShape: Same<z.infer<typeof finding>, Finding> = true;
void sameShape;

const explanationReads = objectReads({
  base: '/v1/workspaces/:workspaceId/observability/:clusterId/explanations',
  result: explanation,
  resourceType: anyResourceType(),
  namespacedResourceType: namespacedResourceType(),
  resourceName: objectNameParam,
  summary:
    'Why an object of any kind is broken: findings with their explanations and the objects to look at next. A namespaced kind’s name is looked up across namespaces (409 when several hold it), as endpoint 2 does.',
  namespacedSummary: 'Why a namespaced object of any kind is broken (see explainResource).',
});

export const explainOperations = {
  explainResource: explanationReads.anywhere,
  explainNamespacedResource: explanationReads.namespaced,
} as const;
