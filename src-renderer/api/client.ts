import { z } from 'zod';
import type { RawInput, Reply, ResultOf } from '../../src-shared/contract/define';
import type { OperationName, Operations } from '../../src-shared/contract/operations';
import type { Problem } from '../../src-shared/contract/problem';

/** Per-call options that never reach the service as data. */
export interface CallOptions {
  /** Cancels the call: a poll whose view went away should not keep the service busy. */
  signal?: AbortSignal;
}

/** The renderer's one view of the service; the transport underneath is IPC or HTTP. */
export interface Transport {
  call(
    name: OperationName,
    input: RawInput<Operations[OperationName]>,
    options?: CallOptions,
  ): Promise<Reply<unknown>>;
}

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
    this.name = 'ApiError';
  }
}

/** A list the service is still receiving from the cluster (503 cluster_syncing): how far it got. */
export interface Syncing {
  items: number;
  /** The cluster's estimate of the objects still to come, when it gave one. */
  remaining?: number;
  /** When to ask again: the service's Retry-After, within [1 s, 60 s]. */
  retryAfterMs: number;
}

const syncingProblem = z.object({
  code: z.literal('cluster_syncing'),
  progress: z.object({
    items: z.number().int().nonnegative(),
    remaining: z.number().int().nonnegative().optional(),
  }),
  retryAfterSeconds: z.number().finite().optional(),
});

/** Without a usable Retry-After, a filling list is asked for again after this long. */
const SYNCING_RETRY_MS = 2_000;

/**
 * The progress of a 503 cluster_syncing, validated here (a problem body is otherwise open): a
 * view shows it as loading, not as an error, and asks again after Retry-After. Undefined for
 * anything else.
 */
export function syncingOf(err: unknown): Syncing | undefined {
  if (!(err instanceof ApiError) || err.problem.status !== 503) return undefined;
  const parsed = syncingProblem.safeParse(err.problem);
  if (!parsed.success) return undefined;
  const { progress, retryAfterSeconds } = parsed.data;
  const retryAfterMs =
    retryAfterSeconds === undefined
      ? SYNCING_RETRY_MS
      : Math.min(60_000, Math.max(1_000, Math.round(retryAfterSeconds * 1000)));
  return {
    items: progress.items,
    ...(progress.remaining !== undefined ? { remaining: progress.remaining } : {}),
    retryAfterMs,
  };
}

export interface ApiClient {
  call<K extends OperationName>(
    name: K,
    input: RawInput<Operations[K]>,
    options?: CallOptions,
  ): Promise<Reply<ResultOf<Operations[K]>>>;
}

export function createClient(transport: Transport): ApiClient {
  return {
    call: (name, input, options) => transport.call(name, input, options) as never,
  };
}
