import { contextBridge, ipcRenderer } from 'electron';
import { IPC_INVOKE, type IpcOutcome } from '../src-shared/ipc/channels';
import { buildBridge } from './bridge';

contextBridge.exposeInMainWorld(
  'skiff',
  buildBridge((name, input) => ipcRenderer.invoke(IPC_INVOKE, name, input) as Promise<IpcOutcome<unknown>>),
);
