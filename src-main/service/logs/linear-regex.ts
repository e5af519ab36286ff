import { RE2JS } from 're2js';
import type { RegexTester } from '../../../src-shared/logs/index';

/**
 * Log searches from callers run in the service's own thread (in the desktop app, Electron's main
 * process), so they use RE2 semantics: matching time is linear in the line, whatever the pattern.
 * The price is RE2's syntax: no backreferences and no lookaround, which are refused with a 400.
 */
export const linearRegex: RegexTester = (source, caseSensitive) => {
  try {
    const re = RE2JS.compile(source, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
    return { test: (text) => re.matcher(text).find() };
  } catch (err) {
    return `${(err as Error).message} (searches use RE2 syntax: no backreferences or lookaround)`;
  }
};
