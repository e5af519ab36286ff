/**
 * How a failed connection to a cluster is named: the error undici throws (a TypeError "fetch
 * failed" wrapping the socket's or TLS's coded error, sometimes an AggregateError of several
 * addresses) turned into the problem a user reads, one rule per cause.
 */
import { describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { createDispatchers, isAbort, isStaleConnection, transportProblem } from './transport';

const SERVER = 'https://kube.example.test:6443';

/** What fetch rejects with when a connection fails: the coded error sits in its cause. */
function fetchFailed(code: string | undefined, message = 'socket says no'): TypeError {
  const cause = Object.assign(new Error(message), code === undefined ? {} : { code });
  return new TypeError('fetch failed', { cause });
}

function problemOf(err: unknown, timedOut = false): ProblemError {
  const out = transportProblem(err, timedOut, 1_500, SERVER);
  expect(out).toBeInstanceOf(ProblemError);
  return out as ProblemError;
}

const unreachable = (text: string) => `the cluster at ${SERVER} could not be reached: ${text}`;

describe('a failed request as a problem', () => {
  it('past its deadline is a 504 naming the timeout in seconds', () => {
    const p = problemOf(new DOMException('timed out', 'TimeoutError'), true);
    expect(p.code).toBe('cluster_timeout');
    expect(p.message).toBe('the cluster did not answer within 1.5 s');
  });

  it("undici's own connect, headers and body timeouts are 504s naming the code", () => {
    for (const code of ['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']) {
      const p = problemOf(fetchFailed(code));
      expect(p.code, code).toBe('cluster_timeout');
      expect(p.message).toBe(`the cluster at ${SERVER} did not answer in time (${code})`);
    }
  });

  it("a problem already named passes through, and so does the caller's own abort", () => {
    const named = new ProblemError('cluster_unauthorized', 'the token was refused');
    expect(transportProblem(named, true, 1_000, SERVER)).toBe(named);
    const abort = new DOMException('the client went away', 'AbortError');
    expect(transportProblem(abort, false, 1_000, SERVER)).toBe(abort);
  });

  it.each([
    ['ECONNREFUSED', 'connection refused (ECONNREFUSED)'],
    ['ENOTFOUND', 'the host name kube.example.test could not be resolved (ENOTFOUND)'],
    ['EAI_AGAIN', 'the host name kube.example.test could not be resolved (EAI_AGAIN)'],
    ['EHOSTUNREACH', 'no route to kube.example.test (EHOSTUNREACH)'],
    ['ENETUNREACH', 'no route to kube.example.test (ENETUNREACH)'],
    ['ECONNRESET', 'the connection was reset: socket says no (ECONNRESET)'],
    ['EPIPE', 'the connection was reset: socket says no (EPIPE)'],
    ['UND_ERR_SOCKET', 'the connection was reset: socket says no (UND_ERR_SOCKET)'],
    ['UND_ERR_DESTROYED', 'its connections were closed'],
    ['UND_ERR_CLOSED', 'its connections were closed'],
    [
      'SELF_SIGNED_CERT_IN_CHAIN',
      "TLS: the cluster's certificate is not signed by the certificate authority the kubeconfig trusts: socket says no (SELF_SIGNED_CERT_IN_CHAIN)",
    ],
    [
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      "TLS: the cluster's certificate is not signed by the certificate authority the kubeconfig trusts: socket says no (UNABLE_TO_VERIFY_LEAF_SIGNATURE)",
    ],
    [
      'CERT_HAS_EXPIRED',
      "TLS: the cluster's certificate is not valid now: socket says no (CERT_HAS_EXPIRED)",
    ],
    [
      'CERT_NOT_YET_VALID',
      "TLS: the cluster's certificate is not valid now: socket says no (CERT_NOT_YET_VALID)",
    ],
    [
      'ERR_TLS_CERT_ALTNAME_INVALID',
      "TLS: the cluster's certificate is not issued for kube.example.test (tls-server-name may help): socket says no (ERR_TLS_CERT_ALTNAME_INVALID)",
    ],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'TLS handshake failed: socket says no (ERR_SSL_WRONG_VERSION_NUMBER)'],
    ['ERR_TLS_HANDSHAKE_TIMEOUT', 'TLS handshake failed: socket says no (ERR_TLS_HANDSHAKE_TIMEOUT)'],
    ['ERR_OSSL_PEM_NO_START_LINE', 'TLS setup failed: socket says no (ERR_OSSL_PEM_NO_START_LINE)'],
    ['ESOMETHINGNEW', 'socket says no (ESOMETHINGNEW)'],
  ])('%s is a 502 saying what happened', (code, text) => {
    const p = problemOf(fetchFailed(code));
    expect(p.code).toBe('cluster_unreachable');
    expect(p.message).toBe(unreachable(text));
  });

  it('an error without a code is named by its own message', () => {
    expect(problemOf(fetchFailed(undefined, 'the proxy said 407')).message).toBe(
      unreachable('the proxy said 407'),
    );
    expect(problemOf('a bare string').message).toBe(unreachable('a bare string'));
  });

  it('of several addresses tried (an AggregateError), the first one tried names the cause', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:6443'), { code: 'ECONNREFUSED' });
    const unreachableV4 = Object.assign(new Error('connect EHOSTUNREACH'), { code: 'EHOSTUNREACH' });
    const err = new TypeError('fetch failed', { cause: new AggregateError([refused, unreachableV4], '') });
    expect(problemOf(err).message).toBe(unreachable('connection refused (ECONNREFUSED)'));
  });

  it('a cause wrapped several times is followed to the innermost coded error', () => {
    const inner = Object.assign(new Error('reset by peer'), { code: 'ECONNRESET' });
    const middle = new Error('socket error', { cause: inner });
    const err = new TypeError('fetch failed', { cause: new Error('request failed', { cause: middle }) });
    expect(problemOf(err).message).toBe(unreachable('the connection was reset: reset by peer (ECONNRESET)'));
  });

  it('the outermost error with a code is the one named, not a cause beneath it', () => {
    const inner = Object.assign(new Error('inner'), { code: 'ECONNRESET' });
    const outer = Object.assign(new Error('refused', { cause: inner }), { code: 'ECONNREFUSED' });
    expect(problemOf(new TypeError('fetch failed', { cause: outer })).message).toBe(
      unreachable('connection refused (ECONNREFUSED)'),
    );
  });

  it('a server that is not a URL is named as written', () => {
    const p = transportProblem(fetchFailed('ENOTFOUND'), false, 1_000, 'not a url') as ProblemError;
    expect(p.message).toBe(
      'the cluster at not a url could not be reached: the host name not a url could not be resolved (ENOTFOUND)',
    );
  });
});

describe('a connection worth one more try', () => {
  it('is one a keep-alive peer reset or closed under us, and nothing else', () => {
    for (const code of ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'])
      expect(isStaleConnection(fetchFailed(code)), code).toBe(true);
    for (const code of ['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', undefined]) {
      expect(isStaleConnection(fetchFailed(code)), String(code)).toBe(false);
    }
  });
});

describe('isAbort', () => {
  it('is an AbortError or a TimeoutError, not any error', () => {
    expect(isAbort(new DOMException('x', 'AbortError'))).toBe(true);
    expect(isAbort(new DOMException('x', 'TimeoutError'))).toBe(true);
    expect(isAbort(new Error('AbortError'))).toBe(false);
    expect(isAbort({ name: 'AbortError' })).toBe(false);
  });
});

describe('proxy-url', () => {
  it('a scheme other than http, https or socks5 is refused, naming the proxy', () => {
    expect(() => createDispatchers('ftp://proxy.example.test:21', {}, undefined)).toThrow(
      "the cluster's TLS settings cannot be used: proxy-url ftp://proxy.example.test:21: only http, https and socks5 proxies are supported",
    );
  });
});
