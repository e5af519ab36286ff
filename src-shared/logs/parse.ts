import * as levelModule from './level';
import * as logfmtModule from './logfmt';
import * as timeModule from './time';
import type { LogEntry, LogFormat, LogLevel } from './types';

export interface ParseOptions {
  /** The line starts with the kubelet's RFC3339Nano timestamp and a space (`timestamps=true`). */
  timestamps?: boolean;
}

// Field names probed in order; the first present wins.
const LEVEL_KEYS = ['level', 'severity', 'lvl', 'log.level', 'levelname'];
const MESSAGE_KEYS = ['msg', 'message'];
const TIME_KEYS = ['time', 'ts', 'timestamp', '@timestamp'];

// Imports bound to plain locals once. ESM→CJS transforms (tsx, which runs the headless
// service, and vitest) turn each use of an imported binding into a getter call on the module
// namespace; on a per-character path that cost ~10% of parse time.
const { isLetter, levelFromNumber, MAX_LEVEL_WORD, matchLevelWord, normalizeLevel } = levelModule;
const { looksLikeLogfmt, parseLogfmt } = logfmtModule;
const { scanDateTime, scanned, timeValueToMs } = timeModule;

/** How many whitespace-separated tokens at the start of a line may be inspected for a level. */
const PREFIX_TOKENS = 4;

function entry(
  ts: number | undefined,
  tsText: string | undefined,
  level: LogLevel,
  message: string,
  raw: string,
  format: LogFormat,
  fields: Record<string, string> | undefined,
): LogEntry {
  // Always the same literal shape (see LogEntry): one hidden class for every entry.
  return { ts, tsText, level, message, raw, format, fields };
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

function firstOf(fields: Record<string, string>, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = fields[k];
    if (v !== undefined) return v;
  }
  return undefined;
}

function parseJson(body: string, ts: number | undefined, tsText: string | undefined): LogEntry | undefined {
  let obj: unknown;
  try {
    obj = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return undefined;
  const rec = obj as Record<string, unknown>;
  let level: LogLevel = 'UNKNOWN';
  for (const k of LEVEL_KEYS) {
    const v = rec[k];
    if (typeof v === 'string') level = normalizeLevel(v);
    else if (typeof v === 'number') level = levelFromNumber(v);
    else continue;
    break;
  }
  let time = ts;
  if (time === undefined) {
    for (const k of TIME_KEYS) {
      if (rec[k] === undefined) continue;
      time = timeValueToMs(rec[k]);
      break;
    }
  }
  // Stringify in place: the parsed object becomes `fields`, saving a second record per line.
  for (const k in rec) {
    const v = rec[k];
    if (typeof v !== 'string') rec[k] = v === null || typeof v !== 'object' ? String(v) : JSON.stringify(v);
  }
  const fields = rec as Record<string, string>;
  return entry(time, tsText, level, firstOf(fields, MESSAGE_KEYS) ?? body, body, 'json', fields);
}

function fromLogfmt(
  body: string,
  fields: Record<string, string>,
  ts: number | undefined,
  tsText: string | undefined,
): LogEntry {
  const lv = firstOf(fields, LEVEL_KEYS);
  let time = ts;
  if (time === undefined) {
    const t = firstOf(fields, TIME_KEYS);
    if (t !== undefined) time = timeValueToMs(t);
  }
  const level = lv === undefined ? 'UNKNOWN' : normalizeLevel(lv);
  return entry(time, tsText, level, firstOf(fields, MESSAGE_KEYS) ?? body, body, 'logfmt', fields);
}

// Results of detectPrefix, kept in module scratch to avoid a result object per line.
let prefixLevel: LogLevel = 'UNKNOWN';
let prefixMsgStart = 0;
let prefixTs: number | undefined;

/** klog/glog header `Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg`. */
function detectKlog(s: string): boolean {
  const c = s.charCodeAt(0);
  let level: LogLevel;
  if (c === 73) level = 'INFO';
  else if (c === 87) level = 'WARN';
  else if (c === 69 || c === 70) level = 'ERROR';
  else return false;
  for (let i = 1; i <= 4; i++) {
    const d = s.charCodeAt(i);
    if (d < 48 || d > 57) return false;
  }
  if (s.charCodeAt(5) !== 32 || s.charCodeAt(8) !== 58 || s.charCodeAt(11) !== 58) return false;
  const close = s.indexOf(']', 12);
  prefixLevel = level;
  prefixMsgStart = close < 0 ? s.length : s.charCodeAt(close + 1) === 32 ? close + 2 : close + 1;
  prefixTs = undefined; // klog omits the year, so its time cannot be placed.
  return true;
}

/** Skips blanks and the `:`/`|`/`-`/`--` separators that formats put between level and text. */
function skipSeparators(s: string, i: number): number {
  const len = s.length;
  for (;;) {
    while (i < len && (isSpace(s.charCodeAt(i)) || s.charCodeAt(i) === 58 || s.charCodeAt(i) === 124)) i++;
    let j = i;
    while (j < len && s.charCodeAt(j) === 45) j++;
    if (j === i || j - i > 3 || !(j === len || isSpace(s.charCodeAt(j)) || s.charCodeAt(j) === 58)) return i;
    i = j;
  }
}

/**
 * Finds a level near the start of free text: `[LEVEL]`, `<LEVEL>`, `(LEVEL)`, `LEVEL:` or
 * `LEVEL ` — optionally after a date/time and after tokens that are clearly not message text
 * (`[thread]`, a pid, `-`, `---`, `|`). A bare `LEVEL ` as the very first word must be upper
 * case: in prose "Notice that…" or "Alert sent" would otherwise be misread; after a timestamp or
 * skipped token any case is accepted.
 */
function detectPrefix(s: string): boolean {
  prefixTs = undefined;
  if (detectKlog(s)) return true;
  const len = s.length;
  let i = 0;
  while (i < len && isSpace(s.charCodeAt(i))) i++;
  let framed = false;
  const afterTs = scanDateTime(s, i, true);
  if (afterTs > i) {
    if (!Number.isNaN(scanned.ms)) prefixTs = scanned.ms;
    i = afterTs;
    framed = true;
  }
  for (let tok = 0; tok < PREFIX_TOKENS; tok++) {
    while (i < len && isSpace(s.charCodeAt(i))) i++;
    if (i >= len) return false;
    const open = s.charCodeAt(i);
    const close = open === 91 ? 93 : open === 60 ? 62 : open === 40 ? 41 : 0;
    const wStart = close === 0 ? i : i + 1;
    let k = wStart;
    while (k < len && k - wStart <= MAX_LEVEL_WORD && isLetter(s.charCodeAt(k))) k++;
    if (k > wStart && k - wStart <= MAX_LEVEL_WORD) {
      const term = k < len ? s.charCodeAt(k) : -1;
      let ok = false;
      if (close !== 0) ok = term === close;
      else if (term === 58) ok = true;
      else if (term === -1 || isSpace(term)) ok = framed || isUpper(s, wStart, k);
      const level = ok ? matchLevelWord(s, wStart, k, close !== 0) : undefined;
      if (level !== undefined) {
        prefixLevel = level;
        prefixMsgStart = skipSeparators(s, close !== 0 || term === 58 ? k + 1 : k);
        return true;
      }
    }
    // Not a level: continue only past tokens that cannot be the start of the message.
    let end = i;
    if (close === 93) {
      end = s.indexOf(']', i);
      if (end < 0) return false;
      end++;
    } else {
      while (end < len && !isSpace(s.charCodeAt(end))) end++;
      if (!isFiller(s, i, end)) return false;
    }
    if (end < len && !isSpace(s.charCodeAt(end))) return false;
    i = end;
    framed = true;
  }
  return false;
}

function isUpper(s: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < 65 || c > 90) return false;
  }
  return true;
}

/** A token of only digits (pid), or only `-`/`|`: log-format scaffolding, not message text. */
function isFiller(s: string, start: number, end: number): boolean {
  const c0 = s.charCodeAt(start);
  const digits = c0 >= 48 && c0 <= 57;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (digits ? c < 48 || c > 57 : c !== 45 && c !== 124) return false;
  }
  return true;
}

/**
 * Parses one log line. Recognition order: JSON object, logfmt, level prefix (klog, bracketed,
 * `LEVEL:`, `LEVEL ` after an optional date/time), else plain. Never throws.
 */
export function parseLogLine(raw: string, opts?: ParseOptions): LogEntry {
  let end = raw.length;
  while (end > 0 && (raw.charCodeAt(end - 1) === 10 || raw.charCodeAt(end - 1) === 13)) end--;
  const line = end === raw.length ? raw : raw.slice(0, end);
  let ts: number | undefined;
  let tsText: string | undefined;
  let body = line;
  if (opts?.timestamps) {
    const e = scanDateTime(line, 0, false);
    if (
      e > 0 &&
      scanned.hasDate &&
      scanned.hasTime &&
      scanned.hasZone &&
      (e === line.length || line.charCodeAt(e) === 32)
    ) {
      tsText = line.slice(0, e);
      if (!Number.isNaN(scanned.ms)) ts = scanned.ms;
      body = line.slice(e + 1);
    }
  }
  const len = body.length;
  let first = 0;
  while (first < len && isSpace(body.charCodeAt(first))) first++;
  if (first === len) return entry(ts, tsText, 'UNKNOWN', body, body, 'plain', undefined);
  if (body.charCodeAt(first) === 123) {
    let last = len - 1;
    while (isSpace(body.charCodeAt(last))) last--;
    if (body.charCodeAt(last) === 125) {
      const e = parseJson(body, ts, tsText);
      if (e !== undefined) return e;
    }
  } else if (looksLikeLogfmt(body, first)) {
    const fields = parseLogfmt(body, first);
    if (fields !== undefined) return fromLogfmt(body, fields, ts, tsText);
  }
  if (detectPrefix(body)) {
    return entry(ts ?? prefixTs, tsText, prefixLevel, body.slice(prefixMsgStart), body, 'prefix', undefined);
  }
  // A plain line may still open with a zoned timestamp (found by detectPrefix) worth keeping.
  return entry(ts ?? prefixTs, tsText, 'UNKNOWN', body, body, 'plain', undefined);
}
