import type { Readable } from 'node:stream';
import { ApiException, type KubeConfig, Log } from '@kubernetes/client-node';
import { type KubeClient, type KubeStatus, parseStatus } from '../clusters/kube-client';
import { ProblemError } from '../errors';
import { LineReader } from './line-reader';

export interface KubeLogDeps {
  kubeConfig: KubeConfig;
  /** For the one request Log cannot make for us: reading the cluster's reason for a refusal. */
  client: KubeClient;
  timeoutMs: number;
}

export interface KubeLogRequest {
  namespace: string;
  pod: string;
  container: string;
  follow: boolean;
  previous: boolean;
  /** RFC 3339; the kubelet compares at whole seconds, so callers dedupe the overlap. */
  sinceTime?: string;
  tailLines?: number;
}

/** One open log request: batches of lines as the kubelet wrote them, always timestamped. */
export interface KubeLogConnection {
  next(): Promise<string[] | null>;
  /** True when the connection broke rather than reaching the end of the log. */
  readonly dropped: boolean;
  close(): void;
}

function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

/** The kubelet's and apiserver's refusals, as the API's problems. */
export function logProblem(code: number, status: KubeStatus | undefined, req: KubeLogRequest): ProblemError {
  const message = status?.message ?? `HTTP ${code}`;
  const extensions = { clusterStatus: code, ...(status?.reason ? { clusterReason: status.reason } : {}) };
  if (code === 400) return new ProblemError('log_unavailable', message, extensions);
  if (code === 404) {
    return new ProblemError('resource_not_found', `pod "${req.pod}" not found in namespace ${req.namespace}`);
  }
  if (code === 401 || code === 403) {
    return new ProblemError(
      'cluster_unauthorized',
      `the cluster refused our credentials: ${message}`,
      extensions,
    );
  }
  return new ProblemError('cluster_error', `the cluster answered ${code}: ${message}`, extensions);
}

/**
 * client-node's Log drops the body of every refusal but a 500, so the kubelet's reason ("is
 * waiting to start: …", "previous terminated container … not found") would be lost. We ask
 * ourselves, for at most one byte, and read the Status. null: the cluster accepts the request.
 */
async function probe(
  deps: KubeLogDeps,
  req: KubeLogRequest,
  signal: AbortSignal,
): Promise<ProblemError | null> {
  const path = `/api/v1/namespaces/${encodeURIComponent(req.namespace)}/pods/${encodeURIComponent(req.pod)}/log`;
  const { response } = await deps.client.open(path, {
    query: {
      container: req.container,
      previous: String(req.previous),
      limitBytes: '1',
      ...(req.sinceTime ? { sinceTime: req.sinceTime } : {}),
    },
    signal,
    timeoutMs: deps.timeoutMs,
  });
  const text = await response.text();
  if (response.ok) return null;
  return logProblem(response.status, parseStatus(text), req);
}

/**
 * Opens one log request with client-node's Log. The kubelet sends no headers before the first
 * byte of log, so a follow of a quiet container cannot be told from a hung apiserver by waiting:
 * a follow is therefore checked first with a one-byte request of our own (which also reads the
 * kubelet's reason for a refusal) and then opened without waiting. A request without follow is
 * answered at once, so it is awaited, with the cluster timeout; its refusal is read the same way.
 * Log has no signal until it hands over its controller, so an abort before that aborts as soon
 * as it does (undici's 300 s headers timeout bounds a request that never gets an answer; for a
 * follow that only means a resumed connection).
 */
export async function openKubeLog(
  deps: KubeLogDeps,
  req: KubeLogRequest,
  signal: AbortSignal,
  retried = false,
): Promise<KubeLogConnection> {
  if (signal.aborted) throw signal.reason;
  if (req.follow) {
    const refusal = await probe(deps, req, signal);
    if (refusal) throw refusal;
  }
  const reader = new LineReader();
  let closed = false;
  let controller: AbortController | undefined;
  // Log pipes the response body into our Writable and keeps the source to itself; aborting it
  // makes that source emit an AbortError with no listener, which would crash the process. The
  // 'pipe' event is the one place the source is visible, so the listener is attached there.
  reader.writable.on('pipe', (source: Readable) => {
    source.on('error', (err: unknown) => reader.end(!closed && !isAbortError(err)));
  });
  // A tailLines of 0 is falsy to Log and would not be sent; "no lines" is handled by the caller.
  const pending = new Log(deps.kubeConfig).log(req.namespace, req.pod, req.container, reader.writable, {
    follow: req.follow,
    previous: req.previous,
    timestamps: true,
    ...(req.sinceTime ? { sinceTime: req.sinceTime } : {}),
    ...(req.tailLines ? { tailLines: req.tailLines } : {}),
  });
  const close = () => {
    if (closed) return;
    closed = true;
    reader.end();
    controller?.abort();
  };
  const connection: KubeLogConnection = {
    next: async () => {
      const lines = await reader.next();
      if (lines === null) signal.removeEventListener('abort', close);
      return lines;
    },
    get dropped() {
      return reader.wasDropped;
    },
    close,
  };

  if (req.follow) {
    pending.then(
      (c) => {
        controller = c;
        if (closed) c.abort();
      },
      // Accepted a moment ago, refused now (the container stopped in between): the caller sees a
      // dropped connection and decides from the pod what happened.
      () => reader.end(!closed),
    );
  } else {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const lost = new Promise<never>((_, reject) => {
      const seconds = deps.timeoutMs / 1000;
      timer = setTimeout(
        () => reject(new ProblemError('cluster_timeout', `the cluster did not answer within ${seconds} s`)),
        deps.timeoutMs,
      );
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      controller = await Promise.race([pending, lost]);
    } catch (err) {
      close();
      pending.then((c) => c.abort()).catch(() => {});
      if (!(err instanceof ApiException)) throw err;
      // Log keeps the Status of a 500 (an unreachable kubelet); anything else must be read again.
      const body: unknown = err.body;
      if (typeof body === 'object' && body !== null) throw logProblem(err.code, body as KubeStatus, req);
      const refusal = await probe(deps, req, signal);
      if (refusal === null && !retried) return openKubeLog(deps, req, signal, true);
      throw refusal ?? new ProblemError('cluster_error', 'the cluster refused the log request twice');
    } finally {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }
  if (signal.aborted) close();
  else signal.addEventListener('abort', close, { once: true });
  return connection;
}
