/**
 * Request filters: labelSelector (parsed by the shared parser so UI and simulator agree on
 * the grammar) and fieldSelector (the apiserver's small equality-only grammar over a fixed set
 * of field labels per resource).
 */

import { matchesSelector, parseSelector, type Selector } from '../../../src-shared/kube/selector';
import type { ResourceDef } from './resources';
import type { KubeObject } from './types';

interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

export interface Filter {
  labels: Selector;
  fields: FieldRequirement[];
  /** True when nothing narrows the list (remainingItemCount is only reported then). */
  empty: boolean;
}

type FilterResult = { ok: true; filter: Filter } | { ok: false; message: string };

export function buildFilter(
  def: ResourceDef,
  labelSelector?: string | null,
  fieldSelector?: string | null,
): FilterResult {
  let labels: Selector = [];
  if (labelSelector) {
    const parsed = parseSelector(labelSelector);
    if (!parsed.ok) {
      return {
        ok: false,
        message: `unable to parse requirement: "${parsed.requirement}": ${parsed.message}`,
      };
    }
    labels = parsed.selector;
  }
  let fields: FieldRequirement[] = [];
  if (fieldSelector) {
    const parsed = parseFieldSelector(fieldSelector);
    if (!parsed.ok) return parsed;
    for (const req of parsed.requirements) {
      if (!isSupportedField(def, req.field))
        return { ok: false, message: `field label not supported: ${req.field}` };
    }
    fields = parsed.requirements;
  }
  return { ok: true, filter: { labels, fields, empty: labels.length === 0 && fields.length === 0 } };
}

function isSupportedField(def: ResourceDef, field: string): boolean {
  if (field === 'metadata.name') return true;
  if (field === 'metadata.namespace') return def.namespaced;
  return def.fieldLabels.includes(field);
}

type FieldParse = { ok: true; requirements: FieldRequirement[] } | { ok: false; message: string };

export function parseFieldSelector(input: string): FieldParse {
  const requirements: FieldRequirement[] = [];
  for (const term of splitUnescaped(input, ',')) {
    if (term.trim() === '') continue;
    const m = /^(.*?)(!=|==|=)(.*)$/s.exec(findOperator(term));
    if (!m) return { ok: false, message: `invalid selector: '${input}'; can't understand '${term}'` };
    const opIndex = m[1]?.length ?? 0;
    const field = term.slice(0, opIndex).trim();
    const op = m[2] === '!=' ? '!=' : '=';
    const value = unescapeValue(term.slice(opIndex + (m[2]?.length ?? 0)));
    if (field === '')
      return { ok: false, message: `invalid selector: '${input}'; can't understand '${term}'` };
    requirements.push({ field, op, value });
  }
  return { ok: true, requirements };
}

/** Masks escaped characters so the operator search only sees real ones. */
function findOperator(term: string): string {
  return term.replace(/\\./g, '__');
}

function splitUnescaped(input: string, sep: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < input.length; i++) {
    const c = input[i] as string;
    if (c === '\\' && i + 1 < input.length) {
      current += c + input[i + 1];
      i++;
    } else if (c === sep) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

function unescapeValue(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

/** The value the apiserver's field set would hold for a field label ("" when absent). */
export function fieldValue(obj: KubeObject, field: string): string {
  // events.k8s.io/v1 field labels, evaluated against the stored core/v1 event.
  if (field.startsWith('regarding.')) return fieldValue(obj, `involvedObject.${field.slice(10)}`);
  if (field === 'reportingController') return fieldValue(obj, 'reportingComponent');
  if (field === 'source' && obj.kind === 'Event') return String(readPath(obj, 'source.component') ?? '');
  if (field === 'reportingComponent' && obj.kind === 'Event') return String(obj.reportingComponent ?? '');
  const v = readPath(obj, field);
  if (v === undefined || v === null) return field === 'spec.unschedulable' ? 'false' : '';
  return typeof v === 'object' ? '' : String(v);
}

function readPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export function matches(filter: Filter, obj: KubeObject): boolean {
  if (filter.empty) return true;
  if (filter.labels.length > 0 && !matchesSelector(filter.labels, obj.metadata.labels)) return false;
  for (const req of filter.fields) {
    const equal = fieldValue(obj, req.field) === req.value;
    if (equal !== (req.op === '=')) return false;
  }
  return true;
}
