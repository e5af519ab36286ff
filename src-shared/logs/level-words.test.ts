import { describe, expect, it } from 'vitest';
import { isLetter, levelFromNumber, MAX_LEVEL_WORD, matchLevelWord, normalizeLevel } from './level';

describe('level words', () => {
  it('a letter is exactly A to Z or a to z', () => {
    for (const c of 'AZaz') expect(isLetter(c.charCodeAt(0)), c).toBe(true);
    for (const c of '@[`{09 _-é') expect(isLetter(c.charCodeAt(0)), c).toBe(false);
  });

  it('blanks around a field value do not count towards the longest level word', () => {
    expect('information'.length).toBe(MAX_LEVEL_WORD);
    expect(normalizeLevel('      error')).toBe('ERROR');
    expect(normalizeLevel(`${' '.repeat(20)}information `)).toBe('INFO');
    expect(normalizeLevel('   ')).toBe('UNKNOWN');
  });

  it('a letter run longer than the longest level word, or an empty range, is no level', () => {
    const line = 'informational error';
    expect(matchLevelWord(line, 0, 13, true)).toBeUndefined();
    expect(matchLevelWord(line, 14, 19, true)).toBe('ERROR');
    expect(matchLevelWord(line, 14, 14, true)).toBeUndefined();
    expect(matchLevelWord(line, 19, 14, true)).toBeUndefined();
  });

  it('a single level letter counts only where the caller allows it', () => {
    expect(matchLevelWord('W', 0, 1, true)).toBe('WARN');
    expect(matchLevelWord('W', 0, 1, false)).toBeUndefined();
    expect(normalizeLevel('t')).toBe('UNKNOWN');
  });

  it('pino numbers fall into the bucket at or below them, from 10 to 60 inclusive', () => {
    const cases: Array<[number, string]> = [
      [9.5, 'UNKNOWN'],
      [10, 'TRACE'],
      [19, 'TRACE'],
      [20, 'DEBUG'],
      [29, 'DEBUG'],
      [30, 'INFO'],
      [40, 'WARN'],
      [49, 'WARN'],
      [50, 'ERROR'],
      [60, 'ERROR'],
      [60.5, 'UNKNOWN'],
      [Number.NaN, 'UNKNOWN'],
    ];
    for (const [n, level] of cases) expect(levelFromNumber(n), String(n)).toBe(level);
  });
});
