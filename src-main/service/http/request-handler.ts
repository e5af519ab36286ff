/**
 * The API's request handler: what one HTTP request to /v1 becomes (a RequestListener, with no
 * knowledge of sockets; listener.ts owns the server and its connection bounds). Rules:
 * - Refusals come before any work, in this order: the guard (Host, Origin, rate limits), the route
 *   (404, 405 with Allow), authentication, the media type; a streaming answer's Accept is
 *   negotiated before the operation runs, so a refusal costs no cluster request.
 * - Query parameters appear once each; bodies are read only for operations that take one.
 * - The operation gets an AbortSignal that fires when the answer is complete or the client left;
 *   a client that left is no failure and gets no answer. Anything that is not a ProblemError is
 *   logged and answered 500 internal_error in problem+json, never thrown out of the listener.
 * - Links (Location, Link) are relative unless a public URL is configured (public-url.ts).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { getCookies, Headers } from 'undici';
import type { AuthRequirement, StreamBody } from '../../../src-shared/contract/define';
import { operations } from '../../../src-shared/contract/operations';
import type { CallContext, Principal } from '../context';
import { ProblemError } from '../errors';
import type { Invoker } from '../invoke';
import type { Logger } from '../logger';
import { pageHeaders } from '../pagination';
import { readJsonBody, requireJsonContentType } from './body';
import { clientWentAway } from './client-gone';
import { absoluteLinks } from './public-url';
import { COMMON_HEADERS, sendJson, sendProblem } from './respond';
import { createApiRouter } from './router';
import { negotiate, sendStream } from './stream';
import { createUpload, DEFAULT_UPLOAD_MAX_BYTES, type UploadOptions } from './upload';

/** Decides who is calling; throws a ProblemError (401/403) when the requirement is not met. */
export type Authenticator = (req: IncomingMessage, requirement: AuthRequirement) => Promise<Principal>;

/** Runs before routing: Host and Origin checks, rate limits. Throws a ProblemError to refuse. */
export type RequestGuard = (req: IncomingMessage) => void;

export interface HttpAppOptions {
  invoke: Invoker;
  authenticate: Authenticator;
  guard?: RequestGuard;
  /** The client's address; defaults to the socket peer (a trusted proxy's X-Forwarded-For is resolved here). */
  clientAddress?: (req: IncomingMessage) => string | undefined;
  /** Whether the client used https (a trusted proxy's X-Forwarded-Proto is read here); default: TLS only. */
  clientSecure?: (req: IncomingMessage) => boolean;
  /** Serves the OpenAPI document and the API reference page (/v1/openapi.json, /v1/docs), public. */
  apiDocs?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;
  /** Serves the renderer for every non-API path (web mode). */
  serveStatic?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;
  logger: Logger;
  /** Where file bodies (operations with `consumes`) are streamed, and their bound. */
  uploads?: UploadOptions;
  /** `--public-url`: links in answers are made absolute under it. */
  publicUrl?: string;
}

function queryObject(search: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of search) {
    if (key in out) throw new ProblemError('invalid_query', `query parameter ${key} is given more than once`);
    out[key] = value;
  }
  return out;
}

// Shared reasons: abort() without one builds a DOMException, stack and all, for every request.
const ANSWERED = new DOMException('the answer is complete', 'AbortError');
const CLIENT_GONE = new DOMException('the client went away', 'AbortError');

export function createHttpApp(options: HttpAppOptions): RequestListener {
  const router = createApiRouter();
  const { logger } = options;

  return (req, res) => {
    const started = performance.now();
    const abort = new AbortController();
    // 'close' on the response fires when it finished or when the client went away; either way, stop work.
    res.on('close', () => abort.abort(res.writableFinished ? ANSWERED : CLIENT_GONE));
    handle(req, res, abort.signal)
      .catch((err: unknown) => {
        // A client that left is no failure of ours, and there is no one left to answer.
        if (clientWentAway(err, req, res)) return;
        const problem =
          err instanceof ProblemError
            ? err
            : new ProblemError('internal_error', 'the service failed to handle this request; see its log');
        if (!(err instanceof ProblemError))
          logger.error({ err, method: req.method, url: req.url }, 'unhandled error');
        sendProblem(res, problem);
      })
      .finally(() => {
        if (!logger.isLevelEnabled('debug')) return;
        logger.debug(
          {
            method: req.method,
            path: req.url?.split('?')[0],
            status: res.statusCode,
            ms: performance.now() - started,
            ...(res.writableEnded ? {} : { clientGone: true }),
          },
          'request',
        );
      });
  };

  async function handle(req: IncomingMessage, res: ServerResponse, signal: AbortSignal) {
    options.guard?.(req);
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname;
    if (!path.startsWith('/v1/') && path !== '/v1') {
      if (options.serveStatic && (await options.serveStatic(req, res, path))) return;
      throw new ProblemError('route_not_found', `no route for ${path}`);
    }
    if (options.apiDocs && (await options.apiDocs(req, res, path))) return;
    const match = router.match(req.method ?? 'GET', path, url.searchParams);
    if (match === null) throw new ProblemError('route_not_found', `no API route for ${path}`);
    if ('allowed' in match) {
      throw new ProblemError(
        'method_not_allowed',
        `${req.method} is not allowed on ${path}; allowed: ${match.allowed.join(', ')}`,
        {},
        { Allow: match.allowed.join(', ') },
      );
    }
    const spec = operations[match.name];
    const principal = await options.authenticate(req, spec.auth);
    if (spec.requiresJson) requireJsonContentType(req);
    const upload = spec.consumes
      ? createUpload(
          req,
          res,
          spec.consumes,
          options.uploads ?? { dir: join(tmpdir(), 'skiff-uploads'), maxBytes: DEFAULT_UPLOAD_MAX_BYTES },
          signal,
        )
      : undefined;
    const body =
      upload || spec.method === 'GET' || spec.method === 'DELETE' ? undefined : await readJsonBody(req);
    const address = options.clientAddress ? options.clientAddress(req) : req.socket.remoteAddress;
    // Negotiated before any work, so an unacceptable Accept costs no cluster request.
    const mediaType = spec.streaming
      ? negotiate(req.headers.accept, spec.produces ?? ['text/plain'])
      : undefined;
    const secure = options.clientSecure
      ? options.clientSecure(req)
      : (req.socket as Partial<TLSSocket>).encrypted === true;
    const cookie = req.headers.cookie;
    const navigation =
      req.headers['sec-fetch-mode'] === 'navigate' || (req.headers.accept ?? '').includes('text/html');
    const ctx: CallContext = {
      principal,
      client: {
        via: 'http',
        address,
        userAgent: req.headers['user-agent'],
        ...(secure ? { secure } : {}),
        ...(navigation ? { navigation } : {}),
      },
      signal,
      ...(cookie ? { cookies: getCookies(new Headers({ cookie })) } : {}),
      ...(mediaType ? { mediaType } : {}),
      ...(upload ? { upload: upload.upload } : {}),
      // A stream outlives its request's check: it asks again with the same headers now and then.
      ...(spec.streaming ? { recheck: () => options.authenticate(req, spec.auth) } : {}),
    };
    const query = queryObject(url.searchParams);
    for (const [header, name] of Object.entries(spec.headerQuery ?? {})) {
      const value = req.headers[header];
      if (typeof value === 'string' && value !== '') query[name] = value;
    }
    const reply = await options
      .invoke(match.name, { params: match.params, query, body }, ctx)
      .finally(() => upload?.cleanup());
    const linked = (headers: Record<string, string>) =>
      options.publicUrl ? absoluteLinks(headers, options.publicUrl) : headers;
    if (spec.streaming) {
      const status = reply.status ?? spec.successStatus ?? 200;
      const body = reply.data as StreamBody<string | Uint8Array>;
      return sendStream(
        res,
        status,
        body,
        req.method === 'HEAD',
        linked({ ...COMMON_HEADERS, ...reply.headers }),
      );
    }
    const headers: Record<string, string> = linked({
      ...(reply.page ? pageHeaders(path, url.searchParams, reply.page) : {}),
      ...reply.headers,
    });
    if (reply.staleSince) headers['x-Stale-Since'] = reply.staleSince;
    const conditional = spec.method === 'GET' ? { ifNoneMatch: req.headers['if-none-match'] } : undefined;
    const status = reply.status ?? spec.successStatus ?? 200;
    // A reply built from stored JSON text is sent as that text; reading `data` would parse it all.
    if (reply.json !== undefined)
      sendJson(res, status, undefined, headers, conditional, {
        json: reply.json,
        jsonWrap: reply.jsonWrap,
        etagSeed: reply.etagSeed,
      });
    else sendJson(res, status, reply.data, headers, conditional);
  }
}
