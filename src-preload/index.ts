import { contextBridge, ipcRenderer } from 'electron';
import { IPC_INVOKE, IPC_RENEW_SESSION, type IpcOutcome } from '../src-shared/ipc/channels';
import { buildBridge } from './bridge';

contextBridge.exposeInMainWorld(
  'skiff',
  buildBridge((name, input) => ipcRenderer.invoke(IPC_INVOKE, name, input) as Promise<IpcOutcome<unknown>>),
);
// Desktop-only: after this device was logged out, the user signs in again with one click.
contextBridge.exposeInMainWorld(
  'skiffDesktop',
  Object.freeze({ renewSession: () => ipcRenderer.invoke(IPC_RENEW_SESSION) as Promise<IpcOutcome<null>> }),
);
