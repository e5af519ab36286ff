import { contextBridge, ipcRenderer } from 'electron';
import type { DesktopBridge } from '../src-shared/ipc/bridge';
import { IPC_INVOKE, IPC_RENEW_SESSION, type IpcOutcome } from '../src-shared/ipc/channels';
import { IPC_LOG_STREAM } from '../src-shared/ipc/log-stream';
import { buildBridge } from './bridge';
import { buildLogStreamBridge } from './log-stream';

contextBridge.exposeInMainWorld(
  'skiff',
  buildBridge((name, input) => ipcRenderer.invoke(IPC_INVOKE, name, input) as Promise<IpcOutcome<unknown>>),
);
// Desktop-only: after this device was logged out, the user signs in again with one click.
contextBridge.exposeInMainWorld(
  'skiffDesktop',
  Object.freeze<DesktopBridge>({
    renewSession: () => ipcRenderer.invoke(IPC_RENEW_SESSION) as Promise<IpcOutcome<null>>,
  }),
);
// Log streams: a MessagePort per stream with credit-based flow control (see src-shared/ipc/log-stream.ts).
contextBridge.exposeInMainWorld(
  'skiffLogs',
  buildLogStreamBridge((request, port) => ipcRenderer.postMessage(IPC_LOG_STREAM, request, [port])),
);
