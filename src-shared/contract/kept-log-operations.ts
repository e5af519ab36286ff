import { z } from 'zod';
import { isDnsLabel } from '../kube/names';
import { defineOperation, streamBody } from './define';
import { LOG_MEDIA_TYPES, logRecord, NDJSON } from './log-models';
import { logQuery } from './log-operations';
import { documented, idParam, namespaceParam, resourceNameParam } from './params';

/**
 * The logs Skiff kept of a pod's dead containers (issue 27 §3), beside the live log endpoint:
 * `GET …/kubernetes-proxy/namespaces/{ns}/pod/{name}/kept-logs` lists the kept runs, and
 * `…/kept-logs/{container}/{restartCount}` answers one run's lines in the live endpoint's media
 * types, with its filters. Both answer after the pod is gone. Documented in docs/api.md.
 */

const POD =
  '/v1/workspaces/:workspaceId/observability/:clusterId/kubernetes-proxy/namespaces/:namespace/pod/:resourceName';

export const keptRun = z
  .strictObject({
    container: z.string(),
    restartCount: z.number().int().min(0).meta({
      description: "The container's restartCount while this run ran: 0 for its first run.",
    }),
    podUid: z.string().meta({
      description:
        'The uid of the pod the run belonged to (a pod recreated under the same name has another).',
    }),
    finishedAt: z.string().meta({
      description: 'RFC 3339: when the run ended, as the kubelet reported it (else when Skiff saw it end).',
    }),
    exitCode: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'null when the end was not seen (reason Deleted).' }),
    reason: z.string().meta({
      description:
        "The kubelet's reason (Error, OOMKilled, Completed...), or Deleted for a run whose pod was deleted while it ran.",
    }),
    lines: z.number().int().min(0).meta({ description: 'How many lines are kept of it.' }),
  })
  .meta({ id: 'KeptRun', description: 'One ended run of a container whose last lines Skiff kept.' });
export type KeptRunRecord = z.infer<typeof keptRun>;

const containerParam = z
  .string()
  .refine(isDnsLabel, { message: 'container must be a DNS-1123 label' })
  .meta({ pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 });

const restartCountParam = documented(
  z.string().transform((raw, ctx) => {
    if (!/^\d{1,9}$/.test(raw)) {
      ctx.addIssue({ code: 'custom', message: 'restartCount must be a whole number from 0 to 999999999' });
      return z.NEVER;
    }
    return Number(raw);
  }),
  { type: 'integer', minimum: 0, maximum: 999_999_999 },
);

const podUidParam = documented(
  z
    .string()
    .optional()
    .refine((v) => v === undefined || /^[A-Za-z0-9-]{1,64}$/.test(v), {
      message: 'podUid must be a pod uid (letters, digits and -)',
    }),
  {
    type: 'string',
    description: 'Which pod of that name, when it was recreated (default: the run that ended last).',
  },
);

const podParams = {
  workspaceId: idParam('workspaceId'),
  clusterId: idParam('clusterId'),
  namespace: namespaceParam,
  resourceName: resourceNameParam,
};

export const keptLogOperations = {
  listKeptLogs: defineOperation({
    method: 'GET',
    path: `${POD}/kept-logs`,
    summary:
      "The ended runs of a pod's containers whose last lines Skiff kept, newest end first; answered after the pod is gone too.",
    auth: 'credential',
    params: z.strictObject(podParams),
    query: z.strictObject({}),
    body: z.undefined(),
    result: z.array(keptRun),
    paginated: false,
  }),

  getKeptLog: defineOperation({
    method: 'GET',
    path: `${POD}/kept-logs/:container/:restartCount`,
    summary:
      'The kept lines of one ended run of a container: text/plain or application/x-ndjson, with the live log filters.',
    auth: 'credential',
    params: z.strictObject({ ...podParams, container: containerParam, restartCount: restartCountParam }),
    query: logQuery
      .pick({
        timestamps: true,
        tailLines: true,
        level: true,
        search: true,
        ignoreCase: true,
        context: true,
        fields: true,
      })
      .extend({ podUid: podUidParam }),
    body: z.undefined(),
    result: streamBody(),
    paginated: false,
    streaming: true,
    produces: LOG_MEDIA_TYPES,
    records: { [NDJSON]: logRecord },
  }),
} as const;
