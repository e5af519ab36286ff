import { z } from 'zod';
import { defineOperation } from './define';
import { idParam, namespaceParam } from './params';

/**
 * The path parameters of every operation on one cluster, and the pair of reads a view of one object
 * (its relations, its explanation) is served by: `{base}/{resourceType}/{name}`, which finds a
 * namespaced kind's object across namespaces, and `{base}/namespaces/{ns}/{resourceType}/{name}`.
 * Rules: the operations built here are exactly what each view would write by hand (same parameter
 * order, no query, no body, one unpaged result), so the API document does not change by using them;
 * the view chooses the resourceType and name schemas, and says what each read answers.
 */

export const clusterParams = { workspaceId: idParam('workspaceId'), clusterId: idParam('clusterId') };

export function objectReads<
  R extends z.ZodType,
  T extends z.ZodType,
  NT extends z.ZodType,
  N extends z.ZodType,
>(spec: {
  /** The view's collection path, e.g. `/v1/workspaces/:workspaceId/observability/:clusterId/relations`. */
  base: string;
  result: R;
  /** The resourceType of the read across namespaces, and of the read in one namespace. */
  resourceType: T;
  namespacedResourceType: NT;
  resourceName: N;
  summary: string;
  namespacedSummary: string;
}) {
  const read = { method: 'GET', auth: 'credential', body: z.undefined(), paginated: false } as const;
  return {
    anywhere: defineOperation({
      ...read,
      path: `${spec.base}/:resourceType/:resourceName`,
      summary: spec.summary,
      params: z.strictObject({
        ...clusterParams,
        resourceType: spec.resourceType,
        resourceName: spec.resourceName,
      }),
      query: z.strictObject({}),
      result: spec.result,
    }),
    namespaced: defineOperation({
      ...read,
      path: `${spec.base}/namespaces/:namespace/:resourceType/:resourceName`,
      summary: spec.namespacedSummary,
      params: z.strictObject({
        ...clusterParams,
        namespace: namespaceParam,
        resourceType: spec.namespacedResourceType,
        resourceName: spec.resourceName,
      }),
      query: z.strictObject({}),
      result: spec.result,
    }),
  };
}
