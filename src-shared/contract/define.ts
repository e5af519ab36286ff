import { z } from 'zod';
import type { PageInfo } from './models';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an operation.
 * - public: no credentials (health, login, refresh).
 * - session: a Bearer access token only; API keys are refused (the spec's rule for session management).
 * - credential: a Bearer access token or an API key.
 * - optional: credentials are read when sent; none, or ones that do not authenticate, call as
 *   nobody instead of failing (the session probe, which must not answer an error before a login).
 */
export type AuthRequirement = 'public' | 'session' | 'credential' | 'optional';

export interface OperationSpec<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** find-my-way style path, e.g. /v1/workspaces/:workspaceId/clusters */
  path: string;
  summary: string;
  auth: AuthRequirement;
  params: P;
  query: Q;
  body: B;
  /**
   * The success body's schema; the result type is inferred from it. Documentation and the test
   * suites' response checks read it; the service does not validate its own answers at run time.
   * A streaming operation's result is `streamBody` (the document describes it by media type).
   */
  result: R;
  /** List operations answer a page and carry PageInfo (HTTP: x-Total, x-Limit, x-Offset, Link). */
  paginated: boolean;
  /** HTTP status of a success; 200 unless stated. */
  successStatus?: number;
  /** The request must say Content-Type: application/json (415 otherwise), even with an empty body. */
  requiresJson?: boolean;
  /**
   * The success body is a stream of text chunks (a StreamBody as `data`), not one JSON document.
   * Transports pipe it with backpressure; the request/response IPC channel refuses it.
   */
  streaming?: boolean;
  /** Media types a streaming operation can answer, the default first; chosen from Accept. */
  produces?: readonly string[];
  /**
   * For the media types of `produces` that are a sequence of JSON records (an NDJSON line, an SSE
   * `data:`): the schema of one record. The API document describes the stream by it and the test
   * suites validate every record they read with it.
   */
  records?: Readonly<Record<string, z.ZodType>>;
  /**
   * The request body is a file of one of these media types, not JSON: the HTTP edge streams it
   * to a temporary file (bounded in size) when the operation asks for it, and the operation gets
   * its path; `body` stays undefined.
   */
  consumes?: readonly string[];
  /**
   * Shares its method and path with another operation and answers only when this query parameter
   * has this value (the event watch: `watch=true` on the event list's path), or, without `equals`,
   * any value (an object as it was: `at=TIME` on its history's path).
   */
  when?: { query: string; equals?: string };
  /** HTTP request headers read as query parameters, the header winning (Last-Event-ID). */
  headerQuery?: Readonly<Record<string, string>>;
}

export function defineOperation<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType,
>(spec: OperationSpec<P, Q, B, R>): OperationSpec<P, Q, B, R> {
  return spec;
}

/** What a caller passes: raw, unvalidated strings for params and query, as a URL would carry them. */
export interface RawInput<S extends OperationSpec> {
  params: z.input<S['params']>;
  query?: z.input<S['query']>;
  body?: z.input<S['body']>;
}

/** What an operation receives after the edge has validated and normalised the raw input. */
export interface ValidInput<S extends OperationSpec> {
  params: z.output<S['params']>;
  query: z.output<S['query']>;
  body: z.output<S['body']>;
}

export type ResultOf<S extends OperationSpec> = z.output<S['result']>;

/**
 * The body of a streaming operation: text in `contentType`, pulled chunk by chunk, so a consumer
 * that stops pulling stops the source too (backpressure all the way to the cluster). A binary body
 * (a snapshot file) is a `StreamBody<Uint8Array>`: its chunks are bytes, sent as they are.
 */
export interface StreamBody<C extends string | Uint8Array = string> {
  contentType: string;
  chunks: AsyncIterable<C>;
  /** The whole body's size in bytes, when known before the first chunk (HTTP: Content-Length). */
  length?: number;
  /** Offered as a download under this name (HTTP: Content-Disposition: attachment). */
  fileName?: string;
  /**
   * Aborted when the producer gives up on a consumer that fell too far behind: a transport still
   * waiting for it to take earlier chunks then gives it a short grace and cuts it off.
   */
  stop?: AbortSignal;
}

/**
 * The result schema of a streaming operation: a marker, not a description of the bytes. The API
 * document describes such a body by its media types (`produces`) and, for a stream of JSON
 * records, by the schema of one record (`records`); the tests read the stream itself.
 */
export const streamBody = <C extends string | Uint8Array = string>() =>
  z.custom<StreamBody<C>>(
    (v) => typeof v === 'object' && v !== null && 'chunks' in v,
    'a streaming body (text or bytes pulled chunk by chunk)',
  );

/** The envelope every transport delivers to a client: the data, and paging facts for lists. */
export interface Reply<R> {
  data: R;
  page?: PageInfo;
  status?: number;
  /**
   * Set when the answer was served from a cache whose watch is broken: the RFC 3339 time the data
   * was last known to match the cluster (HTTP: the `x-Stale-Since` header). Absent when fresh.
   */
  staleSince?: string;
  /**
   * `data` already serialised as JSON. Lists built from stored JSON text set it so HTTP can send
   * it as is instead of parsing and re-serialising every object; `data` then parses it on demand.
   * An array is a JSON array given by its elements' texts: `[` + elements joined by `,` + `]`.
   */
  json?: string | readonly string[];
  /**
   * With an array `json`: text written before and after each element, so stored texts are sent
   * without building a concatenated copy of each per request.
   */
  jsonWrap?: { prefix: string; suffix: string };
  /**
   * What identifies `json`'s bytes exactly, cheaper to hash than the bytes: HTTP derives the ETag
   * from it instead of hashing the whole body.
   */
  etagSeed?: string;
  /** Headers HTTP adds to the answer, e.g. the Location of a job a POST started. */
  headers?: Readonly<Record<string, string>>;
}
