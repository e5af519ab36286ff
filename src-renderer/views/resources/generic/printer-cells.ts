import { age, time } from '../../../kube/format';
import { compileJsonPath, evaluateSteps, type Step } from '../../../kube/jsonpath';
import type { PrinterColumn } from '../../../kube/kind-catalog';

/**
 * A CRD's printer columns as list cells, the way kubectl prints them: the first value the
 * jsonPath finds, formatted by the column's declared type (a date as an age, an integer only when
 * it is one). Columns of priority above 0 are for the wide view only; Name, Namespace and the
 * creation-time Age repeat columns every list has, so they are left out. A path that cannot be
 * read leaves its cells empty and says why in the header's tooltip.
 */

export interface CompiledColumn {
  /** `pc:<position>`: unique, and never one of the shared column ids (name, status, age…). */
  id: string;
  column: PrinterColumn;
  steps: Step[] | null;
  /** Why the path cannot be read, when it cannot. */
  error?: string;
}

export interface Cell {
  text: string;
  /** What the column sorts by: a time for dates, a number for numbers, else the text. */
  sort: string | number;
}

const CREATION = /^\s*\{?\s*\$?\.metadata\.creationTimestamp\s*\}?\s*$/;
const SHARED = new Set(['name', 'namespace']);
const MAX_TEXT = 200;

/** Whether a printer column shows what every list already has. */
export function repeatsShared(c: PrinterColumn): boolean {
  return SHARED.has(c.name.toLowerCase()) || CREATION.test(c.jsonPath);
}

export function compileColumns(columns: readonly PrinterColumn[] | undefined): CompiledColumn[] {
  return (columns ?? []).flatMap((column, i) => {
    if (column.priority > 0 || repeatsShared(column)) return [];
    const compiled = compileJsonPath(column.jsonPath);
    return [
      compiled.ok
        ? { id: `pc:${i}`, column, steps: compiled.steps }
        : { id: `pc:${i}`, column, steps: null, error: compiled.error },
    ];
  });
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  // Numbers and booleans read the same as JSON.
  const json = JSON.stringify(value);
  return json.length > MAX_TEXT ? `${json.slice(0, MAX_TEXT - 1)}…` : json;
}

const EMPTY: Cell = { text: '', sort: '' };

export function cellOf(c: CompiledColumn, obj: unknown, now: number = Date.now()): Cell {
  if (!c.steps) return EMPTY;
  const [value] = evaluateSteps(c.steps, obj);
  if (value === undefined || value === null) return EMPTY;
  switch (c.column.type) {
    case 'date':
      return typeof value === 'string' && time(value) !== 0
        ? { text: age(value, now), sort: -time(value) }
        : { text: text(value), sort: text(value) };
    case 'integer':
      return Number.isInteger(value) ? { text: String(value), sort: value as number } : EMPTY;
    case 'number':
      return typeof value === 'number' ? { text: String(value), sort: value } : EMPTY;
    case 'boolean':
      return typeof value === 'boolean' ? { text: String(value), sort: String(value) } : EMPTY;
    default:
      return { text: text(value), sort: text(value) };
  }
}
