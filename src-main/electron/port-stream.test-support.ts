import { EventEmitter } from 'node:events';
import { MessageChannel, type MessagePort as NodePort } from 'node:worker_threads';
import { buildLogStreamBridge } from '../../src-preload/log-stream';
import type { LogStreamBridge } from '../../src-shared/ipc/log-stream';
import {
  type PortEventLike,
  type PortLike,
  type PortStream,
  type PortStreamIpcOptions,
  registerPortStreamIpc,
} from './port-stream-ipc';

/** Electron's MessagePortMain hands listeners `{ data }`; a Node port hands the value itself. */
function mainPort(port: NodePort): PortLike {
  return {
    on(event: 'message' | 'close', listener: (e: { data: unknown }) => void) {
      if (event === 'message') port.on('message', (data: unknown) => listener({ data }));
      else port.on('close', () => (listener as () => void)());
      return this;
    },
    postMessage: (m) => port.postMessage(m),
    start: () => port.start(),
    close: () => port.close(),
  } as PortLike;
}

/**
 * ipcMain with one port stream registered and the preload's bridge to it, wired in one process
 * over Node MessagePorts; `sender` is spread into every IPC event (what isTrustedSender reads).
 */
export function portStreamBridge<S extends object>(
  stream: PortStream,
  opts: PortStreamIpcOptions<PortEventLike & S>,
  sender: S,
): LogStreamBridge {
  const ipcMain = new EventEmitter();
  registerPortStreamIpc<PortEventLike & S>(ipcMain, stream, opts);
  return buildLogStreamBridge(
    (request, port) =>
      ipcMain.emit(stream.channel, { ports: [mainPort(port as unknown as NodePort)], ...sender }, request),
    () => new MessageChannel() as unknown as { port1: MessagePort; port2: MessagePort },
  );
}
