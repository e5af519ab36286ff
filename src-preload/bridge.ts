import { type OperationName, operationNames } from '../src-shared/contract/operations';
import type { Bridge } from '../src-shared/ipc/bridge';
import type { IpcOutcome } from '../src-shared/ipc/channels';

export type InvokeFn = (name: OperationName, input: unknown) => Promise<IpcOutcome<unknown>>;

/**
 * One method per contract operation and nothing else: the page never sees ipcRenderer, only
 * functions that can name exactly the operations the service has.
 */
export function buildBridge(invoke: InvokeFn): Bridge {
  const bridge = {} as Record<OperationName, (input: unknown) => Promise<IpcOutcome<unknown>>>;
  for (const name of operationNames) bridge[name] = (input) => invoke(name, input);
  return Object.freeze(bridge) as Bridge;
}
