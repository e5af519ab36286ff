import type { LogLevel } from './types';

/**
 * Level words, lower case. Beyond the core vocabulary a few common spellings are included:
 * `emergency` (syslog/GCP), `dpanic` (zap), `severe` (java.util.logging), `fail`/`dbug`/`trce`
 * (.NET console), `verbose` (Serilog).
 */
const WORDS: ReadonlyArray<readonly [string, LogLevel]> = [
  ['error', 'ERROR'],
  ['err', 'ERROR'],
  ['fatal', 'ERROR'],
  ['panic', 'ERROR'],
  ['dpanic', 'ERROR'],
  ['critical', 'ERROR'],
  ['crit', 'ERROR'],
  ['alert', 'ERROR'],
  ['emerg', 'ERROR'],
  ['emergency', 'ERROR'],
  ['severe', 'ERROR'],
  ['fail', 'ERROR'],
  ['warn', 'WARN'],
  ['warning', 'WARN'],
  ['info', 'INFO'],
  ['information', 'INFO'],
  ['notice', 'INFO'],
  ['debug', 'DEBUG'],
  ['dbg', 'DEBUG'],
  ['dbug', 'DEBUG'],
  ['trace', 'TRACE'],
  ['trce', 'TRACE'],
  ['verbose', 'TRACE'],
];

/** Longest level word; longer letter runs are rejected without comparing. */
export const MAX_LEVEL_WORD = 11;

// Bucketed by length so a lookup compares against at most a handful of candidates.
const BY_LENGTH: Array<Array<readonly [string, LogLevel]>> = [];
for (let n = 0; n <= MAX_LEVEL_WORD; n++) BY_LENGTH.push([]);
for (const w of WORDS) BY_LENGTH[w[0].length]!.push(w);

function letterLevel(lower: number): LogLevel | undefined {
  switch (lower) {
    case 101:
      return 'ERROR';
    case 119:
      return 'WARN';
    case 105:
      return 'INFO';
    case 100:
      return 'DEBUG';
    default:
      return undefined;
  }
}

export function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * Case-insensitive level lookup of `s[start, end)` without slicing. The range must hold ASCII
 * letters only (callers scan a letter run first), which is what makes `| 32` a correct lower-casing.
 */
export function matchLevelWord(
  s: string,
  start: number,
  end: number,
  allowSingle: boolean,
): LogLevel | undefined {
  const n = end - start;
  // Single letters (E/W/I/D) are only honoured where they cannot be an ordinary word: in a
  // structured field or a bracket like `[E]`, never as a bare prefix ("I think…").
  if (n === 1) return allowSingle ? letterLevel(s.charCodeAt(start) | 32) : undefined;
  if (n < 1 || n > MAX_LEVEL_WORD) return undefined;
  const candidates = BY_LENGTH[n]!;
  outer: for (let c = 0; c < candidates.length; c++) {
    const w = candidates[c]!;
    const word = w[0];
    for (let k = 0; k < n; k++) {
      if ((s.charCodeAt(start + k) | 32) !== word.charCodeAt(k)) continue outer;
    }
    return w[1];
  }
  return undefined;
}

/** Normalises a level string taken from a structured field (surrounding blanks ignored). */
export function normalizeLevel(value: string): LogLevel {
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) === 32) start++;
  while (end > start && value.charCodeAt(end - 1) === 32) end--;
  if (end - start > MAX_LEVEL_WORD) return 'UNKNOWN';
  for (let i = start; i < end; i++) if (!isLetter(value.charCodeAt(i))) return 'UNKNOWN';
  return matchLevelWord(value, start, end, true) ?? 'UNKNOWN';
}

/**
 * pino/bunyan numeric levels: 10 trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal.
 * Custom levels in between fall into the bucket below them (35 → INFO); outside 10..60 → UNKNOWN.
 */
export function levelFromNumber(n: number): LogLevel {
  if (!(n >= 10 && n <= 60)) return 'UNKNOWN';
  if (n < 20) return 'TRACE';
  if (n < 30) return 'DEBUG';
  if (n < 40) return 'INFO';
  if (n < 50) return 'WARN';
  return 'ERROR';
}
