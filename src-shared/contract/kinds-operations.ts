import { z } from 'zod';
import { defineOperation } from './define';
import { clusterParams } from './object-reads';
import { pageQuery } from './params';

/**
 * The kinds a cluster serves, as `kubectl api-resources` shows them: what discovery reads, for the
 * tree, the palette and scripts. Only kinds that can be listed and watched; no subresources.
 */

export const printerColumn = z
  .strictObject({
    name: z.string(),
    type: z
      .string()
      .meta({ description: 'integer, number, string, boolean or date, as the CRD declares it.' }),
    jsonPath: z.string(),
    priority: z.number().int().meta({ description: '0 is shown by default; higher only in a wide view.' }),
    description: z.string().optional(),
  })
  .meta({ id: 'PrinterColumn' });

export const servedKind = z
  .strictObject({
    resourceType: z.string().meta({
      description:
        'The lower-case singular, e.g. `configmap`; `singular.group` (e.g. `event.events.k8s.io`) where another served group has the same singular. The core group never is qualified.',
    }),
    plural: z.string().meta({ description: 'The resource name in URLs (NAME in kubectl api-resources).' }),
    kind: z.string(),
    group: z.string().meta({ description: 'Empty for the core group.' }),
    version: z.string().meta({ description: 'The group’s preferred version, the one served here.' }),
    namespaced: z.boolean(),
    shortNames: z.array(z.string()),
    categories: z.array(z.string()),
    verbs: z.array(z.string()),
    columns: z.array(printerColumn).optional().meta({
      description:
        'For a kind a CustomResourceDefinition defines: its additionalPrinterColumns at this version (empty when it declares none). Absent for built-in and aggregated kinds.',
    }),
  })
  .meta({ id: 'ServedKind' });
export type ServedKind = z.infer<typeof servedKind>;

export const kindsOperations = {
  listKinds: defineOperation({
    method: 'GET',
    path: '/v1/workspaces/:workspaceId/observability/:clusterId/kinds',
    summary:
      'The kinds the cluster serves that can be listed and watched, from its discovery, ordered by resourceType; group versions that could not be read are named in x-Discovery-Gaps.',
    auth: 'credential',
    params: z.strictObject(clusterParams),
    query: z.strictObject({ ...pageQuery }),
    body: z.undefined(),
    result: z.array(servedKind),
    paginated: true,
  }),
} as const;
