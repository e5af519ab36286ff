import { compare, type Operation } from 'fast-json-patch';
import { stringify } from 'yaml';

/**
 * What differs between two recorded versions of one object, field by field, as a person reads a
 * change: `spec.template.spec.containers[app].image: 1.4.1 → 1.4.2`. The RFC 6902 patch between
 * them (fast-json-patch `compare`, the same diff the recorder stores) is turned into one entry per
 * changed field. Rules: pure (no React, no I/O); array elements that carry a `name` (containers,
 * env, volumes, ports) are named by it, as kubectl and the change summaries name them; the fields
 * every write moves (metadata.resourceVersion, managedFields) are left out, since the versions
 * themselves are named beside the diff; entries come in document order (metadata, spec, status),
 * array positions numerically.
 */

export type FieldChangeKind = 'added' | 'removed' | 'changed';

export interface FieldChange {
  /** The field as a person writes it: `metadata.labels["app.kubernetes.io/name"]`, `spec.containers[app].image`. */
  path: string;
  kind: FieldChangeKind;
  /** The value in the older version (removed, changed). */
  before?: unknown;
  /** The value in the newer version (added, changed). */
  after?: unknown;
}

/** JSON pointers of fields every write moves; a prefix match leaves out everything under them. */
const LEFT_OUT = ['/metadata/resourceVersion', '/metadata/managedFields'];

const isLeftOut = (pointer: string) => LEFT_OUT.some((p) => pointer === p || pointer.startsWith(`${p}/`));

/** RFC 6901: `~1` is `/`, `~0` is `~`, in that order. */
const unescapeToken = (token: string) => token.replace(/~1/g, '/').replace(/~0/g, '~');

const tokensOf = (pointer: string): string[] =>
  pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeToken);

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

const child = (value: unknown, token: string): unknown =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[token] : undefined;

/** The name an array element goes by (`containers[app]`), when it has one that is a non-empty string. */
function elementName(element: unknown): string | undefined {
  const name = child(element, 'name');
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/**
 * A pointer into `primary` (falling back to `secondary` where the path is not in it, e.g. a removed
 * field) as a dotted path: keys that are not plain identifiers are quoted in brackets, array
 * elements named by their `name` where they have one, else by position.
 */
export function readablePath(pointer: string, primary: unknown, secondary?: unknown): string {
  let out = '';
  let a = primary;
  let b = secondary;
  for (const token of tokensOf(pointer)) {
    const container = Array.isArray(a) ? a : Array.isArray(b) ? b : undefined;
    if (container && /^\d+$/.test(token)) {
      const fromA = Array.isArray(a) ? elementName(a[Number(token)]) : undefined;
      const name = fromA ?? (Array.isArray(b) ? elementName(b[Number(token)]) : undefined);
      out += name === undefined ? `[${token}]` : `[${name}]`;
    } else if (PLAIN_KEY.test(token)) {
      out += out === '' ? token : `.${token}`;
    } else {
      out += `[${JSON.stringify(token)}]`;
    }
    a = child(a, token);
    b = child(b, token);
  }
  return out;
}

/** Orders pointers by their segments: keys by text, array positions by number, a parent first. */
export function comparePointers(x: string, y: string): number {
  const a = tokensOf(x);
  const b = tokensOf(y);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const s = a[i]!;
    const t = b[i]!;
    if (s === t) continue;
    const numeric = /^\d+$/.test(s) && /^\d+$/.test(t);
    if (numeric) return Number(s) - Number(t);
    return s < t ? -1 : 1;
  }
  return a.length - b.length;
}

function valueAt(doc: unknown, pointer: string): unknown {
  let v = doc;
  for (const token of tokensOf(pointer)) v = child(v, token);
  return v;
}

/**
 * The fields that differ from `before` to `after` (either may be absent: an object not recorded
 * then, which makes every field added or removed). Values are the documents' own, not copies.
 */
export function versionDiff(before: unknown, after: unknown): FieldChange[] {
  const from = before ?? {};
  const to = after ?? {};
  const ops = compare(from as object, to as object).filter(
    (op): op is Extract<Operation, { op: 'add' | 'remove' | 'replace' }> =>
      (op.op === 'add' || op.op === 'remove' || op.op === 'replace') && !isLeftOut(op.path),
  );
  ops.sort((x, y) => comparePointers(x.path, y.path));
  return ops.map((op) => {
    if (op.op === 'add') return { path: readablePath(op.path, to, from), kind: 'added', after: op.value };
    if (op.op === 'remove') {
      return { path: readablePath(op.path, from, to), kind: 'removed', before: valueAt(from, op.path) };
    }
    return {
      path: readablePath(op.path, to, from),
      kind: 'changed',
      before: valueAt(from, op.path),
      after: op.value,
    };
  });
}

/**
 * A value as the diff shows it: a scalar on one line (a string as it is, unless it would read
 * as something else: empty, padded, multi-line or like a number, then JSON-quoted), anything larger
 * as YAML, the way the YAML tab shows the object.
 */
export function formatValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') {
    // Number('') is 0, so the empty string is quoted too.
    const plain = value.trim() === value && !value.includes('\n') && Number.isNaN(Number(value));
    return plain && value !== 'true' && value !== 'false' && value !== 'null' ? value : JSON.stringify(value);
  }
  // YAML writes a number, a boolean and null as they read; lineWidth 0 never folds a long string.
  return stringify(value, { lineWidth: 0 }).trimEnd();
}
