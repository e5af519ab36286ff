/**
 * The connections to one cluster: two undici dispatchers with keep-alive and a bound on open
 * sockets. Short requests (lists, gets, metrics, log probes) share up to SHORT_CONNECTIONS;
 * long-lived ones (watches, log follows) have their own STREAM_CONNECTIONS, so a page of
 * follows can never take the sockets a detail view needs. The TLS material is loaded into one
 * secure context per dispatcher pair: Node would otherwise parse the CA bundle on every connect.
 * `proxy-url` is honoured for http, https and socks5 proxies (undici's ProxyAgent).
 */

import { createSecureContext } from 'node:tls';
import { Agent, type Dispatcher, ProxyAgent } from 'undici';
import { ProblemError } from '../errors';
import { type ClientPair, setupProblem, type TlsSettings } from './tls-options';

export const SHORT_CONNECTIONS = 32;
export const STREAM_CONNECTIONS = 128;
/** Idle sockets are kept this long unless the server's Keep-Alive hint says less. */
const KEEP_ALIVE_MS = 30_000;
/** TCP keep-alive probes, as client-go sends them, so a silently dead peer is noticed. */
const TCP_KEEP_ALIVE_MS = 30_000;

export interface Dispatchers {
  short: Dispatcher;
  stream: Dispatcher;
}

function secureOptions(tls: TlsSettings, pair: ClientPair | undefined) {
  const cert = pair?.cert ?? tls.cert;
  const key = pair?.key ?? tls.key;
  const hasMaterial = tls.ca !== undefined || cert !== undefined;
  return {
    ...(hasMaterial
      ? { secureContext: createSecureContext({ ca: tls.ca, ...(cert && key ? { cert, key } : {}) }) }
      : {}),
    ...(tls.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}),
    ...(tls.servername ? { servername: tls.servername } : {}),
  };
}

/** Builds the pair of dispatchers; `pair` is an exec plugin's client certificate, if it gave one. */
export function createDispatchers(
  proxyUrl: string | undefined,
  tls: TlsSettings,
  pair: ClientPair | undefined,
): Dispatchers {
  const secure = secureOptions(tls, pair);
  const connect = { ...secure, keepAlive: true, keepAliveInitialDelay: TCP_KEEP_ALIVE_MS };
  const common = { keepAliveTimeout: KEEP_ALIVE_MS, keepAliveMaxTimeout: 2 * KEEP_ALIVE_MS, pipelining: 1 };
  // A stream may stay silent for hours (a quiet container) and its headers may wait for the first
  // line; the caller bounds the wait for headers and ends the body with its signal.
  const streamTimeouts = { headersTimeout: 0, bodyTimeout: 0 };
  if (proxyUrl) {
    const protocol = new URL(proxyUrl).protocol;
    if (!['http:', 'https:', 'socks5:', 'socks:'].includes(protocol)) {
      throw setupProblem(`proxy-url ${proxyUrl}: only http, https and socks5 proxies are supported`);
    }
    const proxy = (connections: number, extra: object) =>
      new ProxyAgent({ uri: proxyUrl, requestTls: secure, connections, ...common, ...extra });
    return { short: proxy(SHORT_CONNECTIONS, {}), stream: proxy(STREAM_CONNECTIONS, streamTimeouts) };
  }
  return {
    short: new Agent({ connections: SHORT_CONNECTIONS, connect, ...common }),
    stream: new Agent({ connections: STREAM_CONNECTIONS, connect, ...common, ...streamTimeouts }),
  };
}

export async function destroyDispatchers(d: Dispatchers): Promise<void> {
  await Promise.all([d.short.destroy().catch(() => {}), d.stream.destroy().catch(() => {})]);
}

interface CodedError {
  code?: string;
  message?: string;
  cause?: unknown;
  errors?: unknown[];
}

/** The innermost error with a code: undici wraps the socket's error in "fetch failed". */
function rootCause(err: unknown): CodedError {
  let current = err as CodedError;
  for (let depth = 0; depth < 5; depth++) {
    if (Array.isArray(current.errors) && current.errors.length > 0) {
      current = current.errors[0] as CodedError;
      continue;
    }
    if (current.cause === undefined || current.cause === null || current.code) break;
    current = current.cause as CodedError;
  }
  return current;
}

const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);
const TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

function describeCause(code: string, message: string, host: string): string {
  const said = `${message} (${code})`;
  if (code === 'ECONNREFUSED') return `connection refused (${code})`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `the host name ${host} could not be resolved (${code})`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `no route to ${host} (${code})`;
  if (RESET.has(code)) return `the connection was reset: ${said}`;
  if (code === 'UND_ERR_DESTROYED' || code === 'UND_ERR_CLOSED') return 'its connections were closed';
  if (UNTRUSTED.has(code)) {
    return `TLS: the cluster's certificate is not signed by the certificate authority the kubeconfig trusts: ${said}`;
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return `TLS: the cluster's certificate is not valid now: ${said}`;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return `TLS: the cluster's certificate is not issued for ${host} (tls-server-name may help): ${said}`;
  }
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) return `TLS handshake failed: ${said}`;
  if (code.startsWith('ERR_OSSL_')) return `TLS setup failed: ${said}`;
  return said;
}

/** A connection a keep-alive peer closed under us: worth one more try on a fresh socket. */
export function isStaleConnection(err: unknown): boolean {
  return RESET.has(rootCause(err).code ?? '');
}

export function isAbort(err: unknown): err is Error {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

/**
 * A failed request as the API's problem: 504 past the deadline (or an undici timeout), 502
 * cluster_unreachable naming the cause otherwise. The caller's own abort passes through as is.
 */
export function transportProblem(err: unknown, timedOut: boolean, timeoutMs: number, server: string): Error {
  if (err instanceof ProblemError) return err;
  if (timedOut) {
    return new ProblemError('cluster_timeout', `the cluster did not answer within ${timeoutMs / 1000} s`);
  }
  if (isAbort(err)) return err;
  const cause = rootCause(err);
  const code = cause.code ?? '';
  if (TIMEOUTS.has(code)) {
    return new ProblemError('cluster_timeout', `the cluster at ${server} did not answer in time (${code})`);
  }
  const host = URL.canParse(server) ? new URL(server).hostname : server;
  const message = cause.message ?? String(err);
  const text = code ? describeCause(code, message, host) : message;
  return new ProblemError('cluster_unreachable', `the cluster at ${server} could not be reached: ${text}`);
}
