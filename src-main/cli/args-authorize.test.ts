import { describe, expect, it } from 'vitest';
import { parseServeArgs, USAGE, UsageError } from './args';

/** serve --authorize rbac|none / SKIFF_AUTHORIZE and the prefixes RBAC names Skiff's accounts with (auth/rbac). */

const parse = (argv: string[], authorize?: string) => parseServeArgs(argv, { dataDir: '/d', authorize });
const refusal = (argv: string[], authorize?: string) => {
  try {
    parse(argv, authorize);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message.split('\n')[0];
  }
  throw new Error('accepted');
};

describe('serve: --authorize', () => {
  it('is off by default, and with none, an empty SKIFF_AUTHORIZE or --authorize none', () => {
    expect(parse([]).authorize).toBeUndefined();
    expect('authorize' in parse([])).toBe(false);
    expect(parse([], '').authorize).toBeUndefined();
    expect(parse(['--authorize', 'none']).authorize).toBeUndefined();
    expect(parse(['--authorize', 'none'], 'rbac').authorize).toBeUndefined();
  });

  it('checks reads with RBAC under the default prefixes: skiff: for local accounts, none for OIDC', () => {
    expect(parse(['--authorize', 'rbac']).authorize).toEqual({ localPrefix: 'skiff:', oidcPrefix: '' });
    expect(parse([], 'rbac').authorize).toEqual({ localPrefix: 'skiff:', oidcPrefix: '' });
    expect(parse(['--authorize', 'rbac', '--demo']).demo).toBe(true);
  });

  it('takes the prefixes', () => {
    expect(
      parse(['--authorize', 'rbac', '--rbac-local-prefix', 'local:', '--rbac-oidc-prefix', 'oidc:'])
        .authorize,
    ).toEqual({ localPrefix: 'local:', oidcPrefix: 'oidc:' });
  });

  it('refuses another mode, prefixes without rbac, and an empty local prefix', () => {
    expect(refusal(['--authorize', 'impersonate'])).toBe(
      '--authorize must be rbac or none (got "impersonate")',
    );
    expect(refusal([], 'RBAC')).toBe('--authorize must be rbac or none (got "RBAC")');
    expect(refusal(['--rbac-local-prefix', 'x:'])).toBe(
      '--rbac-local-prefix and --rbac-oidc-prefix need --authorize rbac',
    );
    expect(refusal(['--rbac-oidc-prefix', 'x:'])).toBe(
      '--rbac-local-prefix and --rbac-oidc-prefix need --authorize rbac',
    );
    expect(refusal(['--authorize', 'rbac', '--rbac-local-prefix', ''])).toBe(
      "--rbac-local-prefix must not be empty: local accounts would pass for the cluster's own users",
    );
  });

  it('is in the usage', () => {
    expect(USAGE).toContain(
      '[--authorize rbac|none] [--rbac-local-prefix skiff:] [--rbac-oidc-prefix PREFIX]',
    );
  });
});
