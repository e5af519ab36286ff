import type { IpcMainInvokeEvent } from 'electron';
import type { IpcMainLike } from './ipc-handlers';

type Listener = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>;

/**
 * A paired fake of ipcMain/ipcRenderer: handlers registered on one side, invoked from the other
 * as if from a frame at `frameUrl`, with arguments and results passed through structuredClone as
 * Electron's IPC does.
 */
export class FakeIpc implements IpcMainLike {
  private readonly handlers = new Map<string, Listener>();
  handle(channel: string, listener: Listener) {
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  }
  async invoke(frameUrl: string, channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    const event = { senderFrame: { url: frameUrl, parent: null } } as unknown as IpcMainInvokeEvent;
    return structuredClone(await handler(event, ...structuredClone(args)));
  }
}
