import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { DesktopBridge } from '../src-shared/ipc/bridge';
import { IPC_INVOKE, IPC_RENEW_SESSION, type IpcOutcome } from '../src-shared/ipc/channels';
import { IPC_EVENT_STREAM } from '../src-shared/ipc/event-stream';
import { IPC_KEPT_LOG_STREAM } from '../src-shared/ipc/kept-log-stream';
import { IPC_LOG_STREAM } from '../src-shared/ipc/log-stream';
import { buildBridge } from './bridge';
import { buildLogStreamBridge } from './log-stream';
import { buildSnapshotFilesBridge } from './snapshot-files';

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
// The event watch: the same port protocol on its own channel (src-shared/ipc/event-stream.ts).
contextBridge.exposeInMainWorld(
  'skiffEvents',
  buildLogStreamBridge((request, port) => ipcRenderer.postMessage(IPC_EVENT_STREAM, request, [port])),
);
// A kept run's lines (the logs of dead containers): the same port protocol on its own channel.
contextBridge.exposeInMainWorld(
  'skiffKeptLogs',
  buildLogStreamBridge((request, port) => ipcRenderer.postMessage(IPC_KEPT_LOG_STREAM, request, [port])),
);
// Snapshot files: main's own save and open dialogs, and files dropped onto the window (by path).
contextBridge.exposeInMainWorld(
  'skiffSnapshots',
  buildSnapshotFilesBridge(
    (channel, ...args) => ipcRenderer.invoke(channel, ...args),
    (file) => webUtils.getPathForFile(file),
  ),
);
