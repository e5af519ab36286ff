import { describe, expect, it } from 'vitest';
import {
  formatSelector,
  matchesSelector,
  parseSelector,
  type Requirement,
  type Selector,
  validateLabelKey,
  validateLabelValue,
} from './selector';

function parsed(input: string): Selector {
  const r = parseSelector(input);
  if (!r.ok) throw new Error(`expected ${input} to parse: ${r.message}`);
  return r.selector;
}

function failure(input: string): { requirement: string; message: string } {
  const r = parseSelector(input);
  if (r.ok) throw new Error(`expected ${input} to fail, got ${JSON.stringify(r.selector)}`);
  return r;
}

describe('parseSelector: valid forms', () => {
  const cases: Array<[string, Requirement[]]> = [
    ['', []],
    ['   ', []],
    ['app=web', [{ key: 'app', op: '=', values: ['web'] }]],
    ['app==web', [{ key: 'app', op: '=', values: ['web'] }]],
    ['app!=web', [{ key: 'app', op: '!=', values: ['web'] }]],
    ['app = web', [{ key: 'app', op: '=', values: ['web'] }]],
    ['app=', [{ key: 'app', op: '=', values: [''] }]],
    ['app!=', [{ key: 'app', op: '!=', values: [''] }]],
    ['env in (prod,staging)', [{ key: 'env', op: 'in', values: ['prod', 'staging'] }]],
    ['env in(prod)', [{ key: 'env', op: 'in', values: ['prod'] }]],
    ['env notin ( a , b )', [{ key: 'env', op: 'notin', values: ['a', 'b'] }]],
    ['env in (a,a,b)', [{ key: 'env', op: 'in', values: ['a', 'b'] }]],
    ['env in (a,)', [{ key: 'env', op: 'in', values: ['a', ''] }]],
    ['tier', [{ key: 'tier', op: 'exists', values: [] }]],
    ['!tier', [{ key: 'tier', op: '!exists', values: [] }]],
    ['! tier', [{ key: 'tier', op: '!exists', values: [] }]],
    ['in', [{ key: 'in', op: 'exists', values: [] }]],
    ['in in (in)', [{ key: 'in', op: 'in', values: ['in'] }]],
    ['app.kubernetes.io/name=nginx', [{ key: 'app.kubernetes.io/name', op: '=', values: ['nginx'] }]],
    ['a_b.c-d=E_f.G-1', [{ key: 'a_b.c-d', op: '=', values: ['E_f.G-1'] }]],
    [
      ' app=web , env in (a, b),!legacy,\ttier ',
      [
        { key: 'app', op: '=', values: ['web'] },
        { key: 'env', op: 'in', values: ['a', 'b'] },
        { key: 'legacy', op: '!exists', values: [] },
        { key: 'tier', op: 'exists', values: [] },
      ],
    ],
    [`k=${'v'.repeat(63)}`, [{ key: 'k', op: '=', values: ['v'.repeat(63)] }]],
    [
      `${'p'.repeat(253)}/${'n'.repeat(63)}`,
      [{ key: `${'p'.repeat(253)}/${'n'.repeat(63)}`, op: 'exists', values: [] }],
    ],
  ];
  it.each(cases)('%j', (input, expected) => {
    expect(parsed(input)).toEqual(expected);
  });
});

describe('parseSelector: invalid forms', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['env in (a,', 'env in (a,', /missing '\)'/],
    ['env in (a,b', 'env in (a,b', /missing '\)'/],
    ['env in a,b)', 'env in a', /expected '\('/],
    ['app=web,b)', 'b)', /unbalanced parentheses/],
    ['env in ((a))', 'env in ((a))', /nested '\('/],
    ['env in ()', 'env in ()', /at least one value/],
    ['env in (  )', 'env in (  )', /at least one value/],
    ['env notin ()', 'env notin ()', /at least one value/],
    ['env in', 'env in', /expected '\('/],
    ['env in (a) b', 'env in (a) b', /unexpected "b" after '\)'/],
    ['app=web,', 'app=web,', /trailing comma/],
    [',app=web', ',app=web', /leading comma/],
    ['a=b,,c=d', 'a=b,,c=d', /empty requirement/],
    ['a=b=c', 'a=b=c', /invalid label value "b=c"/],
    ['a===b', 'a===b', /unexpected '='/],
    ['=b', '=b', /missing label key/],
    ['!=b', '!=b', /missing label key/],
    ['-bad=x', '-bad=x', /invalid label key "-bad"/],
    ['bad-=x', 'bad-=x', /invalid label key/],
    ['a/b/c=x', 'a/b/c=x', /at most one '\/'/],
    ['/name=x', '/name=x', /prefix before '\/' must not be empty/],
    ['Example.com/name', 'Example.com/name', /DNS subdomain/],
    ['example.com/=x', 'example.com/=x', /name part must not be empty/],
    [`${'k'.repeat(64)}=x`, `${'k'.repeat(64)}=x`, /name part must be 63 characters or less/],
    [`${'p'.repeat(254)}/n`, `${'p'.repeat(254)}/n`, /253 characters/],
    [`k=${'v'.repeat(64)}`, `k=${'v'.repeat(64)}`, /must be 63 characters or less/],
    [
      'env=a b',
      'env=a b',
      /^invalid label value "a b": must be 63 characters or less and consist of alphanumerics/,
    ],
    ['env in (a b)', 'env in (a b)', /invalid label value "a b"/],
    ['env in (a,-b)', 'env in (a,-b)', /invalid label value "-b"/],
    ['env=-x', 'env=-x', /invalid label value "-x"/],
    ['app web', 'app web', /expected one of '=', '==', '!=', 'in', 'notin'/],
    ['app(web)', 'app(web)', /expected one of/],
    ['!app=web', '!app=web', /takes no operator/],
    ['replicas>1', 'replicas>1', /only valid in node affinity/],
    ['a=ok,b=bad value,c', 'b=bad value', /invalid label value "bad value"/],
  ];
  it.each(cases)('%j', (input, requirement, message) => {
    const f = failure(input);
    expect(f.requirement).toBe(requirement);
    expect(f.message).toMatch(message);
  });
});

describe('key and value validators', () => {
  it('accepts and rejects keys', () => {
    expect(validateLabelKey('a')).toBeNull();
    expect(validateLabelKey('kubernetes.io/hostname')).toBeNull();
    expect(validateLabelKey('a.b')).toBeNull();
    expect(validateLabelKey('.a')).not.toBeNull();
    expect(validateLabelKey('a b')).not.toBeNull();
  });
  it('accepts and rejects values', () => {
    expect(validateLabelValue('')).toBeNull();
    expect(validateLabelValue('v1.2_3-x')).toBeNull();
    expect(validateLabelValue('x.')).not.toBeNull();
    expect(validateLabelValue('a/b')).not.toBeNull();
  });
});

describe('matchesSelector semantics', () => {
  const web = { app: 'web', env: 'prod' };
  const empty = { app: '' };
  const none = {};
  const table: Array<[string, Record<string, string> | undefined, boolean]> = [
    ['', undefined, true],
    ['', web, true],
    ['app=web', web, true],
    ['app=web', none, false],
    ['app=web', undefined, false],
    ['app=db', web, false],
    ['app==web', web, true],
    ['app!=web', web, false],
    ['app!=db', web, true],
    ['app!=db', none, true],
    ['app!=db', undefined, true],
    ['app in (web,db)', web, true],
    ['app in (db)', web, false],
    ['app in (web)', none, false],
    ['app notin (web)', web, false],
    ['app notin (db)', web, true],
    ['app notin (db)', none, true],
    ['app', web, true],
    ['app', empty, true],
    ['app', none, false],
    ['!app', web, false],
    ['!app', none, true],
    ['!app', undefined, true],
    ['app=', empty, true],
    ['app=', none, false],
    ['app!=', empty, false],
    ['app in (web,)', empty, true],
    ['app=web,env=prod', web, true],
    ['app=web,env=dev', web, false],
    ['app=web,!env', web, false],
    ['constructor', none, false],
    ['!toString', none, true],
  ];
  it.each(table)('%j on %j → %s', (sel, labels, expected) => {
    expect(matchesSelector(parsed(sel), labels)).toBe(expected);
  });
});

describe('formatSelector', () => {
  it.each([
    ['app=web', 'app=web'],
    ['app==web', 'app=web'],
    ['app != web', 'app!=web'],
    ['env in (a, b)', 'env in (a,b)'],
    ['env notin(a)', 'env notin (a)'],
    [' tier , ! legacy ', 'tier,!legacy'],
    ['app=', 'app='],
    ['', ''],
  ])('%j → %j and round-trips', (input, expected) => {
    const sel = parsed(input);
    expect(formatSelector(sel)).toBe(expected);
    expect(parsed(formatSelector(sel))).toEqual(sel);
  });
});
