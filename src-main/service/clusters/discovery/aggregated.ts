/**
 * Reads an aggregated discovery document (apidiscovery.k8s.io/v2 APIGroupDiscoveryList, what /api
 * and /apis answer a client that asks for it). Each group's first version is its preferred one, as
 * the type promises; only that version's resources are taken, as kubectl takes them. A version the
 * apiserver marks `freshness: Stale` (an aggregated API it could not reach) is a gap, its
 * resources (the last the apiserver read) still taken. A resource entry that is not of the
 * documented shape is skipped, never the document; an entry with no responseKind serves only
 * subresources and is no resource.
 */

import { z } from 'zod';
import { type DiscoveryGap, groupVersionOf, type ServedResource } from './model';

export const AGGREGATED_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';

const names = z.array(z.string()).optional();

const resourceSchema = z.object({
  resource: z.string().min(1),
  responseKind: z.object({ kind: z.string().min(1) }).nullish(),
  scope: z.enum(['Namespaced', 'Cluster']),
  singularResource: z.string().optional(),
  verbs: z.array(z.string()),
  shortNames: names,
  categories: names,
});

const listSchema = z.object({
  kind: z.literal('APIGroupDiscoveryList'),
  items: z.array(
    z.object({
      metadata: z.object({ name: z.string().optional() }).optional(),
      versions: z
        .array(
          z.object({
            version: z.string().min(1),
            resources: z.array(z.unknown()).nullish(),
            freshness: z.string().optional(),
          }),
        )
        .nullish(),
    }),
  ),
});

export interface AggregatedRead {
  resources: ServedResource[];
  gaps: DiscoveryGap[];
}

/** The document's resources and gaps; undefined when it is not an APIGroupDiscoveryList. */
export function parseAggregated(doc: unknown): AggregatedRead | undefined {
  const parsed = listSchema.safeParse(doc);
  if (!parsed.success) return undefined;
  const out: AggregatedRead = { resources: [], gaps: [] };
  for (const item of parsed.data.items) {
    const group = item.metadata?.name ?? '';
    const preferred = item.versions?.[0];
    if (!preferred) continue;
    if (preferred.freshness === 'Stale') {
      out.gaps.push({
        groupVersion: groupVersionOf(group, preferred.version),
        message:
          'the apiserver reports this group version as stale: the aggregated API serving it is unavailable',
      });
    }
    for (const raw of preferred.resources ?? []) {
      const r = resourceSchema.safeParse(raw);
      if (!r.success || !r.data.responseKind) continue;
      const { kind } = r.data.responseKind;
      out.resources.push({
        group,
        version: preferred.version,
        resource: r.data.resource,
        singular: r.data.singularResource || kind.toLowerCase(),
        kind,
        namespaced: r.data.scope === 'Namespaced',
        verbs: r.data.verbs,
        shortNames: r.data.shortNames ?? [],
        categories: r.data.categories ?? [],
      });
    }
  }
  return out;
}
