// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { OIDC_ERROR_CODES } from '../../src-shared/contract/oidc-operations';
import {
  oidcErrorText,
  oidcLoginHref,
  readOidcReturn,
  rememberReturnHash,
  takeReturnHash,
} from './oidc-return';

/**
 * The page's side of an OIDC sign-in: the code or error it comes back with leaves the address, the
 * route (the fragment, which no server sees) is kept across the trip, and every refusal the
 * service sends reads as a sentence.
 */

afterEach(() => sessionStorage.clear());

const at = (search: string, hash = '', pathname = '/') => ({ pathname, search, hash });

describe('readOidcReturn', () => {
  it('answers nothing for an address without the parameters', () => {
    expect(readOidcReturn(at(''), null)).toBeNull();
    expect(readOidcReturn(at('?other=1', '#/w/default'), '#/x')).toBeNull();
  });

  it('takes the code and leaves the address without it', () => {
    expect(readOidcReturn(at('?oidc_code=abc'), null)).toEqual({ code: 'abc', error: null, cleanUrl: '/' });
  });

  it('takes the error, and keeps other parameters and the path', () => {
    expect(readOidcReturn(at('?a=1&oidc_error=oidc_denied&b=2', '', '/skiff/'), null)).toEqual({
      code: null,
      error: 'oidc_denied',
      cleanUrl: '/skiff/?a=1&b=2',
    });
  });

  it('puts back the remembered route, unless the address has one', () => {
    expect(readOidcReturn(at('?oidc_code=abc'), '#/w/default/c/demo')?.cleanUrl).toBe('/#/w/default/c/demo');
    expect(readOidcReturn(at('?oidc_code=abc', '#/here'), '#/there')?.cleanUrl).toBe('/#/here');
  });

  it('reads an empty code as a failed sign-in, not as a code to exchange', () => {
    expect(readOidcReturn(at('?oidc_code='), null)).toEqual({
      code: null,
      error: 'oidc_failed',
      cleanUrl: '/',
    });
  });
});

describe('the remembered route', () => {
  it('is read once', () => {
    rememberReturnHash('#/w/default/c/demo');
    expect(takeReturnHash()).toBe('#/w/default/c/demo');
    expect(takeReturnHash()).toBeNull();
  });

  it('is forgotten when the page had none', () => {
    rememberReturnHash('#/old');
    rememberReturnHash('');
    expect(sessionStorage.getItem('skiff.oidc.returnHash')).toBeNull();
    expect(takeReturnHash()).toBeNull();
  });

  it('is only ever a fragment', () => {
    sessionStorage.setItem('skiff.oidc.returnHash', 'https://elsewhere.example/');
    expect(takeReturnHash()).toBeNull();
  });
});

describe('oidcLoginHref', () => {
  it('comes back to this page', () => {
    expect(oidcLoginHref('/v1/auth/oidc/login', '/')).toBe('/v1/auth/oidc/login?returnTo=%2F');
    expect(oidcLoginHref('/v1/auth/oidc/login', '/skiff/')).toBe('/v1/auth/oidc/login?returnTo=%2Fskiff%2F');
    expect(oidcLoginHref('/v1/auth/oidc/login', '/skiff')).toBe('/v1/auth/oidc/login?returnTo=%2Fskiff');
  });

  it('never names anything but a path', () => {
    expect(oidcLoginHref('/v1/auth/oidc/login', 'x')).toBe('/v1/auth/oidc/login?returnTo=%2F');
  });
});

describe('oidcErrorText', () => {
  it('words every code the service sends, naming the provider', () => {
    const texts = OIDC_ERROR_CODES.map((c) => oidcErrorText(c, 'Dex'));
    for (const t of texts) expect(t).not.toContain('did not work');
    expect(new Set(texts).size).toBe(OIDC_ERROR_CODES.length);
  });

  it('says an unreachable provider leaves the password to administrators', () => {
    expect(oidcErrorText('oidc_unavailable', 'Keycloak')).toBe(
      'Keycloak cannot be reached right now, so you were not signed in. Try again in a moment; administrators can still sign in with a password.',
    );
  });

  it('says what to do after a refusal', () => {
    expect(oidcErrorText('oidc_state_mismatch', 'Dex')).toContain('Sign in again from this page.');
    expect(oidcErrorText('oidc_code_rejected', 'Dex')).toContain('Dex refused');
    expect(oidcErrorText('oidc_token_invalid', 'Dex')).toContain("service's log");
    expect(oidcErrorText('oidc_access_removed', 'Dex')).toContain('Your access was removed at Dex');
    expect(oidcErrorText('oidc_denied', 'Dex')).toContain('cancelled or refused');
    expect(oidcErrorText('oidc_account_conflict', 'Dex')).toContain('Ask an administrator to rename');
  });

  it('names an unknown code only when it looks like one', () => {
    expect(oidcErrorText('oidc_new_thing', 'Dex')).toBe(
      'Signing in with Dex did not work (oidc_new_thing). Try again.',
    );
    expect(oidcErrorText('Call +1 555 0100 for help', 'Dex')).toBe(
      'Signing in with Dex did not work. Try again.',
    );
    // Words after a code-like start are not a code either.
    expect(oidcErrorText('call us at 555', 'Dex')).toBe('Signing in with Dex did not work. Try again.');
  });
});
