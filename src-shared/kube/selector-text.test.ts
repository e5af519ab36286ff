import { describe, expect, it } from 'vitest';
import { matchesSelector, parseSelector } from './selector';
import { type LabelSelector, selectorText } from './selector-text';

describe('selectorText', () => {
  it('is empty for no selector and for an empty one', () => {
    expect(selectorText(undefined)).toBe('');
    expect(selectorText({})).toBe('');
    expect(selectorText({ matchLabels: {}, matchExpressions: [] })).toBe('');
  });

  it('writes matchLabels as key=value, in the order they are given', () => {
    expect(selectorText({ matchLabels: { tier: 'web', app: 'shop' } })).toBe('tier=web,app=shop');
  });

  it('writes each operator in selector syntax: In, NotIn, Exists, DoesNotExist', () => {
    expect(
      selectorText({
        matchExpressions: [
          { key: 'track', operator: 'NotIn', values: ['canary'] },
          { key: 'env', operator: 'In', values: ['prod', 'staging'] },
          { key: 'legacy', operator: 'DoesNotExist' },
          { key: 'team', operator: 'Exists' },
        ],
      }),
    ).toBe('track notin (canary),env in (prod,staging),!legacy,team');
  });

  it('puts matchLabels before matchExpressions', () => {
    expect(
      selectorText({
        matchExpressions: [{ key: 'canary', operator: 'DoesNotExist' }],
        matchLabels: { app: 'web' },
      }),
    ).toBe('app=web,!canary');
  });

  it('leaves out an operator the apiserver would never have stored', () => {
    expect(
      selectorText({
        matchLabels: { app: 'web' },
        matchExpressions: [{ key: 'x', operator: 'Gt', values: ['1'] }],
      }),
    ).toBe('app=web');
  });

  it('gives text the selector parser reads back to the same meaning', () => {
    const sel: LabelSelector = {
      matchLabels: { 'app.kubernetes.io/name': 'checkout' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'staging'] },
        { key: 'track', operator: 'NotIn', values: ['canary'] },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    };
    const parsed = parseSelector(selectorText(sel));
    if (!parsed.ok) throw new Error(parsed.message);
    const labels = (extra: Record<string, string>) => ({ 'app.kubernetes.io/name': 'checkout', ...extra });
    expect(matchesSelector(parsed.selector, labels({ env: 'prod' }))).toBe(true);
    expect(matchesSelector(parsed.selector, labels({ env: 'dev' }))).toBe(false);
    expect(matchesSelector(parsed.selector, labels({ env: 'prod', track: 'canary' }))).toBe(false);
    expect(matchesSelector(parsed.selector, labels({ env: 'staging', legacy: 'yes' }))).toBe(false);
    expect(matchesSelector(parsed.selector, { env: 'prod' })).toBe(false);
  });
});
