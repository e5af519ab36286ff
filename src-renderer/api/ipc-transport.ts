import type { RawInput, Reply } from '../../src-shared/contract/define';
import type { OperationName, Operations } from '../../src-shared/contract/operations';
import type { Bridge, DesktopBridge } from '../../src-shared/ipc/bridge';
import type { IpcOutcome } from '../../src-shared/ipc/channels';
import { ApiError, type Transport } from './client';

declare global {
  interface Window {
    /** Present in the desktop app only: the preload's bridge to the main process. */
    skiff?: Bridge;
    skiffDesktop?: DesktopBridge;
  }
}

function aborted(): Error {
  const err = new Error('the call was cancelled');
  err.name = 'AbortError';
  return err;
}

export function ipcTransport(bridge: Bridge): Transport {
  return {
    async call(name, input, options): Promise<Reply<unknown>> {
      const method = bridge[name] as (i: RawInput<Operations[OperationName]>) => Promise<IpcOutcome<unknown>>;
      // IPC cannot carry a signal to the main process; a cancelled call is dropped here instead.
      if (options?.signal?.aborted) throw aborted();
      const outcome = await method(input);
      if (options?.signal?.aborted) throw aborted();
      if (!outcome.ok) throw new ApiError(outcome.problem);
      return {
        data: outcome.data,
        ...(outcome.page ? { page: outcome.page } : {}),
        ...(outcome.staleSince ? { staleSince: outcome.staleSince } : {}),
      };
    },
  };
}
