import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { ProblemError } from '../errors';
import { type KubeClient, type KubeStatus, parseStatus } from '../kube/kube-client';
import { LineReader } from './line-reader';

export interface KubeLogDeps {
  /** The cluster's client: log requests share its connections and credentials. */
  client: KubeClient;
  timeoutMs: number;
  /**
   * Where a cluster with no apiserver reads a log (a snapshot's file: snapshots/snapshot-logs.ts),
   * with the same lines and refusals as the request it stands for; the client is then never used.
   */
  read?: (req: KubeLogRequest) => KubeLogConnection;
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

/**
 * How long a follow may wait for its response headers. The kubelet sends none before the first
 * line, so a quiet container looks like this; past it the connection counts as dropped and the
 * caller resumes it, as it would after a proxy timeout.
 */
const FOLLOW_HEADERS_MS = 300_000;

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

function logPath(req: KubeLogRequest): string {
  return `/api/v1/namespaces/${encodeURIComponent(req.namespace)}/pods/${encodeURIComponent(req.pod)}/log`;
}

/** A refused request's Status, read from its body. */
async function refusal(response: Response, req: KubeLogRequest): Promise<ProblemError> {
  const text = await response.text().catch(() => '');
  return logProblem(response.status, parseStatus(text), req);
}

/**
 * Asks for at most one byte without follow, which the kubelet answers at once: tells whether the
 * cluster accepts the request, and if not, why. null: accepted.
 */
async function probe(
  deps: KubeLogDeps,
  req: KubeLogRequest,
  signal: AbortSignal,
): Promise<ProblemError | null> {
  const { response } = await deps.client.open(logPath(req), {
    query: {
      container: req.container,
      previous: String(req.previous),
      limitBytes: '1',
      ...(req.sinceTime ? { sinceTime: req.sinceTime } : {}),
    },
    signal,
    timeoutMs: deps.timeoutMs,
  });
  if (response.ok) {
    await response.body?.cancel().catch(() => {});
    return null;
  }
  return refusal(response, req);
}

/**
 * Opens one log request through the cluster's own connections. The body is read into a
 * LineReader, whose held write callback pushes back through the pipe, undici and TCP to the
 * apiserver when the consumer is slow. Without follow the kubelet answers at once, so the
 * request waits for headers within the cluster timeout and reads a refusal's Status from the
 * body. A follow of a quiet container gets no headers until its next line, so waiting cannot
 * tell it from a hung apiserver: it is checked first with a one-byte request (which also reads
 * the kubelet's reason for a refusal) and then opened without waiting. Both bodies go through the
 * cluster's stream connections: a follow lasts, and a long log read by a slow client may too.
 */
export async function openKubeLog(
  deps: KubeLogDeps,
  req: KubeLogRequest,
  signal: AbortSignal,
): Promise<KubeLogConnection> {
  if (signal.aborted) throw signal.reason;
  if (deps.read) return deps.read(req);
  if (req.follow) {
    const refused = await probe(deps, req, signal);
    if (refused) throw refused;
  }
  const reader = new LineReader();
  const own = new AbortController();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    reader.end();
    own.abort();
    signal.removeEventListener('abort', close);
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

  const opened = deps.client.open(logPath(req), {
    query: {
      container: req.container,
      follow: String(req.follow),
      previous: String(req.previous),
      timestamps: 'true',
      ...(req.sinceTime ? { sinceTime: req.sinceTime } : {}),
      // A tailLines of 0 means "no lines", which the caller handles without asking.
      ...(req.tailLines ? { tailLines: String(req.tailLines) } : {}),
    },
    signal: AbortSignal.any([signal, own.signal]),
    timeoutMs: req.follow ? FOLLOW_HEADERS_MS : deps.timeoutMs,
    stream: true,
  });
  const pump = async (response: Response) => {
    if (!response.body) return reader.end();
    const body = Readable.fromWeb(response.body as unknown as NodeReadableStream<Uint8Array>);
    try {
      await pipeline(body, reader.writable);
    } catch (err) {
      reader.end(!closed && !isAbortError(err));
    }
  };

  if (req.follow) {
    opened.then(
      (opened) => {
        if (opened.response.ok) return pump(opened.response);
        // Accepted a moment ago, refused now (the container stopped in between): the caller
        // sees a dropped connection and decides from the pod what happened.
        void opened.response.body?.cancel().catch(() => {});
        reader.end(!closed);
      },
      () => reader.end(!closed),
    );
  } else {
    let response: Response;
    try {
      ({ response } = await opened);
    } catch (err) {
      close();
      throw err;
    }
    if (!response.ok) {
      const problem = await refusal(response, req);
      close();
      throw problem;
    }
    void pump(response);
  }
  if (signal.aborted) close();
  else signal.addEventListener('abort', close, { once: true });
  return connection;
}
