/**
 * Kubernetes label selectors: parse, match and format, following the apiserver's
 * `labels.Parse` grammar and `labels.Requirement.Matches` semantics.
 *
 * The input is first split into requirements at top-level commas (commas inside
 * `( … )` belong to a value list), so every error can name the requirement's own
 * source text — that is what a user needs to find the typo in a long selector.
 *
 * Deliberate deviation from the apiserver: `key in ()` is rejected. The apiserver
 * reads it as "value is the empty string", which is almost never what a person
 * meant; `key=` says that explicitly. `in (a,)` keeps apiserver semantics ({a, ""}).
 * The numeric `>` / `<` operators (node affinity only) are rejected with a message.
 */

export type Requirement = {
  key: string;
  op: 'in' | 'notin' | 'exists' | '!exists' | '=' | '!=';
  values: string[];
};
export type Selector = readonly Requirement[];

export type ParseSelectorResult =
  | { ok: true; selector: Selector }
  | { ok: false; requirement: string; message: string };

const NAME_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const NAME_RULE =
  "must be 63 characters or less and consist of alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric";
const VALUE_RULE = "must be 63 characters or less and consist of alphanumerics, '-', '_' or '.'";
// Characters the apiserver lexer treats as token boundaries (plus whitespace).
const SPECIAL = new Set(['=', '!', '(', ')', ',', '<', '>']);

/** Validates a label key (`[prefix/]name`); returns null when valid. */
export function validateLabelKey(key: string): string | null {
  if (key === '') return 'missing label key';
  const parts = key.split('/');
  if (parts.length > 2) return `invalid label key "${key}": may contain at most one '/'`;
  const name = parts.length === 2 ? parts[1]! : parts[0]!;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix === '') return `invalid label key "${key}": prefix before '/' must not be empty`;
    if (prefix.length > 253) return `invalid label key "${key}": prefix must be 253 characters or less`;
    if (!DNS1123_SUBDOMAIN_RE.test(prefix)) {
      return `invalid label key "${key}": prefix must be a lowercase DNS subdomain (e.g. 'example.com')`;
    }
  }
  if (name === '') return `invalid label key "${key}": name part must not be empty`;
  if (name.length > 63 || !NAME_RE.test(name)) return `invalid label key "${key}": name part ${NAME_RULE}`;
  return null;
}

/** Validates a label value (empty allowed); returns null when valid. */
export function validateLabelValue(value: string): string | null {
  if (value === '') return null;
  if (value.length > 63 || !NAME_RE.test(value)) {
    return `invalid label value "${value}": ${VALUE_RULE}, starting and ending with an alphanumeric`;
  }
  return null;
}

type Chunk = { text: string; error?: string };

/** Splits at commas outside parentheses; flags a stray ')' on its chunk. */
function splitRequirements(input: string): Chunk[] {
  const chunks: Chunk[] = [];
  let depth = 0;
  let start = 0;
  let error: string | undefined;
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth < 0) {
        error ??= "unbalanced parentheses: ')' without a matching '('";
        depth = 0;
      }
    } else if (c === ',' && depth === 0) {
      chunks.push(
        error ? { text: input.slice(start, i).trim(), error } : { text: input.slice(start, i).trim() },
      );
      start = i + 1;
      error = undefined;
    }
  }
  const last = input.slice(start).trim();
  chunks.push(error ? { text: last, error } : { text: last });
  return chunks;
}

type ReqResult = { ok: true; req: Requirement } | { ok: false; message: string };

function fail(message: string): ReqResult {
  return { ok: false, message };
}

/** Reads a key: everything up to whitespace or an operator character. */
function readKey(text: string): { key: string; rest: string } {
  let i = 0;
  while (i < text.length && !SPECIAL.has(text[i]!) && !/\s/.test(text[i]!)) i++;
  return { key: text.slice(0, i), rest: text.slice(i).trimStart() };
}

function parseValueList(key: string, op: 'in' | 'notin', rest: string): ReqResult {
  if (!rest.startsWith('(')) return fail(`expected '(' after '${op}'`);
  const close = rest.indexOf(')');
  if (close < 0) return fail(`unbalanced parentheses: missing ')' after the values of '${key} ${op}'`);
  const inner = rest.slice(1, close);
  if (inner.includes('(')) return fail(`unbalanced parentheses: nested '(' in the values of '${key} ${op}'`);
  const trailing = rest.slice(close + 1).trim();
  if (trailing !== '') return fail(`unexpected "${trailing}" after ')'`);
  if (inner.trim() === '') {
    return fail(
      `'${op}' needs at least one value, e.g. ${key} ${op} (a,b); to match an empty value use ${key}=`,
    );
  }
  const values: string[] = [];
  for (const raw of inner.split(',')) {
    const v = raw.trim();
    const err = validateLabelValue(v);
    if (err) return fail(err);
    if (!values.includes(v)) values.push(v);
  }
  return { ok: true, req: { key, op, values } };
}

function parseRequirement(text: string): ReqResult {
  if (text.startsWith('!') && !text.startsWith('!=')) {
    const key = text.slice(1).trim();
    const { key: k, rest } = readKey(key);
    if (rest !== '')
      return fail(`'!${k}' takes no operator or value: '!key' only tests that the label is absent`);
    const err = validateLabelKey(k);
    return err ? fail(err) : { ok: true, req: { key: k, op: '!exists', values: [] } };
  }
  const { key, rest } = readKey(text);
  const keyErr = validateLabelKey(key);
  if (keyErr) return fail(keyErr);
  if (rest === '') return { ok: true, req: { key, op: 'exists', values: [] } };

  const eq = /^(==|!=|=)/.exec(rest);
  if (eq) {
    const value = rest.slice(eq[1]!.length).trim();
    if (/^[=!]/.test(value)) return fail(`unexpected '${value[0]}' after '${eq[1]}'`);
    const err = validateLabelValue(value);
    if (err) return fail(err);
    return { ok: true, req: { key, op: eq[1] === '!=' ? '!=' : '=', values: [value] } };
  }
  const word = /^(in|notin)(?=[\s(]|$)/.exec(rest);
  if (word) {
    const op = word[1] as 'in' | 'notin';
    return parseValueList(key, op, rest.slice(op.length).trimStart());
  }
  if (rest.startsWith('<') || rest.startsWith('>')) {
    return fail(`the '${rest[0]}' operator is only valid in node affinity, not in label selectors`);
  }
  return fail(`expected one of '=', '==', '!=', 'in', 'notin' or ',' after "${key}", found "${rest}"`);
}

export function parseSelector(input: string): ParseSelectorResult {
  if (input.trim() === '') return { ok: true, selector: [] };
  const chunks = splitRequirements(input);
  const selector: Requirement[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    if (chunk.text === '') {
      const prev = chunks[i - 1]?.text;
      const next = chunks[i + 1]?.text;
      if (i === chunks.length - 1) {
        return {
          ok: false,
          requirement: `${prev ?? ''},`,
          message: 'trailing comma: expected a requirement after it',
        };
      }
      if (i === 0) {
        return {
          ok: false,
          requirement: `,${next ?? ''}`,
          message: 'leading comma: expected a requirement before it',
        };
      }
      return { ok: false, requirement: `${prev},,${next}`, message: 'empty requirement between two commas' };
    }
    if (chunk.error) return { ok: false, requirement: chunk.text, message: chunk.error };
    const r = parseRequirement(chunk.text);
    if (!r.ok) return { ok: false, requirement: chunk.text, message: r.message };
    selector.push(r.req);
  }
  return { ok: true, selector };
}

function matchesRequirement(req: Requirement, labels: Readonly<Record<string, string>> | undefined): boolean {
  // Own-property check so keys like "constructor" are not found on the prototype.
  const value = labels !== undefined && Object.hasOwn(labels, req.key) ? labels[req.key] : undefined;
  const has = value !== undefined;
  switch (req.op) {
    case 'exists':
      return has;
    case '!exists':
      return !has;
    case '=':
    case 'in':
      return has && req.values.includes(value);
    case '!=':
    case 'notin':
      // apiserver semantics: objects without the label satisfy a negative requirement.
      return !has || !req.values.includes(value);
  }
}

/** All requirements must hold (AND); the empty selector matches everything. */
export function matchesSelector(
  selector: Selector,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  return selector.every((req) => matchesRequirement(req, labels));
}

function formatRequirement(r: Requirement): string {
  switch (r.op) {
    case 'exists':
      return r.key;
    case '!exists':
      return `!${r.key}`;
    case '=':
    case '!=':
      return `${r.key}${r.op}${r.values[0] ?? ''}`;
    case 'in':
    case 'notin':
      return `${r.key} ${r.op} (${r.values.join(',')})`;
  }
}

/** Canonical text that `parseSelector` reads back to an equal selector. */
export function formatSelector(selector: Selector): string {
  return selector.map(formatRequirement).join(',');
}
