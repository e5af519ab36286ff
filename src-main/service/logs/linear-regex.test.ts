import { describe, expect, it } from 'vitest';
import { compileLogFilter } from '../../../src-shared/logs/index';
import { linearRegex } from './linear-regex';

describe('linearRegex', () => {
  it('matches like a search (anywhere in the line), with and without case', () => {
    const r = linearRegex('time(out)?\\b', true);
    if (typeof r === 'string') throw new Error(r);
    expect(r.test('request timeout after 5s')).toBe(true);
    expect(r.test('TIMEOUT')).toBe(false);
    const i = linearRegex('timeout', false);
    if (typeof i === 'string') throw new Error(i);
    expect(i.test('TIMEOUT')).toBe(true);
  });

  it('answers a catastrophic pattern on a long line at once instead of backtracking for ever', () => {
    const r = linearRegex('(a+)+$', true);
    if (typeof r === 'string') throw new Error(r);
    const line = `${'a'.repeat(50_000)}!`;
    // With V8's backtracking engine this call does not return in any useful time.
    expect(r.test(line)).toBe(false);
  });

  it('refuses what RE2 cannot do, with the reason', () => {
    expect(linearRegex('(a)\\1', true)).toMatch(/RE2 syntax/);
    expect(linearRegex('(?<=x)y', true)).toMatch(/RE2 syntax/);
  });

  it('plugs into the shared log filter', () => {
    const f = compileLogFilter(
      { search: { pattern: 'err(or)?', regex: true, caseSensitive: true } },
      { regex: linearRegex },
    );
    expect(f.ok && f.filter.search?.test('an error here')).toBe(true);
    const bad = compileLogFilter(
      { search: { pattern: '(?=x)', regex: true, caseSensitive: true } },
      { regex: linearRegex },
    );
    expect(bad.ok).toBe(false);
  });
});
