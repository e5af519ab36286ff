import { z } from 'zod';
import { defineOperation } from './define';
import { sinceParam, untilParam } from './events-query';
import { clusterParams } from './object-reads';
import { namespaceParam, objectNameParam } from './params';

/**
 * Usage over time (issue 27 §2): the CPU and memory samples Skiff records from metrics.k8s.io for
 * recorded clusters (`--usage-interval`, default every 30 s; kept 7 days; after 24 h merged into
 * 5-minute points), for one pod or one node, with what the charts draw beside them: a pod's
 * requests and limits and its OOM kills, a node's capacity and allocatable. An opened snapshot
 * answers from its own file, as of its takenAt. Nothing recorded is 200 with no points.
 */

export const usageFigures = z
  .strictObject({
    cpuMillicores: z.number().min(0).meta({ description: 'CPU in millicores (1000 = one core).' }),
    memoryBytes: z.number().int().min(0).meta({ description: 'Memory (working set) in bytes.' }),
  })
  .meta({ id: 'UsageFigures' });
export type UsageFigures = z.infer<typeof usageFigures>;

export const usagePoint = z
  .strictObject({
    time: z
      .string()
      .meta({ description: 'When the sample was taken (RFC 3339), or a merged point’s bucket start.' }),
    containers: z.record(z.string(), usageFigures).meta({
      description:
        'By container name; a node’s one entry is named after the node. A point older than 24 h covers 5 minutes: CPU is its mean, memory its maximum.',
    }),
  })
  .meta({ id: 'UsagePoint' });
export type UsagePoint = z.infer<typeof usagePoint>;

const partialFigures = z
  .strictObject({
    cpuMillicores: z.number().min(0).optional(),
    memoryBytes: z.number().min(0).optional(),
  })
  .meta({ id: 'UsageBound', description: 'Absent figures are not set.' });

export const containerBounds = z
  .strictObject({
    name: z.string(),
    requests: partialFigures,
    limits: partialFigures,
  })
  .meta({ id: 'ContainerBounds' });

const SINCE_UNTIL = {
  since: sinceParam,
  until: untilParam,
};

export const podUsage = z
  .strictObject({
    points: z.array(usagePoint).meta({ description: 'Oldest first, within [since, until].' }),
    containers: z.array(containerBounds).meta({
      description:
        'Each container’s requests and limits, from the pod as the cluster has it now, else from the last whole copy the change history recorded of it; empty when neither is known.',
    }),
    oomKills: z.array(z.strictObject({ container: z.string(), time: z.string() })).meta({
      description:
        'When a container was OOMKilled within [since, until]: from the pod’s containerStatuses (state and lastState) and the kept logs of its dead containers. Oldest first, each at most once.',
    }),
  })
  .meta({ id: 'PodUsage' });
export type PodUsage = z.infer<typeof podUsage>;

export const nodeUsage = z
  .strictObject({
    points: z.array(usagePoint).meta({ description: 'Oldest first, within [since, until].' }),
    capacity: partialFigures
      .optional()
      .meta({ description: 'The node’s status.capacity, when it is known.' }),
    allocatable: partialFigures
      .optional()
      .meta({ description: 'The node’s status.allocatable: what pods may request in all.' }),
  })
  .meta({ id: 'NodeUsage' });
export type NodeUsage = z.infer<typeof nodeUsage>;

const USAGE = '/v1/workspaces/:workspaceId/observability/:clusterId/usage';

const read = { method: 'GET', auth: 'credential', body: z.undefined(), paginated: false } as const;

export const usageOperations = {
  getPodUsage: defineOperation({
    ...read,
    path: `${USAGE}/namespaces/:namespace/pod/:resourceName`,
    summary:
      'A pod’s recorded CPU and memory per container within [since, until] (default the last hour), with its containers’ requests and limits and its OOM kills. With `--authorize rbac` it needs `get pods` in the namespace.',
    params: z.strictObject({ ...clusterParams, namespace: namespaceParam, resourceName: objectNameParam }),
    query: z.strictObject(SINCE_UNTIL),
    result: podUsage,
  }),
  getNodeUsage: defineOperation({
    ...read,
    path: `${USAGE}/node/:resourceName`,
    summary:
      'A node’s recorded CPU and memory within [since, until] (default the last hour), with its capacity and allocatable. With `--authorize rbac` it needs `get nodes`.',
    params: z.strictObject({ ...clusterParams, resourceName: objectNameParam }),
    query: z.strictObject(SINCE_UNTIL),
    result: nodeUsage,
  }),
} as const;
