import type { Cluster } from '../contract/models';
import type { IpcOutcome } from './channels';

/**
 * Snapshot files in the desktop app. The bytes never cross into the page: main asks where to save
 * (or what to open) with its own dialogs and reads or writes the file itself; the page only names
 * the capture job, or hands over a file the person dropped onto the window.
 */
export const IPC_SNAPSHOT_SAVE = 'skiff:snapshot-save';
export const IPC_SNAPSHOT_OPEN = 'skiff:snapshot-open';
export const IPC_SNAPSHOT_OPEN_PATH = 'skiff:snapshot-open-path';

/** Where a finished capture was written. */
export interface SavedSnapshot {
  path: string;
  sizeBytes: number;
}

/** Exposed to the page as `window.skiffSnapshots` (desktop only). */
export interface SnapshotFilesBridge {
  /** Asks where to save the job's file and writes it there; `data` is null when the person cancelled. */
  save(snapshotId: string): Promise<IpcOutcome<SavedSnapshot | null>>;
  /** Shows the open dialog and opens the chosen file; `data` is null when the person cancelled. */
  open(): Promise<IpcOutcome<Cluster | null>>;
  /** Opens a file dropped onto the window (a File from the drop's DataTransfer). */
  openDropped(file: File): Promise<IpcOutcome<Cluster>>;
}
