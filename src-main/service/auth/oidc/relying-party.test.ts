/**
 * How provider failures are classified (relying-party.ts classify): what the sign-in answers and
 * what the recheck does depend on it, so each kind is pinned here with the errors openid-client
 * and fetch really throw. The relying party against a real provider is exercised by the
 * *.it.test.ts files beside this one.
 */
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { classify, OidcFailure } from './relying-party';

const bodyError = (status: number, error: string, description?: string) =>
  new client.ResponseBodyError('server responded with an error in the response body', {
    cause: { error, ...(description ? { error_description: description } : {}) },
    response: new Response(null, { status }),
  });

/** openid-client's own error; its type omits the `code` option its constructor reads. */
const clientError = (message: string, code: string, cause?: unknown) =>
  new client.ClientError(message, { code, ...(cause ? { cause } : {}) } as ErrorOptions);

describe('classify', () => {
  it('passes an OidcFailure through as it is', () => {
    const f = new OidcFailure('denied', 'no');
    expect(classify(f)).toBe(f);
  });

  it('a connection that fails or times out is unavailable', () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
    });
    expect(classify(refused)).toMatchObject({
      kind: 'unavailable',
      message: 'the provider did not answer: ECONNREFUSED',
    });
    const deep = Object.assign(new Error('outer'), {
      cause: { cause: Object.assign(new Error('x'), { code: 'UND_ERR_CONNECT_TIMEOUT' }) },
    });
    expect(classify(deep).kind).toBe('unavailable');
    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect(classify(timeout)).toMatchObject({
      kind: 'unavailable',
      message: 'the provider did not answer: The operation was aborted due to timeout',
    });
    expect(classify(new DOMException('aborted', 'AbortError')).kind).toBe('unavailable');
    expect(classify(new TypeError('fetch failed'))).toMatchObject({
      kind: 'unavailable',
      message: 'the provider cannot be reached: fetch failed',
    });
  });

  it('an error whose cause chain holds a timeout is unavailable, saying it did not answer in time', () => {
    for (const name of ['TimeoutError', 'AbortError']) {
      const err = new Error('request failed', {
        cause: new Error('the body could not be read', { cause: new DOMException('gave up', name) }),
      });
      const failure = classify(err);
      expect(failure).toMatchObject({ kind: 'unavailable', message: 'the provider did not answer in time' });
      expect(failure.cause).toBe(err);
    }
  });

  it("the provider's error= on the callback is denied, with its description", () => {
    const err = new client.AuthorizationResponseError('authorization response from the server is an error', {
      cause: new URLSearchParams({ error: 'access_denied', error_description: 'user declined' }),
    });
    expect(classify(err)).toMatchObject({
      kind: 'denied',
      message: 'the provider answered access_denied: user declined',
    });
    const bare = new client.AuthorizationResponseError('x', {
      cause: new URLSearchParams({ error: 'login_required' }),
    });
    expect(classify(bare).message).toBe('the provider answered login_required');
  });

  it('a token endpoint refusal is rejected; its server failure is unavailable', () => {
    expect(classify(bodyError(400, 'invalid_grant', 'grant request is invalid'))).toMatchObject({
      kind: 'rejected',
      message: 'the provider refused: invalid_grant (grant request is invalid)',
    });
    expect(classify(bodyError(401, 'invalid_client')).message).toBe('the provider refused: invalid_client');
    expect(classify(bodyError(499, 'x')).kind).toBe('rejected');
    expect(classify(bodyError(500, 'server_error'))).toMatchObject({
      kind: 'unavailable',
      message: 'the provider failed (500 server_error)',
    });
  });

  it('a check of the answer that fails is invalid, naming the check; a garbled answer is unavailable', () => {
    const claim = clientError(
      'unexpected JWT claim value encountered',
      'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
      new Error('unexpected JWT "aud" (audience) claim value'),
    );
    expect(classify(claim)).toMatchObject({
      kind: 'invalid',
      message: 'unexpected JWT claim value encountered: unexpected JWT "aud" (audience) claim value',
    });
    expect(classify(clientError('bad', 'OAUTH_INVALID_RESPONSE'))).toMatchObject({
      kind: 'invalid',
      message: 'bad',
    });
    for (const code of ['OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON'])
      expect(classify(clientError('odd', code))).toMatchObject({
        kind: 'unavailable',
        message: 'the provider answered unexpectedly: odd',
      });
  });

  it('anything else is invalid, never taken as success', () => {
    expect(classify(new Error('strange'))).toMatchObject({ kind: 'invalid', message: 'strange' });
    expect(classify('text')).toMatchObject({ kind: 'invalid', message: 'text' });
    expect(classify(new TypeError('other type error')).kind).toBe('invalid');
  });

  it('keeps what was thrown as the cause, for the log, whatever the kind', () => {
    const thrown = [
      new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      new client.AuthorizationResponseError('x', { cause: new URLSearchParams({ error: 'access_denied' }) }),
      bodyError(500, 'server_error'),
      bodyError(400, 'invalid_grant'),
      clientError('odd', 'OAUTH_RESPONSE_IS_NOT_CONFORM'),
      clientError('bad', 'OAUTH_INVALID_RESPONSE'),
      new TypeError('fetch failed'),
      new Error('strange'),
    ];
    for (const err of thrown) expect(classify(err).cause).toBe(err);
  });
});
