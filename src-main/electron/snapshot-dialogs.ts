import { join } from 'node:path';
import { app, BrowserWindow, dialog } from 'electron';
import { SNAPSHOT_EXTENSION } from '../service/snapshots/format';

/** The native dialogs for snapshot files, attached to the window that asked so they are modal to it. */

const FILTERS = [
  { name: 'Skiff snapshot', extensions: [SNAPSHOT_EXTENSION.slice(1)] },
  { name: 'All files', extensions: ['*'] },
];

const owner = () => BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];

export async function chooseSnapshotSavePath(fileName: string): Promise<string | null> {
  const options = {
    title: 'Save snapshot',
    defaultPath: join(app.getPath('downloads'), fileName),
    filters: FILTERS,
    properties: ['createDirectory', 'showOverwriteConfirmation'] as Array<
      'createDirectory' | 'showOverwriteConfirmation'
    >,
  };
  const win = owner();
  const result = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
  return result.canceled || !result.filePath ? null : result.filePath;
}

export async function chooseSnapshotOpenPath(): Promise<string | null> {
  const options = { title: 'Open snapshot', filters: FILTERS, properties: ['openFile'] as Array<'openFile'> };
  const win = owner();
  const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}
