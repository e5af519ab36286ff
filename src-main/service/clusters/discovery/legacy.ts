/**
 * Reads the legacy discovery documents, what every apiserver answers and the only ones before 1.26
 * (or with aggregated discovery turned off): /api (APIVersions), /apis (APIGroupList) and one
 * APIResourceList per group version. Each group is read at its preferred version, as kubectl reads
 * it. `pods/log`-style entries are subresources, never resources. An entry or a group that is not
 * of the documented shape is skipped, never the document.
 */

import { z } from 'zod';
import type { ServedResource } from './model';

const versionsSchema = z.object({ kind: z.literal('APIVersions'), versions: z.array(z.string().min(1)) });

const groupListSchema = z.object({
  kind: z.literal('APIGroupList'),
  groups: z.array(z.unknown()),
});

const groupSchema = z.object({
  name: z.string().min(1),
  versions: z.array(z.object({ version: z.string().min(1) })),
  preferredVersion: z.object({ version: z.string().min(1) }).optional(),
});

const resourceListSchema = z.object({ resources: z.array(z.unknown()) });

const resourceSchema = z.object({
  name: z.string().min(1),
  singularName: z.string().optional(),
  namespaced: z.boolean(),
  kind: z.string().min(1),
  verbs: z.array(z.string()),
  shortNames: z.array(z.string()).optional(),
  categories: z.array(z.string()).optional(),
});

/** The core group's preferred version from /api; undefined when the document is not APIVersions. */
export function coreVersion(doc: unknown): string | undefined {
  const parsed = versionsSchema.safeParse(doc);
  return parsed.success ? parsed.data.versions[0] : undefined;
}

/** Each named group of /apis with its preferred version (the first listed when none is named). */
export function preferredGroupVersions(doc: unknown): { group: string; version: string }[] | undefined {
  const parsed = groupListSchema.safeParse(doc);
  if (!parsed.success) return undefined;
  const out: { group: string; version: string }[] = [];
  for (const raw of parsed.data.groups) {
    const g = groupSchema.safeParse(raw);
    if (!g.success) continue;
    const version = g.data.preferredVersion?.version ?? g.data.versions[0]?.version;
    if (version) out.push({ group: g.data.name, version });
  }
  return out;
}

/** The resources of one group version's APIResourceList, subresources left out. */
export function parseResourceList(
  doc: unknown,
  group: string,
  version: string,
): ServedResource[] | undefined {
  const parsed = resourceListSchema.safeParse(doc);
  if (!parsed.success) return undefined;
  const out: ServedResource[] = [];
  for (const raw of parsed.data.resources) {
    const r = resourceSchema.safeParse(raw);
    if (!r.success || r.data.name.includes('/')) continue;
    out.push({
      group,
      version,
      resource: r.data.name,
      singular: r.data.singularName || r.data.kind.toLowerCase(),
      kind: r.data.kind,
      namespaced: r.data.namespaced,
      verbs: r.data.verbs,
      shortNames: r.data.shortNames ?? [],
      categories: r.data.categories ?? [],
    });
  }
  return out;
}
