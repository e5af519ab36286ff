import { describe, expect, it } from 'vitest';
import { formatSelector, parseSelector } from './selector';
import { selectorText } from './selector-text';

function failure(input: string): { requirement: string; message: string } {
  const r = parseSelector(input);
  if (r.ok) throw new Error(`expected ${input} to fail, got ${JSON.stringify(r.selector)}`);
  return r;
}

describe('parseSelector: where an error is reported', () => {
  it("a stray ')' is reported on its own requirement when more requirements follow", () => {
    expect(parseSelector('a=b),c=d')).toEqual({
      ok: false,
      requirement: 'a=b)',
      message: "unbalanced parentheses: ')' without a matching '('",
    });
    expect(failure('x, tier) ,y').requirement).toBe('tier)');
  });
});

describe('parseSelector: operators are read only right after the key', () => {
  it('an equals sign further on is not taken for the operator', () => {
    expect(failure('app web=x').message).toMatch(/^expected one of '=', '==', '!=', 'in', 'notin'/);
  });

  it('"in" inside a word after the key is not taken for the operator', () => {
    expect(failure('env within (a)').message).toMatch(/^expected one of/);
    expect(failure('env notinx (a)').message).toMatch(/^expected one of/);
  });

  it("both '<' and '>' are refused as node-affinity-only operators", () => {
    expect(failure('replicas<1').message).toBe(
      "the '<' operator is only valid in node affinity, not in label selectors",
    );
    expect(failure('replicas > 1').message).toMatch(/the '>' operator is only valid in node affinity/);
    // A '<' later on is no such operator.
    expect(failure('app web<').message).toMatch(/^expected one of/);
  });
});

describe('writing selectors as text', () => {
  it('an equality requirement without a value is written as the empty value', () => {
    const text = formatSelector([
      { key: 'app', op: '=', values: [] },
      { key: 'tier', op: '!=', values: [] },
    ]);
    expect(text).toBe('app=,tier!=');
    expect(parseSelector(text)).toEqual({
      ok: true,
      selector: [
        { key: 'app', op: '=', values: [''] },
        { key: 'tier', op: '!=', values: [''] },
      ],
    });
  });

  it('a selector expression without values lists none', () => {
    expect(
      selectorText({
        matchExpressions: [
          { key: 'env', operator: 'In' },
          { key: 'team', operator: 'Exists' },
        ],
      }),
    ).toBe('env in (),team');
  });
});
