/**
 * Streams over Electron MessagePorts with credit (src-shared/ipc/log-stream.ts is the protocol):
 * a pod's log, the event watch and a kept run's lines, each on its own channel, served the same way.
 */
import type { StreamBody } from '../../src-shared/contract/define';
import { NDJSON } from '../../src-shared/contract/log-models';
import { IPC_EVENT_STREAM } from '../../src-shared/ipc/event-stream';
import { IPC_KEPT_LOG_STREAM } from '../../src-shared/ipc/kept-log-stream';
import {
  IPC_LOG_STREAM,
  type LogStreamDown,
  MAX_LOG_CREDIT,
  parseOpen,
  parseUp,
} from '../../src-shared/ipc/log-stream';
import type { Principal } from '../service/context';
import { ProblemError } from '../service/errors';
import type { Invoker } from '../service/invoke';

/** Electron's MessagePortMain, as far as we use it; a Node MessageChannel pair fakes it in tests. */
export interface PortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  postMessage(message: LogStreamDown): void;
  start(): void;
  close(): void;
}

export interface PortEventLike {
  ports: readonly PortLike[];
}

/** The part of ipcMain this needs (`on` with transferred ports, not `handle`). */
export interface IpcMainPortsLike<E extends PortEventLike> {
  on(channel: string, listener: (event: E, message: unknown) => void): unknown;
  removeListener(channel: string, listener: (event: E, message: unknown) => void): unknown;
}

export interface PortStreamIpcOptions<E extends PortEventLike> {
  invoke: Invoker;
  isTrustedSender: (event: E) => boolean;
  /** The desktop session's principal; rejects with a 401 problem once this device is logged out. */
  principal: () => Promise<Principal>;
}

function problemOf(err: unknown) {
  const problem =
    err instanceof ProblemError
      ? err
      : new ProblemError('internal_error', 'the service failed to serve this stream');
  return problem.toProblem();
}

/**
 * The streams served over MessagePorts, each by the operation HTTP serves it with. The event watch
 * (the events view in the desktop window) past its backlog bound sends the ERROR record that says
 * the renderer fell behind.
 */
export const PORT_STREAMS = {
  logs: { channel: IPC_LOG_STREAM, operation: 'getLogs' },
  events: { channel: IPC_EVENT_STREAM, operation: 'watchEvents' },
  keptLogs: { channel: IPC_KEPT_LOG_STREAM, operation: 'getKeptLog' },
} as const;

export type PortStream = (typeof PORT_STREAMS)[keyof typeof PORT_STREAMS];

/**
 * Serves one stream on `port`: the same operation (and validation) as HTTP, always as ndjson.
 * A chunk is pulled from the stream only when the renderer has granted credit for it, so a
 * renderer that falls behind holds the stream — and the cluster request — still.
 * The port closing (the window went away) or a cancel aborts the cluster request.
 */
async function servePortStream(
  port: PortLike,
  message: unknown,
  invoke: Invoker,
  principal: () => Promise<Principal>,
  operation: PortStream['operation'],
): Promise<void> {
  const abort = new AbortController();
  let credit = 0;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  port.on('message', (event) => {
    const up = parseUp(event.data);
    if (up?.type === 'credit') credit = Math.min(credit + up.n, MAX_LOG_CREDIT);
    else abort.abort(); // a cancel, or a message that breaks the protocol
    notify();
  });
  port.on('close', () => {
    abort.abort();
    notify();
  });
  port.start();
  try {
    const open = parseOpen(message);
    if (!open) throw new ProblemError('invalid_parameter', 'a stream request needs params, query and credit');
    credit = open.credit;
    const reply = await invoke(
      operation,
      { params: open.params, query: open.query, body: undefined },
      {
        principal: await principal(),
        client: { via: 'ipc' },
        signal: abort.signal,
        mediaType: NDJSON,
        // A long stream ends with the desktop session (logged out from another device).
        recheck: principal,
      },
    );
    if (abort.signal.aborted) return;
    port.postMessage({ type: 'open' });
    const chunks = (reply.data as StreamBody).chunks[Symbol.asyncIterator]();
    try {
      for (;;) {
        while (credit <= 0 && !abort.signal.aborted) await new Promise<void>((resolve) => (wake = resolve));
        if (abort.signal.aborted) return;
        const next = await chunks.next();
        if (next.done || abort.signal.aborted) break;
        credit--;
        port.postMessage({ type: 'chunk', data: next.value });
      }
    } finally {
      // Not awaited: a read parked on the cluster ends through the aborted signal.
      chunks.return?.(undefined).catch(() => {});
    }
    if (!abort.signal.aborted) port.postMessage({ type: 'end' });
  } catch (err) {
    if (!abort.signal.aborted) port.postMessage({ type: 'error', problem: problemOf(err) });
  } finally {
    abort.abort();
    port.close();
  }
}

/**
 * Listens on the stream's channel for requests, each served on its own MessagePort; returns the
 * function that stops listening.
 */
export function registerPortStreamIpc<E extends PortEventLike>(
  ipcMain: IpcMainPortsLike<E>,
  { channel, operation }: PortStream,
  opts: PortStreamIpcOptions<E>,
): () => void {
  const listener = (event: E, message: unknown) => {
    const port = event.ports[0];
    if (!port) return;
    if (!opts.isTrustedSender(event)) {
      port.postMessage({
        type: 'error',
        problem: new ProblemError(
          'forbidden',
          'IPC from a frame that is not the Skiff window is refused',
        ).toProblem(),
      });
      port.close();
      return;
    }
    void servePortStream(port, message, opts.invoke, opts.principal, operation);
  };
  ipcMain.on(channel, listener);
  return () => ipcMain.removeListener(channel, listener);
}
