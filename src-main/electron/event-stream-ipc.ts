import { IPC_EVENT_STREAM } from '../../src-shared/ipc/event-stream';
import { ProblemError } from '../service/errors';
import {
  type IpcMainPortsLike,
  type LogStreamIpcOptions,
  type PortEventLike,
  serveLogStream,
} from './log-stream-ipc';

/**
 * Listens for event watch requests (the events view in the desktop window); returns the function
 * that stops listening. Each is served like a log stream, on its own MessagePort with credit, by
 * the watchEvents operation: a renderer that stops granting credit stops being sent changes, and
 * past the watch's backlog bound it gets the ERROR record that says it fell behind.
 */
export function registerEventStreamIpc<E extends PortEventLike>(
  ipcMain: IpcMainPortsLike<E>,
  opts: LogStreamIpcOptions<E>,
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
    void serveLogStream(port, message, opts.invoke, opts.principal, 'watchEvents');
  };
  ipcMain.on(IPC_EVENT_STREAM, listener);
  return () => ipcMain.removeListener(IPC_EVENT_STREAM, listener);
}
