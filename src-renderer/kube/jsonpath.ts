/**
 * The JSONPath of Kubernetes printer columns (`additionalPrinterColumns[].jsonPath`), evaluated
 * without eval: `.a.b`, `['a.b']`, `[0]`, `[-1]`, `[1:3]`, `[*]`, `.*`, and filters
 * `[?(@.type == "Ready")]` with ==, !=, <, <=, >, >= or a bare `@.path` for presence. A path may
 * be wrapped in `{}` and start with `$`, as kubectl writes them. Recursive descent (`..`), unions
 * and `range` are refused with a reason rather than guessed at. Only own properties are read, so
 * `__proto__` or `constructor` find nothing, and an answer stops at MAX_RESULTS values.
 */

export type Literal = string | number | boolean | null;
export type Comparison = '==' | '!=' | '<' | '<=' | '>' | '>=';

export type Step =
  | { type: 'field'; name: string }
  | { type: 'index'; index: number }
  | { type: 'slice'; start: number | undefined; end: number | undefined }
  | { type: 'wildcard' }
  | { type: 'filter'; path: Step[]; op: Comparison | undefined; value: Literal };

export type Compiled = { ok: true; steps: Step[] } | { ok: false; error: string };

/** Past this many values an answer is cut: a column shows one, and a huge array is no reason to stall. */
export const MAX_RESULTS = 1000;
/** Longer paths are refused: no CRD needs one, and the parser then never does much work. */
export const MAX_PATH_LENGTH = 1000;

class PathError extends Error {}

const FILTER = /^@((?:\.[^\s=!<>]*|\[[^\]]*\])*)\s*(?:(==|!=|<=|>=|<|>)\s*(\S.*?))?\s*$/;
const INDEX = /^-?\d+$/;
const SLICE = /^(-?\d+)?:(-?\d+)?$/;

/** The steps of a path, or why it cannot be evaluated. */
export function compileJsonPath(text: string): Compiled {
  if (text.length > MAX_PATH_LENGTH) return { ok: false, error: `longer than ${MAX_PATH_LENGTH} characters` };
  let s = text.trim();
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1).trim();
  if (s.startsWith('$')) s = s.slice(1);
  if (s === '') return { ok: false, error: 'empty path' };
  try {
    return { ok: true, steps: parseSteps(s) };
  } catch (err) {
    return { ok: false, error: (err as PathError).message };
  }
}

function parseSteps(s: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  // kubectl wants a leading dot; a path without one ("status.phase") means the same.
  if (s[0] !== '.' && s[0] !== '[') s = `.${s}`;
  while (i < s.length) {
    const c = s[i];
    if (c === '.') {
      if (s[i + 1] === '.') throw new PathError('recursive descent (..) is not supported');
      if (s[i + 1] === '*') {
        steps.push({ type: 'wildcard' });
        i += 2;
        continue;
      }
      const { name, end } = readName(s, i + 1);
      if (name === '') throw new PathError(`a name is missing at ${i + 1}`);
      steps.push({ type: 'field', name });
      i = end;
    } else if (c === '[') {
      const { step, end } = readBracket(s, i);
      steps.push(step);
      i = end;
    } else {
      throw new PathError(`unexpected "${c}" at ${i}`);
    }
  }
  return steps;
}

/** A dotted name up to the next `.` or `[`; `\.` keeps a dot inside it (`labels.app\.kubernetes\.io/name`). */
function readName(s: string, start: number): { name: string; end: number } {
  let name = '';
  let i = start;
  while (i < s.length && s[i] !== '.' && s[i] !== '[') {
    if (s[i] === '\\' && s[i + 1] === '.') {
      name += '.';
      i += 2;
    } else {
      name += s[i];
      i++;
    }
  }
  return { name, end: i };
}

function readBracket(s: string, start: number): { step: Step; end: number } {
  const first = s[start + 1];
  if (first === "'" || first === '"') {
    const close = s.indexOf(first, start + 2);
    if (close < 0 || s[close + 1] !== ']') throw new PathError(`unterminated name at ${start}`);
    return { step: { type: 'field', name: s.slice(start + 2, close) }, end: close + 2 };
  }
  if (first === '?') return readFilter(s, start);
  const close = s.indexOf(']', start);
  if (close < 0) throw new PathError(`unterminated [ at ${start}`);
  const inner = s.slice(start + 1, close).trim();
  const end = close + 1;
  if (inner === '*') return { step: { type: 'wildcard' }, end };
  if (INDEX.test(inner)) return { step: { type: 'index', index: Number(inner) }, end };
  const slice = SLICE.exec(inner);
  if (slice) {
    const bound = (b: string | undefined) => (b === undefined ? undefined : Number(b));
    return { step: { type: 'slice', start: bound(slice[1]), end: bound(slice[2]) }, end };
  }
  throw new PathError(`unsupported subscript [${inner}]`);
}

/** `[?( … )]`: the parentheses are matched, so a quoted ")" or "]" inside the literal is fine. */
function readFilter(s: string, start: number): { step: Step; end: number } {
  if (s[start + 2] !== '(') throw new PathError(`a filter needs parentheses at ${start}`);
  let quote: string | null = null;
  let depth = 0;
  for (let i = start + 2; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) {
      if (s[i + 1] !== ']') throw new PathError(`a filter must end with )] at ${i}`);
      return { step: parseFilter(s.slice(start + 3, i)), end: i + 2 };
    }
  }
  throw new PathError(`unterminated filter at ${start}`);
}

function parseFilter(expr: string): Step {
  const m = FILTER.exec(expr.trim());
  if (!m) throw new PathError(`unsupported filter (${expr.trim()})`);
  const path = m[1] ? parseSteps(m[1]) : [];
  if (m[2] === undefined) return { type: 'filter', path, op: undefined, value: null };
  return { type: 'filter', path, op: m[2] as Comparison, value: parseLiteral(m[3] as string) };
}

function parseLiteral(raw: string): Literal {
  const q = raw[0];
  // A lone quote never gets here: readFilter would have found it unterminated.
  if ((q === '"' || q === "'") && raw.endsWith(q)) return raw.slice(1, -1);
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (raw === 'null') return null;
  const n = Number(raw);
  if (Number.isFinite(n)) return n;
  throw new PathError(`unsupported literal ${raw}`);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function compare(a: unknown, op: Comparison, b: Literal): boolean {
  if (op === '==') return a === b;
  if (op === '!=') return a !== b;
  const ordered =
    (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
  if (!ordered) return false;
  const x = a as number | string;
  const y = b as number | string;
  if (op === '<') return x < y;
  if (op === '<=') return x <= y;
  if (op === '>') return x > y;
  return x >= y;
}

function matches(item: unknown, step: Extract<Step, { type: 'filter' }>): boolean {
  const found = evaluateSteps(step.path, item);
  if (step.op === undefined) return found.length > 0;
  const op = step.op;
  return found.some((v) => compare(v, op, step.value));
}

function apply(step: Step, v: unknown): unknown[] {
  switch (step.type) {
    case 'field':
      return isRecord(v) && Object.hasOwn(v, step.name) ? [v[step.name]] : [];
    case 'index':
      // Out of range is undefined, which counts as not found.
      return Array.isArray(v) ? [v.at(step.index)] : [];
    case 'slice':
      return Array.isArray(v) ? v.slice(step.start, step.end) : [];
    case 'wildcard':
      return Array.isArray(v) ? v : isRecord(v) ? Object.values(v) : [];
    case 'filter':
      return Array.isArray(v) ? v.filter((item) => matches(item, step)) : [];
  }
}

/** The values `steps` find in `root`, in document order, at most MAX_RESULTS; `undefined` never counts as found. */
export function evaluateSteps(steps: readonly Step[], root: unknown): unknown[] {
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      for (const found of apply(step, v)) {
        if (found === undefined) continue;
        next.push(found);
        if (next.length >= MAX_RESULTS) break;
      }
      if (next.length >= MAX_RESULTS) break;
    }
    current = next;
  }
  return current;
}

/** Compiles and evaluates in one go: the values found, or the reason the path cannot be read. */
export function jsonPathValues(
  path: string,
  root: unknown,
): { ok: true; values: unknown[] } | { ok: false; error: string } {
  const compiled = compileJsonPath(path);
  return compiled.ok ? { ok: true, values: evaluateSteps(compiled.steps, root) } : compiled;
}
