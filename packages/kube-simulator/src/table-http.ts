/**
 * Server-side printing: a get or list whose Accept asks for `application/json;as=Table;
 * g=meta.k8s.io;v=v1` (what `kubectl get` sends) is answered with a meta.k8s.io Table built by
 * the kind's printer (printers.ts), each row carrying the object as `includeObject` says
 * (PartialObjectMetadata by default: kubectl reads the namespace of `-A` from it). The Table
 * keeps the list's resourceVersion, continue token and remaining count, so `--chunk-size` pages
 * as it does on an apiserver; a watch that asks (`kubectl get -w`) gets each object as a Table of
 * one row. Rules: a kind with no printer, or an Accept that does not ask,
 * gets the plain answer, which kubectl prints as NAME and AGE; nothing else changes.
 */

import type { Printer } from './printers';
import { printerFor } from './printers';
import { apiVersionOf, type ResourceDef } from './resources';
import { badRequest, type Status } from './status';
import type { KubeObject, ObjectMeta } from './types';

type IncludeObject = 'None' | 'Metadata' | 'Object';

interface TableRequest {
  printer: Printer;
  /** meta.k8s.io version the client asked for. */
  version: 'v1' | 'v1beta1';
  include: IncludeObject;
  /** The clock ages are counted to (read per answer: a watch prints for as long as it lasts). */
  now: () => number;
}

/** The meta.k8s.io Table version the Accept header asks for first, if any. */
export function tableVersion(accept: string | undefined): 'v1' | 'v1beta1' | undefined {
  for (const range of accept?.split(',') ?? []) {
    const [type, ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    if (type !== 'application/json') continue;
    if (!params.includes('as=table') || !params.includes('g=meta.k8s.io')) continue;
    if (params.includes('v=v1')) return 'v1';
    if (params.includes('v=v1beta1')) return 'v1beta1';
  }
  return undefined;
}

/**
 * What to print, when the request asks for a Table of a kind that has a printer; a Status for an
 * includeObject the apiserver refuses; undefined for a plain answer.
 */
export function tableRequest(
  def: ResourceDef,
  accept: string | undefined,
  includeObject: string | null,
  now: () => number,
): TableRequest | Status | undefined {
  const version = tableVersion(accept);
  // Only core pods and events have one (events.k8s.io's view of events is served plain).
  const printer = version && printerFor(def.group, def.resource);
  if (!version || !printer) return undefined;
  const include = includeObject || 'Metadata';
  if (include !== 'None' && include !== 'Metadata' && include !== 'Object') {
    return badRequest(
      `includeObject: Unsupported value: "${include}": supported values: "None", "Metadata", "Object"`,
    );
  }
  return { printer, version, include, now };
}

interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

function table(req: TableRequest, def: ResourceDef, meta: ListMeta, objects: KubeObject[]): string {
  const apiVersion = `meta.k8s.io/${req.version}`;
  const nowMs = req.now();
  const rows = objects.map((obj) => {
    const printed = req.printer.row(obj, nowMs);
    return {
      cells: printed.cells,
      ...(printed.conditions ? { conditions: printed.conditions } : {}),
      ...(req.include === 'None' ? {} : { object: rowObject(req.include, apiVersion, def, obj) }),
    };
  });
  return JSON.stringify({
    kind: 'Table',
    apiVersion,
    metadata: meta,
    columnDefinitions: req.printer.columns,
    rows,
  });
}

function rowObject(include: IncludeObject, apiVersion: string, def: ResourceDef, obj: KubeObject) {
  if (include === 'Object') return { ...obj, kind: def.kind, apiVersion: apiVersionOf(def) };
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: obj.metadata };
}

/** A list answer (as list.ts wrote it) as a Table. */
export function listTable(req: TableRequest, def: ResourceDef, listJson: string): string {
  const list = JSON.parse(listJson) as { metadata: ListMeta; items: KubeObject[] };
  return table(req, def, list.metadata, list.items);
}

/** One object (as a get wrote it) as a Table of one row. */
export function objectTable(req: TableRequest, def: ResourceDef, objectJson: string): string {
  const obj = JSON.parse(objectJson) as KubeObject & { metadata: ObjectMeta };
  return table(req, def, { resourceVersion: obj.metadata.resourceVersion }, [obj]);
}
