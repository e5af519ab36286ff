import { z } from 'zod';
import { changeRef, changeType, jsonPatchOperation } from './change-operations';
import { defineOperation } from './define';
import { clusterParams } from './object-reads';
import {
  anyResourceType,
  checkNameForKind,
  documented,
  namespacedResourceType,
  namespaceParam,
  objectNameParam,
} from './params';

/**
 * "What changed before it started failing" (issue 27 §4): for a failing object, when its failure
 * started (the onset), what says it is failing (signals), the recorded changes among the objects
 * related to it in the window before the onset, ranked, and the first failed run's kept logs.
 * Rules: the answer is one unpaged object (the changes are bounded, see MAX_CHANGES); an object
 * that is not failing is a 200 with `onset: null` and a signal saying why, never an error; the
 * window is a duration only (it counts back from the onset, not from now).
 */

/** The most changes one diagnosis lists: the ranking puts the likeliest causes first. */
export const MAX_DIAGNOSIS_CHANGES = 50;
/** The window's default and bounds (the change history's retention is days, not weeks). */
export const DEFAULT_WINDOW_MS = 30 * 60_000;
export const MAX_WINDOW_MS = 7 * 86_400_000;

const WINDOW = /^(\d{1,9})(s|m|h|d)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `window`: a duration (30s, 30m, 2h, 1d) of at least 1 s and at most 7 d; default 30m. */
export const windowParam = documented(
  z
    .string()
    .optional()
    .transform((raw, ctx): number => {
      if (raw === undefined) return DEFAULT_WINDOW_MS;
      const m = WINDOW.exec(raw);
      const ms = m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : Number.NaN;
      if (ms >= 1_000 && ms <= MAX_WINDOW_MS) return ms;
      ctx.addIssue({
        code: 'custom',
        message: 'window must be a duration such as 30s, 30m, 2h or 1d, from 1s to 7d',
      });
      return z.NEVER;
    }),
  {
    type: 'string',
    description:
      'How far before the onset changes are looked for: a duration (30s, 30m, 2h, 1d) from 1s to 7d. Default 30m.',
    examples: ['30m', '2h'],
  },
);

export const diagnosisRef = z
  .strictObject({
    kind: z.string().meta({ description: 'The object’s Kind, e.g. `Deployment`.' }),
    resourceType: z.string().meta({ description: 'The kind as `GET …/kinds` names it.' }),
    namespace: z.string().optional().meta({ description: 'Absent for a cluster-scoped kind.' }),
    name: z.string(),
    uid: z.string().optional(),
  })
  .meta({ id: 'DiagnosisRef' });
export type DiagnosisRef = z.infer<typeof diagnosisRef>;

export const RELATIONS = ['self', 'owner', 'uses', 'autoscaler', 'node', 'namespace'] as const;
export type DiagnosisRelation = (typeof RELATIONS)[number];

export const diagnosisSignal = z
  .strictObject({
    type: z.string().meta({
      description:
        'What was seen: the failure (CrashLoopBackOff, ImagePullBackOff, Pending, Unschedulable, JobFailed, NodeNotReady, ProgressDeadlineExceeded, NewReplicaSetFailing, PodFailed), an onset candidate (FirstBackOff, FirstWarning, FirstRestart, ConditionTransition, Created), or NotFailing / NotDiagnosed.',
    }),
    message: z.string().meta({ description: 'In words, naming the container, condition or event.' }),
    time: z.string().optional().meta({ description: 'RFC 3339: when it was seen to start.' }),
    onset: z.literal(true).optional().meta({ description: 'This signal’s time is the onset.' }),
  })
  .meta({ id: 'DiagnosisSignal' });
export type DiagnosisSignal = z.infer<typeof diagnosisSignal>;

export const changeBefore = z
  .strictObject({
    time: z.string().meta({ description: 'RFC 3339: when Skiff recorded the change.' }),
    ref: changeRef,
    change: changeType,
    resourceVersion: z.string(),
    summary: z
      .string()
      .meta({ description: 'E.g. `image app: 1.4.1 → 1.4.2`; a Secret says only `data changed`.' }),
    patch: z.array(jsonPatchOperation).meta({
      description: 'The RFC 6902 JSON Patch from the previous recorded version (never a Secret’s values).',
    }),
    relation: z.enum(RELATIONS).meta({
      description:
        'How the changed object touches the failing one: itself, an owner (its pod template), something it uses (ConfigMap, Secret, claim, ServiceAccount), its HorizontalPodAutoscaler, its node, or its namespace’s ResourceQuota or LimitRange.',
    }),
    beforeOnsetMs: z.number().int().meta({
      description: 'How long before the onset it was recorded (negative: within the grace after it).',
    }),
  })
  .meta({ id: 'ChangeBefore' });
export type ChangeBefore = z.infer<typeof changeBefore>;

export const diagnosisKeptLog = z
  .strictObject({
    namespace: z.string(),
    pod: z.string(),
    container: z.string(),
    restartCount: z.number().int(),
    finishedAt: z.string().meta({ description: 'RFC 3339.' }),
    exitCode: z.number().int().optional(),
    reason: z.string(),
    lines: z.number().int().meta({ description: 'How many lines were kept.' }),
  })
  .meta({ id: 'DiagnosisKeptLog' });
export type DiagnosisKeptLog = z.infer<typeof diagnosisKeptLog>;

export const diagnosis = z
  .strictObject({
    object: diagnosisRef,
    onset: z.string().nullable().meta({
      description:
        'RFC 3339: when the failure started — the earliest of the first BackOff (or Warning) event, the first restart and the failing condition’s transition. null when the object is not failing (signals says why).',
    }),
    signals: z
      .array(diagnosisSignal)
      .meta({ description: 'What says the object is failing, and when each started.' }),
    window: z.strictObject({ since: z.string(), until: z.string() }).optional().meta({
      description: 'The changes looked at: recorded from `since` to `until` (the onset plus a 5 s grace).',
    }),
    changesBefore: z.array(changeBefore).meta({
      description:
        'Recorded changes of the related objects in the window, likeliest cause first (closeness to the onset times directness of the relation), at most 50.',
    }),
    related: z.number().int().meta({ description: 'How many related objects were looked at.' }),
    hidden: z.number().int().min(1).optional().meta({
      description:
        'With `--authorize rbac`: changes left out because the caller may not `get` the changed object. Absent when none.',
    }),
    keptLogs: diagnosisKeptLog.optional().meta({
      description:
        'The first failed run’s kept logs (kept-logs endpoints), when Skiff kept them and the caller may read pods/log.',
    }),
  })
  .meta({ id: 'Diagnosis' });
export type Diagnosis = z.infer<typeof diagnosis>;

const DIAGNOSIS = '/v1/workspaces/:workspaceId/observability/:clusterId/diagnosis';
const read = { method: 'GET', auth: 'credential', body: z.undefined(), paginated: false } as const;

export const diagnosisOperations = {
  getDiagnosis: defineOperation({
    ...read,
    path: `${DIAGNOSIS}/:resourceType/:resourceName`,
    summary:
      'What changed before an object started failing: its onset, signals, the ranked recorded changes of related objects in the window before the onset, and the first failed run’s kept logs. A namespaced kind named without a namespace is looked up across namespaces (409 when several hold the name).',
    params: z
      .strictObject({ ...clusterParams, resourceType: anyResourceType(), resourceName: objectNameParam })
      .superRefine(checkNameForKind),
    query: z.strictObject({ window: windowParam }),
    result: diagnosis,
  }),
  getNamespacedDiagnosis: defineOperation({
    ...read,
    path: `${DIAGNOSIS}/namespaces/:namespace/:resourceType/:resourceName`,
    summary: 'What changed before an object of a namespaced kind started failing (see getDiagnosis).',
    params: z
      .strictObject({
        ...clusterParams,
        namespace: namespaceParam,
        resourceType: namespacedResourceType(),
        resourceName: objectNameParam,
      })
      .superRefine(checkNameForKind),
    query: z.strictObject({ window: windowParam }),
    result: diagnosis,
  }),
} as const;
