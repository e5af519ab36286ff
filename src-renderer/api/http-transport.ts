import { z } from 'zod';
import type { RawInput, Reply } from '../../src-shared/contract/define';
import { type OperationName, type Operations, operations } from '../../src-shared/contract/operations';
import { fillPath } from '../../src-shared/contract/path';
import { isProblem } from '../../src-shared/contract/problem';
import { ApiError, type CallOptions, type Transport } from './client';

export interface HttpTransportOptions {
  baseUrl: string;
  /** Supplies the Authorization header; may refresh tokens first. */
  authorize?: () => Promise<Record<string, string>>;
  /** Called on a 401 so the session can refresh and the call be retried once. */
  onUnauthorized?: () => Promise<boolean>;
}

/** A fetch that never reached the service (it is down, or the network is) becomes a problem like any other. */
function unreachable(err: unknown): ApiError {
  return new ApiError({
    type: 'about:blank',
    title: 'Service unreachable',
    status: 0,
    detail: `The Skiff service did not answer (${(err as Error).message}). It is retried automatically.`,
    code: 'internal_error',
  });
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const text = await res.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const rfc3339 = z.iso.datetime({ offset: true });

/**
 * x-Stale-Since, validated here at the edge: a value that is not an RFC 3339 time is dropped
 * rather than shown as "Invalid Date", and the rest of the renderer can trust the field.
 */
function staleSinceOf(res: Response): string | undefined {
  const value = res.headers.get('x-stale-since');
  return value !== null && rfc3339.safeParse(value).success ? value : undefined;
}

/**
 * Parsed replies of GETs by URL, revalidated with If-None-Match. Polling a 10,000-pod list then
 * costs a 304 per unchanged page instead of parsing megabytes of JSON on the UI thread.
 */
const MAX_CACHED = 300;

/** The browser transport: the same operations over /v1 HTTP. */
export function httpTransport(opts: HttpTransportOptions): Transport {
  const cache = new Map<string, { etag: string; reply: Reply<unknown> }>();
  const send = async (
    name: OperationName,
    input: RawInput<Operations[OperationName]>,
    options: CallOptions | undefined,
    retry: boolean,
  ): Promise<Reply<unknown>> => {
    const spec = operations[name];
    const url = new URL(fillPath(spec.path, input.params as Record<string, string>), opts.baseUrl);
    for (const [k, v] of Object.entries((input.query ?? {}) as Record<string, string | undefined>)) {
      if (v !== undefined && v !== '') url.searchParams.set(k, v);
    }
    const headers: Record<string, string> = { Accept: 'application/json', ...(await opts.authorize?.()) };
    const init: RequestInit = {
      method: spec.method,
      headers,
      ...(options?.signal ? { signal: options.signal } : {}),
    };
    if (input.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(input.body);
    } else if (spec.requiresJson) {
      // The service refuses these without the JSON content type even when nothing is sent.
      headers['Content-Type'] = 'application/json';
    }
    const cached = spec.method === 'GET' ? cache.get(url.href) : undefined;
    if (cached) headers['If-None-Match'] = cached.etag;
    let res: Response;
    try {
      res = await fetch(url, init);
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw unreachable(err);
    }
    if (res.status === 401 && retry && opts.onUnauthorized && (await opts.onUnauthorized())) {
      return send(name, input, options, false);
    }
    if (res.status === 304 && cached) {
      // The service's ETag hashes the headers with the body, so a 304 also means the same
      // x-Stale-Since: the cached reply's staleness is still the truth.
      // Most recently used last, so the oldest entry is the first to go.
      cache.delete(url.href);
      cache.set(url.href, cached);
      return cached.reply;
    }
    const body = await readBody(res);
    if (!res.ok) {
      throw new ApiError(
        isProblem(body)
          ? body
          : {
              type: 'about:blank',
              title: res.statusText,
              status: res.status,
              detail: res.statusText,
              code: 'internal_error',
            },
      );
    }
    const total = res.headers.get('x-total');
    // Rows of an includeExpired page the cluster no longer has ("3,57-99"); the events view parses it.
    const expiredRows = res.headers.get('x-expired-rows');
    const page =
      total === null
        ? undefined
        : {
            total: Number(total),
            limit: Number(res.headers.get('x-limit')),
            offset: Number(res.headers.get('x-offset')),
            ...(expiredRows ? { expiredRows } : {}),
          };
    const staleSince = staleSinceOf(res);
    const reply = {
      data: body,
      ...(page ? { page } : {}),
      ...(staleSince ? { staleSince } : {}),
      status: res.status,
    };
    const etag = res.headers.get('etag');
    if (spec.method === 'GET' && etag) {
      cache.delete(url.href);
      cache.set(url.href, { etag, reply });
      if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
    }
    return reply;
  };
  return { call: (name, input, options) => send(name, input, options, true) };
}
