/**
 * The client of one cluster: raw JSON requests, authenticated and secured as its kubeconfig context
 * says (credentials.ts, tls-options.ts) over its bounded connections (transport.ts). Rules: the body
 * is kept as the apiserver sent it; a short request's deadline covers its body, a stream's only its
 * headers; a refusal with an answer is a KubeRequestError (the Status kept raw), every failure
 * before an answer a ProblemError; a socket closed under a request is retried once; a closed
 * client sends nothing.
 */
import { fetch, request } from 'undici';
import { ProblemError } from '../errors';
import { ClusterCredentials, type CredentialOptions, type RequestCredential } from './credentials';
import type { ContextConfig } from './kubeconfig';
import { type TlsSettings, tlsSettingsOf } from './tls-options';
import {
  createDispatchers,
  type Dispatchers,
  destroyDispatchers,
  isStaleConnection,
  transportProblem,
} from './transport';

export interface KubeStatus {
  kind?: string;
  message?: string;
  reason?: string;
  code?: number;
}

export interface RequestOptions {
  query?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Bounds the whole request; for a stream, only the wait for the response headers. */
  timeoutMs: number;
  /** A long-lived request (watch, log follow): served by the cluster's stream connections. */
  stream?: boolean;
  /** The Accept header, when not plain JSON (aggregated discovery asks for its own media type). */
  accept?: string;
}

/** A failure the cluster reported, kept raw so callers can tell NotFound from Forbidden. */
export class KubeRequestError extends Error {
  constructor(
    readonly statusCode: number,
    readonly status: KubeStatus | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'KubeRequestError';
  }
}

/**
 * A short request's deadline covers its body too (AbortSignal.timeout, which costs nothing once
 * the request is done); a stream's ends once headers arrive, after which only the caller's
 * signal ends it.
 */
function deadlineOf(opts: RequestOptions): { deadline: AbortSignal; headersArrived: () => void } {
  if (!opts.stream) return { deadline: AbortSignal.timeout(opts.timeoutMs), headersArrived: () => {} };
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('the wait for headers timed out', 'TimeoutError')),
    opts.timeoutMs,
  );
  return { deadline: controller.signal, headersArrived: () => clearTimeout(timer) };
}

/** The dispatchers in use, and the client certificate (from an exec plugin) they were built for. */
interface Transport {
  pair: RequestCredential['clientPair'];
  dispatchers: Dispatchers;
}

/**
 * Raw JSON requests to one cluster, authenticated and secured as its kubeconfig context says.
 * We keep the body as the apiserver sent it because the typed client re-serialises objects
 * (dates lose their exact form, unknown fields vanish) and a manifest view must show what the
 * cluster holds. Every request goes through the cluster's two bounded keep-alive dispatchers
 * (see transport.ts); every failure before a response is a ProblemError, never a raw error.
 */
export class KubeClient {
  private readonly credentials: ClusterCredentials;
  private tls: TlsSettings | undefined;
  private transport: Transport | undefined;
  /** Dispatchers replaced after an exec plugin rotated its client certificate, still draining. */
  private readonly retired = new Set<Dispatchers>();
  private closed = false;

  constructor(
    readonly config: ContextConfig,
    readonly server: string,
    credentialOptions: CredentialOptions = {},
  ) {
    this.credentials = new ClusterCredentials(config, credentialOptions);
  }

  /**
   * Opens a request and returns the response once headers arrive; the body is the caller's to
   * read (watches, logs).
   */
  async open(path: string, opts: RequestOptions): Promise<{ response: Response; timedOut: () => boolean }> {
    return this.attempt(path, opts, async ({ url, headers, dispatchers, signal }) => {
      const answer = await fetch(url, {
        method: 'GET',
        headers,
        dispatcher: opts.stream ? dispatchers.stream : dispatchers.short,
        signal,
      });
      const response = answer as unknown as Response;
      return { status: response.status, value: response, discard: () => response.body?.cancel() };
    }).then(({ value, timedOut }) => ({ response: value, timedOut }));
  }

  /**
   * One request through the retry rules: a 401 to an exec plugin's cached credential runs the
   * plugin again and retries once, as client-go refreshes it; a keep-alive socket the server
   * closed under us is retried once too. Every failure before headers is a ProblemError.
   */
  private async attempt<T>(
    path: string,
    opts: RequestOptions,
    send: (req: {
      url: URL;
      headers: Record<string, string>;
      dispatchers: Dispatchers;
      signal: AbortSignal;
    }) => Promise<{ status: number; value: T; discard: () => Promise<unknown> | undefined }>,
  ): Promise<{ value: T; timedOut: () => boolean }> {
    const { deadline, headersArrived } = deadlineOf(opts);
    const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
    const timedOut = () => deadline.aborted;
    let retriedAuth = false;
    let retriedSocket = false;
    try {
      const url = new URL(this.server.replace(/\/+$/, '') + path);
      for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
      for (;;) {
        if (this.closed) throw new ProblemError('cluster_unreachable', 'the cluster connection was closed');
        // TLS settings are read once; a broken CA, certificate or key is a problem naming it, read
        // again on the next request so a fixed file is picked up.
        this.tls ??= tlsSettingsOf(this.config);
        const credential = await this.credentials.resolve(signal, timedOut, opts.timeoutMs);
        const dispatchers = this.dispatchersFor(this.tls, credential.clientPair);
        let answer: Awaited<ReturnType<typeof send>>;
        try {
          answer = await send({
            url,
            headers: { ...credential.headers, Accept: opts.accept ?? 'application/json' },
            dispatchers,
            signal,
          });
        } catch (err) {
          if (!retriedSocket && !signal.aborted && isStaleConnection(err)) {
            retriedSocket = true;
            continue;
          }
          throw err;
        }
        if (answer.status === 401 && !retriedAuth && this.credentials.invalidate(credential)) {
          retriedAuth = true;
          await Promise.resolve(answer.discard()).catch(() => {});
          continue;
        }
        headersArrived();
        return { value: answer.value, timedOut };
      }
    } catch (err) {
      headersArrived();
      throw transportProblem(err, timedOut(), opts.timeoutMs, this.server);
    }
  }

  /**
   * Closes the cluster's connections; requests still open end with cluster_unreachable. A
   * credential plugin still running is ended with everything it started.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.credentials.close();
    const all = [...this.retired, ...(this.transport ? [this.transport.dispatchers] : [])];
    this.transport = undefined;
    this.retired.clear();
    await Promise.all(all.map(destroyDispatchers));
  }

  /**
   * A short GET read whole. It goes through undici's `request`, not `fetch`: a single-pod GET
   * spent about 29% of its CPU building fetch's Request, Headers and web streams.
   */
  getJson<T>(path: string, opts: RequestOptions): Promise<T> {
    return this.shortJson<T>(path, opts);
  }

  /**
   * A short POST of a JSON body, its answer read whole: a review the apiserver computes and does not
   * keep (SubjectAccessReview, for `--authorize rbac`). Skiff writes nothing to a cluster.
   */
  postJson<T>(path: string, body: unknown, opts: RequestOptions): Promise<T> {
    return this.shortJson<T>(path, opts, JSON.stringify(body));
  }

  /** One short request answered with JSON: a GET, or a POST of `payload` when there is one. */
  private async shortJson<T>(path: string, opts: RequestOptions, payload?: string): Promise<T> {
    const { value: answer, timedOut } = await this.attempt(
      path,
      opts,
      async ({ url, headers, dispatchers, signal }) => {
        const res = await request(url, {
          dispatcher: dispatchers.short,
          signal,
          ...(payload === undefined
            ? { method: 'GET', headers }
            : { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: payload }),
        });
        return { status: res.statusCode, value: res, discard: () => res.body.dump() };
      },
    );
    let text: string;
    try {
      text = await answer.body.text();
    } catch (err) {
      throw transportProblem(err, timedOut(), opts.timeoutMs, this.server);
    }
    const status = answer.statusCode;
    if (status >= 200 && status < 300) {
      try {
        return JSON.parse(text) as T;
      } catch {
        // A proxy or load balancer in front of the apiserver answering with its own page.
        throw new ProblemError(
          'cluster_error',
          `the cluster answered ${path} with a body that is not JSON: ${text.trim().slice(0, 200)}`,
        );
      }
    }
    throw new KubeRequestError(status, parseStatus(text), statusMessage(status, text));
  }

  /** The dispatchers for this request; a new client certificate from an exec plugin gets new ones. */
  private dispatchersFor(tls: TlsSettings, pair: RequestCredential['clientPair']): Dispatchers {
    const current = this.transport;
    if (current && samePair(current.pair, pair)) return current.dispatchers;
    const dispatchers = createDispatchers(this.config.cluster.proxyUrl, tls, pair);
    if (current) {
      // Open watches keep the old certificate until they end; close() lets them finish.
      const old = current.dispatchers;
      this.retired.add(old);
      void Promise.all([old.short.close(), old.stream.close()])
        .catch(() => {})
        .finally(() => this.retired.delete(old));
    }
    this.transport = { pair, dispatchers };
    return dispatchers;
  }
}

function samePair(a: RequestCredential['clientPair'], b: RequestCredential['clientPair']): boolean {
  if (!a || !b) return a === b;
  return a.cert.equals(b.cert) && a.key.equals(b.key);
}

export function parseStatus(text: string): KubeStatus | undefined {
  try {
    const parsed = JSON.parse(text) as KubeStatus;
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function statusMessage(code: number, text: string): string {
  return parseStatus(text)?.message ?? (text.trim().slice(0, 500) || `HTTP ${code}`);
}

/** Turns a cluster failure into the API's problem; 404 is the caller's "not found" with the cluster's words. */
export function toProblem(err: unknown, what: string): unknown {
  if (!(err instanceof KubeRequestError)) return err;
  if (err.statusCode === 404) return new ProblemError('resource_not_found', `${what} not found`);
  if (err.statusCode === 401 || err.statusCode === 403) {
    return new ProblemError('cluster_unauthorized', `the cluster refused our credentials: ${err.message}`, {
      clusterStatus: err.statusCode,
    });
  }
  return new ProblemError('cluster_error', `the cluster answered ${err.statusCode}: ${err.message}`, {
    clusterStatus: err.statusCode,
  });
}
