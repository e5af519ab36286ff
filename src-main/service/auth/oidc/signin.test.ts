/**
 * The problem each kind of provider failure is answered with (signin.ts problemOf): the code
 * decides the HTTP status and the page's words, and the message carries what the provider said.
 * The sign-in itself, check by check, is exercised against the real provider by the
 * oidc-*.it.test.ts files beside this one.
 */
import { describe, expect, it } from 'vitest';
import { OidcFailure } from './relying-party';
import { problemOf } from './signin';

const failure = (kind: OidcFailure['kind']) => new OidcFailure(kind, 'what the provider said');

describe('problemOf', () => {
  it('a provider that cannot be reached is oidc_unavailable, whatever was under way', () => {
    for (const during of ['callback', 'login', 'recheck'] as const) {
      expect(problemOf(failure('unavailable'), during)).toMatchObject({
        code: 'oidc_unavailable',
        message: 'the identity provider cannot be reached right now: what the provider said',
      });
    }
  });

  it("the provider's refusal of the sign-in is oidc_denied", () => {
    expect(problemOf(failure('denied'), 'callback')).toMatchObject({
      code: 'oidc_denied',
      message: 'the identity provider refused the sign-in: what the provider said',
    });
  });

  it('a refused grant is the code refused at a sign-in, and access removed at a recheck', () => {
    for (const during of ['callback', 'login'] as const) {
      expect(problemOf(failure('rejected'), during)).toMatchObject({
        code: 'oidc_code_rejected',
        message: 'the identity provider refused the authorization code: what the provider said',
      });
    }
    expect(problemOf(failure('rejected'), 'recheck')).toMatchObject({
      code: 'oidc_access_removed',
      message: 'the identity provider no longer accepts this user: what the provider said',
    });
  });

  it('an ID token that fails a check is oidc_token_invalid', () => {
    expect(problemOf(failure('invalid'), 'callback')).toMatchObject({
      code: 'oidc_token_invalid',
      message: 'the ID token was refused: what the provider said',
    });
  });
});
