/**
 * Per-line text search used by the filter and by the viewer's highlighter. Kept apart from
 * filter.ts so that highlighting code can depend on it without the context machinery.
 */

export interface SearchSpec {
  pattern: string;
  /** Treat `pattern` as a JavaScript regular expression; otherwise as literal text. */
  regex: boolean;
  caseSensitive: boolean;
}

export interface CompiledSearch {
  readonly spec: Readonly<SearchSpec>;
  /** Whether the text contains a match. Stateless (no lastIndex), so safe to call in any order. */
  test(text: string): boolean;
  /** Global twin for findMatches; null for case-sensitive literals, which use indexOf. */
  readonly global: RegExp | null;
}

export type CompileSearchResult = { ok: true; search: CompiledSearch } | { ok: false; error: string };

/**
 * Compiles a regex source for testing lines, or returns why it cannot. The service passes a
 * linear-time engine (RE2) here: a backtracking pattern sent by any caller must not stall it.
 * Searches compiled this way test lines only; highlighting (findMatches) is the viewer's, which
 * uses the default engine in a worker it can terminate.
 */
export type RegexTester = (
  source: string,
  caseSensitive: boolean,
) => { test(text: string): boolean } | string;

/**
 * JavaScript regexes backtrack and cannot be interrupted, so a pathological pattern can hang the
 * thread. Length is the only cheap, predictable guard; the renderer should additionally run
 * filtering in a worker it can terminate. Matching is per line, which bounds each attempt's input.
 */
export const MAX_PATTERN_LENGTH = 1000;

function escapeRegExp(s: string): string {
  // Only syntax characters: Unicode mode rejects needless escapes such as `\-`.
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function build(source: string, flags: string): RegExp | string {
  // Try Unicode mode first (\p{…}, astral-safe `.`), then fall back to legacy syntax so that
  // grep-habit patterns with redundant escapes such as `\-` or `\:` still work.
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    try {
      return new RegExp(source, flags);
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }
}

/** Compiles a search. An empty pattern is valid and matches every line (like `grep ''`). */
export function compileSearch(spec: SearchSpec, tester?: RegexTester): CompileSearchResult {
  const frozen: Readonly<SearchSpec> = {
    pattern: spec.pattern,
    regex: spec.regex,
    caseSensitive: spec.caseSensitive,
  };
  if (spec.pattern.length > MAX_PATTERN_LENGTH) {
    return { ok: false, error: `Search pattern is longer than ${MAX_PATTERN_LENGTH} characters` };
  }
  const flags = spec.caseSensitive ? '' : 'i';
  if (!spec.regex && spec.caseSensitive) {
    const p = spec.pattern;
    return { ok: true, search: { spec: frozen, global: null, test: (text) => text.includes(p) } };
  }
  const source = spec.regex ? spec.pattern : escapeRegExp(spec.pattern);
  if (tester) {
    const compiled = tester(source, spec.caseSensitive);
    if (typeof compiled === 'string') return { ok: false, error: `Invalid regular expression: ${compiled}` };
    return { ok: true, search: { spec: frozen, global: null, test: (text) => compiled.test(text) } };
  }
  const re = build(source, flags);
  // V8's message already starts with "Invalid regular expression: /…/flags: "; keep only the reason.
  if (typeof re === 'string')
    return {
      ok: false,
      error: `Invalid regular expression: ${re.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '')}`,
    };
  const global = new RegExp(re.source, `${re.flags}g`);
  return { ok: true, search: { spec: frozen, global, test: (text) => re.test(text) } };
}

/**
 * Non-overlapping `[start, end)` ranges of matches in `text`, for highlighting. Empty matches
 * (e.g. from `^` or `a*`) are skipped: they still make a line match, but there is nothing to paint.
 */
export function findMatches(text: string, search: CompiledSearch): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const re = search.global;
  if (re === null) {
    const p = search.spec.pattern;
    if (p.length === 0) return out;
    for (let i = text.indexOf(p); i >= 0; i = text.indexOf(p, i + p.length)) out.push([i, i + p.length]);
    return out;
  }
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const end = m.index + m[0].length;
    if (end === m.index) {
      // Step past the empty match; in Unicode mode never split a surrogate pair.
      const c = text.charCodeAt(end);
      re.lastIndex = end + (re.unicode && c >= 0xd800 && c <= 0xdbff ? 2 : 1);
      if (re.lastIndex > text.length) break;
      continue;
    }
    out.push([m.index, end]);
  }
  return out;
}
