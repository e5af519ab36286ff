import type { z } from 'zod';
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

/** Carries the result type of an operation without a runtime value. */
export interface Returns<T> {
  readonly __result?: T;
}
export const returns = <T>(): Returns<T> => ({});

export interface OperationSpec<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R = unknown,
> {
  method: HttpMethod;
  /** find-my-way style path, e.g. /v1/workspaces/:workspaceId/clusters */
  path: string;
  summary: string;
  auth: AuthRequirement;
  params: P;
  query: Q;
  body: B;
  result: Returns<R>;
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
}

export function defineOperation<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R>(
  spec: OperationSpec<P, Q, B, R>,
): OperationSpec<P, Q, B, R> {
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

export type ResultOf<S extends OperationSpec> = S['result'] extends Returns<infer R> ? R : never;

/**
 * The body of a streaming operation: text in `contentType`, pulled chunk by chunk, so a consumer
 * that stops pulling stops the source too (backpressure all the way to the cluster).
 */
export interface StreamBody {
  contentType: string;
  chunks: AsyncIterable<string>;
}

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
}
