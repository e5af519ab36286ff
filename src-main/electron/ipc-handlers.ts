import type { IpcMainInvokeEvent } from 'electron';
import type { StreamBody } from '../../src-shared/contract/define';
import { type OperationName, operationNames, operations } from '../../src-shared/contract/operations';
import { IPC_INVOKE, IPC_RENEW_SESSION, type IpcOutcome } from '../../src-shared/ipc/channels';
import { IPC_EVENT_STREAM } from '../../src-shared/ipc/event-stream';
import { IPC_KEPT_LOG_STREAM } from '../../src-shared/ipc/kept-log-stream';
import { IPC_LOG_STREAM } from '../../src-shared/ipc/log-stream';
import { IPC_SNAPSHOT_SAVE } from '../../src-shared/ipc/snapshot-files';
import type { Principal } from '../service/context';
import { ProblemError } from '../service/errors';
import type { Invoker } from '../service/invoke';

/** The part of ipcMain we use; a paired fake implements it in the IPC contract test. */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>,
  ): void;
  removeHandler(channel: string): void;
}

export interface IpcHandlerOptions {
  invoke: Invoker;
  /** True only for the app's own window frame; anything else is refused. */
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean;
  /** The desktop session's principal; rejects with a 401 problem once this device is logged out. */
  principal: () => Promise<Principal>;
  /** Starts a new desktop session after this device was logged out and the user signs in again. */
  renewSession: () => Promise<void>;
}

const NAMES = new Set<string>(operationNames);

/** Where the app reads each streaming operation instead, named in the refusal of an invoke(). */
const STREAM_CHANNELS: Partial<Record<OperationName, string>> = {
  getLogs: `the log stream channel (${IPC_LOG_STREAM})`,
  watchEvents: `the event stream channel (${IPC_EVENT_STREAM})`,
  getKeptLog: `the kept log stream channel (${IPC_KEPT_LOG_STREAM})`,
  downloadSnapshot: `the snapshot save channel (${IPC_SNAPSHOT_SAVE})`,
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringRecord(v: unknown, what: string): Record<string, string> {
  if (v === undefined) return {};
  if (!isRecord(v) || Object.values(v).some((x) => typeof x !== 'string' && x !== undefined)) {
    throw new ProblemError('invalid_parameter', `${what} must be an object of strings`);
  }
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as Record<string, string>;
}

/** One IPC handler for every contract operation, validated by the same invoker HTTP uses. */
export function registerIpcHandlers(ipcMain: IpcMainLike, opts: IpcHandlerOptions): () => void {
  ipcMain.handle(IPC_INVOKE, async (event, name, input): Promise<IpcOutcome<unknown>> => {
    try {
      if (!opts.isTrustedSender(event)) {
        throw new ProblemError('forbidden', 'IPC from a frame that is not the Skiff window is refused');
      }
      if (typeof name !== 'string' || !NAMES.has(name)) {
        throw new ProblemError('route_not_found', `unknown operation ${String(name)}`);
      }
      const raw = isRecord(input) ? input : {};
      if (input !== undefined && !isRecord(input)) {
        throw new ProblemError('invalid_parameter', 'the operation input must be an object');
      }
      const abort = new AbortController();
      const reply = await opts.invoke(
        name as OperationName,
        {
          params: stringRecord(raw.params, 'params'),
          query: stringRecord(raw.query, 'query'),
          body: raw.body,
        },
        { principal: await opts.principal(), client: { via: 'ipc' }, signal: abort.signal },
      );
      if (operations[name as OperationName].streaming) {
        // Validated like any call, but a stream cannot cross invoke(): it has its own channel.
        abort.abort();
        (reply.data as StreamBody).chunks[Symbol.asyncIterator]().return?.(undefined);
        throw new ProblemError(
          'not_acceptable',
          `${name} streams; the app reads it on ${STREAM_CHANNELS[name as OperationName] ?? 'a channel of its own'}, not on invoke`,
        );
      }
      return {
        ok: true,
        data: reply.data,
        ...(reply.page ? { page: reply.page } : {}),
        ...(reply.staleSince ? { staleSince: reply.staleSince } : {}),
      };
    } catch (err) {
      const problem =
        err instanceof ProblemError
          ? err
          : new ProblemError('internal_error', 'the service failed to handle this call');
      return { ok: false, problem: problem.toProblem() };
    }
  });
  ipcMain.handle(IPC_RENEW_SESSION, async (event): Promise<IpcOutcome<null>> => {
    if (!opts.isTrustedSender(event)) {
      return {
        ok: false,
        problem: new ProblemError('forbidden', 'IPC from a foreign frame is refused').toProblem(),
      };
    }
    await opts.renewSession();
    return { ok: true, data: null };
  });
  return () => {
    ipcMain.removeHandler(IPC_INVOKE);
    ipcMain.removeHandler(IPC_RENEW_SESSION);
  };
}
