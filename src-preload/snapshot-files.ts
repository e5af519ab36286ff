import type { IpcOutcome } from '../src-shared/ipc/channels';
import {
  IPC_SNAPSHOT_OPEN,
  IPC_SNAPSHOT_OPEN_PATH,
  IPC_SNAPSHOT_SAVE,
  type SnapshotFilesBridge,
} from '../src-shared/ipc/snapshot-files';

type Invoke = (channel: string, ...args: unknown[]) => Promise<unknown>;

/**
 * The preload end of the snapshot file channels. A File cannot cross to main, and the page never
 * learns paths: the preload asks Electron for the dropped file's path and sends only that.
 */
export function buildSnapshotFilesBridge(
  invoke: Invoke,
  pathOf: (file: File) => string,
): SnapshotFilesBridge {
  return Object.freeze<SnapshotFilesBridge>({
    save: (snapshotId) => invoke(IPC_SNAPSHOT_SAVE, String(snapshotId)) as Promise<IpcOutcome<never>>,
    open: () => invoke(IPC_SNAPSHOT_OPEN) as Promise<IpcOutcome<never>>,
    openDropped: async (file) => {
      // Electron answers '' for a File that is not on disk (one the page made itself).
      const path = pathOf(file);
      if (!path) {
        return {
          ok: false,
          problem: {
            type: 'about:blank',
            title: 'Not a file on this computer',
            status: 400,
            detail: 'Only a file dropped from this computer can be opened as a snapshot.',
            code: 'invalid_parameter',
          },
        };
      }
      return invoke(IPC_SNAPSHOT_OPEN_PATH, path) as Promise<IpcOutcome<never>>;
    },
  });
}
