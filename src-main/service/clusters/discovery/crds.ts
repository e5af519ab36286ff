/**
 * What the discovery keeps of each CustomResourceDefinition: its group and plural, and per version
 * the additionalPrinterColumns kubectl prints (name, type, jsonPath, priority, description). A
 * column that is not of that shape is skipped, never the CRD; a CRD with no group or plural is
 * unreadable (the cache skips it and logs why). Also what is kept of an APIService: only enough to
 * tell that it changed.
 */

import { z } from 'zod';
import type { KubeObject } from '../../../../src-shared/contract/models';
import type { Keyed } from '../../cache/collection';

export interface PrinterColumn {
  readonly name: string;
  readonly type: string;
  readonly jsonPath: string;
  readonly priority: number;
  readonly description?: string;
}

export interface CrdEntry extends Keyed {
  readonly group: string;
  readonly plural: string;
  /** Version name → its printer columns (empty when it declares none). */
  readonly columns: ReadonlyMap<string, readonly PrinterColumn[]>;
  readonly fingerprint: string;
}

const columnSchema = z.object({
  name: z.string().min(1),
  type: z.string().min(1),
  jsonPath: z.string().min(1),
  priority: z.number().int().optional(),
  description: z.string().optional(),
});

const crdSchema = z.object({
  metadata: z.object({ name: z.string().min(1) }),
  spec: z.object({
    group: z.string().min(1),
    names: z.object({ plural: z.string().min(1) }),
    versions: z.array(
      z.object({ name: z.string().min(1), additionalPrinterColumns: z.array(z.unknown()).optional() }),
    ),
  }),
});

export function crdEntry(obj: KubeObject): CrdEntry {
  const crd = crdSchema.parse(obj);
  const columns = new Map<string, PrinterColumn[]>();
  for (const v of crd.spec.versions) {
    const list: PrinterColumn[] = [];
    for (const raw of v.additionalPrinterColumns ?? []) {
      const c = columnSchema.safeParse(raw);
      if (!c.success) continue;
      const { name, type, jsonPath, priority, description } = c.data;
      list.push({ name, type, jsonPath, priority: priority ?? 0, ...(description ? { description } : {}) });
    }
    columns.set(v.name, list);
  }
  return {
    key: crd.metadata.name,
    group: crd.spec.group,
    plural: crd.spec.names.plural,
    columns,
    fingerprint: JSON.stringify([crd.spec.group, crd.spec.names.plural, [...columns]]),
  };
}

/** The CRDs by `group/plural`, for columnsOf. */
export function crdIndex(crds: readonly CrdEntry[]): ReadonlyMap<string, CrdEntry> {
  return new Map(crds.map((c) => [`${c.group}/${c.plural}`, c]));
}

/** The printer columns of a kind at a version, when a CRD defines that kind; else undefined. */
export function columnsOf(
  index: ReadonlyMap<string, CrdEntry>,
  group: string,
  plural: string,
  version: string,
): readonly PrinterColumn[] | undefined {
  const crd = index.get(`${group}/${plural}`);
  return crd ? (crd.columns.get(version) ?? []) : undefined;
}

export interface ApiServiceEntry extends Keyed {
  readonly fingerprint: string;
}

/** An APIService as far as discovery cares: its spec and status, so a change of either is seen. */
export function apiServiceEntry(obj: KubeObject): ApiServiceEntry {
  return {
    key: obj.metadata.name,
    fingerprint: JSON.stringify([obj.spec ?? null, obj.status ?? null]),
  };
}
