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
