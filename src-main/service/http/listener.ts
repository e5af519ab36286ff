/**
 * The service's HTTP listener: the Node server around the request handler (request-handler.ts),
 * holding every bound on clients rather than on answers. Rules:
 * - Slow requests are ended by Node's own header and request timeouts; connections that send
 *   nothing, or wait on their client in numbers, by the ConnectionGuard; maxConnections is the last
 *   resort (half the open-file limit, at most 8,192). Answers (lists, log follows) are never bounded.
 * - What cannot be taken whole (timeouts, oversized or malformed requests) is answered in
 *   problem+json by client-error.ts, like every other error.
 * - Floods are logged as one warning per 10 s with a count, never a line per connection.
 * - With a TLS pair (`--tls-cert/--tls-key`, tls-files.ts) the same server speaks HTTPS, with the
 *   same bounds: the handshake is bounded by the headers timeout, and the guard counts the
 *   connections once their handshake is done.
 */
import { readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Logger } from '../logger';
import { answerClientErrors, MAX_HEAD_BYTES } from './client-error';
import { ConnectionGuard } from './connection-guard';
import type { TlsPair } from './tls-files';

/** How the HTTP server treats slow, silent and numerous clients; every field has a default. */
export interface HttpServerOptions {
  /** Time to receive a request's headers, from its first byte (or from connecting). */
  headersTimeoutMs?: number;
  /** Time to receive a whole request, headers and body. Answers (lists, log follows) are not bounded by it. */
  requestTimeoutMs?: number;
  /** How long a connection may sit idle between requests. */
  keepAliveTimeoutMs?: number;
  /** Connections waiting on their client at once; past it the longest waiting is closed. */
  maxWaitingConnections?: number;
  /** Last-resort cap on all connections; past it new connections are refused. */
  maxConnections?: number;
  /** How often the timeouts above are checked. */
  checkIntervalMs?: number;
}

export const HTTP_DEFAULTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxWaitingConnections: 256,
  checkIntervalMs: 1_000,
} as const;

/** Linux keeps the limit Node raised at startup in /proc; elsewhere assume a common default. */
function openFileLimit(): number {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (m) return Number(m[1]);
  } catch {
    // Not Linux.
  }
  return 4096;
}

/**
 * Half the descriptors, so the cluster connections, watches and files keep theirs, and at most
 * 8,192: far more than a desktop tool or a team's service needs at once.
 */
export function defaultMaxConnections(fdLimit = openFileLimit()): number {
  return Math.max(64, Math.min(8_192, Math.floor(fdLimit / 2)));
}

/**
 * A warning told at once and then at most every 10 s with the count since, so that a flood of
 * slow or surplus connections does not become a flood of log lines.
 */
function burstReporter(logger: Logger, message: string): (fields: Record<string, unknown>) => void {
  let count = 0;
  let quietUntil = 0;
  return (fields) => {
    count++;
    const now = Date.now();
    if (now < quietUntil) return;
    logger.warn({ ...fields, count }, message);
    count = 0;
    quietUntil = now + 10_000;
  };
}

/**
 * The service's HTTP server: Node's own timeouts for slow requests, the ConnectionGuard for the
 * number of connections slow or silent clients hold, maxConnections as the last resort, and
 * client-error.ts for what a request that could not be taken whole is told.
 */
export function createHttpServer(
  listener: RequestListener,
  options: HttpServerOptions,
  logger: Logger,
  /** Serve HTTPS with this certificate and key. */
  tls?: TlsPair,
): Server {
  const requestTimeout = options.requestTimeoutMs ?? HTTP_DEFAULTS.requestTimeoutMs;
  // Node refuses a headers timeout longer than the request timeout.
  const headersTimeout = Math.min(options.headersTimeoutMs ?? HTTP_DEFAULTS.headersTimeoutMs, requestTimeout);
  const maxConnections = options.maxConnections ?? defaultMaxConnections();
  const httpOptions = {
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? HTTP_DEFAULTS.keepAliveTimeoutMs,
    connectionsCheckingInterval: options.checkIntervalMs ?? HTTP_DEFAULTS.checkIntervalMs,
    // Set, not left to Node's default (or its --max-http-header-size), so the documented bound holds.
    maxHeaderSize: MAX_HEAD_BYTES,
  };
  // An https.Server has every method of an http.Server this module and its helpers use.
  const server = tls
    ? (createHttpsServer({ ...httpOptions, ...tls, handshakeTimeout: headersTimeout }) as unknown as Server)
    : createServer(httpOptions);
  server.maxConnections = maxConnections;
  const evicted = burstReporter(
    logger,
    'too many connections waiting on their clients; closed the longest waiting',
  );
  const refused = burstReporter(logger, 'connection limit reached; new connections are refused');
  // Attached before the request listener, so it sees each request before any answer can finish.
  const maxWaiting = Math.min(
    options.maxWaitingConnections ?? HTTP_DEFAULTS.maxWaitingConnections,
    Math.max(1, Math.floor(maxConnections / 2)),
  );
  new ConnectionGuard(server, {
    maxWaiting,
    firstRequestTimeoutMs: headersTimeout,
    checkIntervalMs: options.checkIntervalMs ?? HTTP_DEFAULTS.checkIntervalMs,
    // Past the bound is a flood worth a warning; a silent connection timing out is routine (a
    // browser's unused preconnect).
    onClose: (reason) =>
      reason === 'evicted'
        ? evicted({ maxWaiting })
        : logger.debug({ headersTimeoutMs: headersTimeout }, 'closed a connection that sent no request'),
  });
  // Timeouts, oversized and malformed requests answered in problem+json, as every other error is.
  server.on(
    'request',
    answerClientErrors(server, listener, { headersMs: headersTimeout, requestMs: requestTimeout }),
  );
  server.on('drop', () => refused({ maxConnections }));
  return server;
}
