import { z } from 'zod';
import type { GuidanceEntry } from '../guidance/types';

/**
 * The knowledge base's entry as the API answers it. The entries and their types live in
 * src-shared/guidance (plain data the renderer also reads offline); this schema describes the same
 * shape for the API document and the tests, and the assertion below keeps the two equal.
 */

const fieldPaths = [
  'spec.containers[].image',
  'spec.containers[].imagePullPolicy',
  'spec.containers[].command',
  'spec.containers[].args',
  'spec.containers[].env',
  'spec.containers[].envFrom',
  'spec.containers[].ports',
  'spec.containers[].securityContext',
  'spec.containers[].lifecycle',
  'spec.initContainers',
  'spec.imagePullSecrets',
  'spec.serviceAccountName',
  'spec.nodeName',
  'spec.nodeSelector',
  'spec.affinity',
  'spec.tolerations',
  'spec.topologySpreadConstraints',
  'spec.priorityClassName',
  'spec.schedulingGates',
  'spec.readinessGates',
  'spec.securityContext',
  'spec.restartPolicy',
  'spec.terminationGracePeriodSeconds',
  'spec.activeDeadlineSeconds',
  'status.message',
  'status.qosClass',
  'spec.taints',
  'spec.unschedulable',
  'status.nodeInfo',
  'spec.replicas',
  'spec.strategy',
  'spec.progressDeadlineSeconds',
  'spec.backoffLimit',
  'spec.podFailurePolicy',
  'spec.schedule',
  'spec.startingDeadlineSeconds',
  'spec.concurrencyPolicy',
] as const;

const simpleActions = [
  'open-events',
  'open-owner',
  'open-node',
  'open-node-allocatable',
  'open-pods',
  'open-nodes',
  'show-conditions',
  'show-probes',
  'show-volumes',
  'show-resources',
] as const;

const guidanceAction = z
  .union([
    z.strictObject({ kind: z.literal('open-logs'), previous: z.boolean() }),
    z.strictObject({ kind: z.literal('show-field'), path: z.enum(fieldPaths) }),
    ...simpleActions.map((kind) => z.strictObject({ kind: z.literal(kind) })),
  ])
  .meta({ id: 'GuidanceAction', description: 'Data inside Skiff that answers a check’s question.' });

/** What an entry explains; also the `subject` filter of the guidance operations. */
export const guidanceSubject = z.enum([
  'pod-phase',
  'container-waiting',
  'container-terminated',
  'node-condition',
  'deployment-condition',
  'pod-condition',
  'event-reason',
  'exit-code',
  'pvc-status',
  'ingress-status',
  'hpa-condition',
  'replicaset-condition',
  'object-condition',
]);

/** The object a check step is about, so a client can link to it (set by explanations, never by entries). */
export const guidanceRef = z
  .strictObject({
    resourceType: z.string().meta({
      description: 'Canonical lower-case singular, e.g. `configmap` or `certificate.cert-manager.io`.',
    }),
    namespace: z.string().optional().meta({ description: 'Absent for a cluster-scoped kind.' }),
    name: z.string(),
    missing: z.boolean().optional().meta({
      description: 'True when the object was looked up and does not exist.',
    }),
  })
  .meta({ id: 'GuidanceRef' });

export const guidanceCheck = z
  .strictObject({ text: z.string(), action: guidanceAction.optional(), ref: guidanceRef.optional() })
  .meta({ id: 'GuidanceCheck' });

export const guidanceEntry = z
  .strictObject({
    id: z.string().meta({ description: 'Stable, unique.' }),
    subject: guidanceSubject,
    match: z.string().meta({
      description: 'The phase, reason, condition type or exit code this entry explains (exact API spelling).',
    }),
    status: z.enum(['True', 'False', 'Unknown']).optional(),
    aliases: z.array(z.string()).readonly().optional(),
    title: z.string(),
    severity: z.enum(['info', 'warning', 'error']),
    meaning: z.string(),
    causes: z.array(z.string()),
    checks: z.array(guidanceCheck),
  })
  .meta({ id: 'GuidanceEntry' });

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Fails to compile when the schema and src-shared/guidance/types.ts disagree. */
const sameShape: Same<z.infer<typeof guidanceEntry>, GuidanceEntry> = true;
void sameShape;
