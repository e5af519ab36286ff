import { HttpMethod, type KubeConfig, RequestContext } from '@kubernetes/client-node';
import { fetch } from 'undici';
import { ProblemError } from '../errors';

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

function isAbort(err: unknown): err is Error {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

/**
 * Raw JSON requests through client-node's kubeconfig handling: the same authentication, TLS
 * settings and dispatcher its Watch and Log use. We keep the body as the apiserver sent it because
 * the typed client re-serialises objects (dates lose their exact form, unknown fields vanish) and a
 * manifest view must show what the cluster holds.
 */
export class KubeClient {
  constructor(
    readonly kubeConfig: KubeConfig,
    readonly server: string,
  ) {}

  /** Opens a request and returns the response once headers arrive; the body is the caller's to read. */
  async open(path: string, opts: RequestOptions): Promise<{ response: Response; timedOut: () => boolean }> {
    const url = new URL(this.server.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    const ctx = new RequestContext(url.toString(), HttpMethod.GET);
    await this.kubeConfig.applySecurityAuthentication(ctx);
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    const timedOut = () => timeout.aborted;
    try {
      const response = await fetch(url, {
        method: 'GET',
        headers: { ...ctx.getHeaders(), Accept: 'application/json' },
        dispatcher: ctx.getDispatcher(),
        signal,
      });
      return { response: response as unknown as Response, timedOut };
    } catch (err) {
      throw mapTransportError(err, timedOut(), opts.timeoutMs);
    }
  }

  /** Closes the cluster's connections. */
  async close(): Promise<void> {}

  async getJson<T>(path: string, opts: RequestOptions): Promise<T> {
    const { response, timedOut } = await this.open(path, opts);
    let text: string;
    try {
      text = await response.text();
    } catch (err) {
      throw mapTransportError(err, timedOut(), opts.timeoutMs);
    }
    if (response.ok) return JSON.parse(text) as T;
    throw new KubeRequestError(response.status, parseStatus(text), statusMessage(response.status, text));
  }
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

function mapTransportError(err: unknown, timedOut: boolean, timeoutMs: number): Error {
  if (isAbort(err) && timedOut) {
    return new ProblemError('cluster_timeout', `the cluster did not answer within ${timeoutMs / 1000} s`);
  }
  if (isAbort(err)) return err;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return new ProblemError(
    'cluster_unreachable',
    `the cluster could not be reached: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
  );
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
