import { join } from 'node:path';
import { app, BrowserWindow, ipcMain, session, shell } from 'electron';
import { loadClusterSources } from '../cli/sources';
import { createService } from '../service/index';
import { createLogger } from '../service/logger';
import { registerIpcHandlers } from './ipc-handlers';

/**
 * The thin Electron shell: it hosts the same service `serve` runs, opens one locked-down window,
 * and bridges IPC to the service's operations. Nothing else in src-main imports electron.
 */

const logger = createLogger();
let mainWindow: BrowserWindow | null = null;

function rendererUrl(): string {
  return process.env.ELECTRON_RENDERER_URL ?? `file://${join(__dirname, '../renderer/index.html')}`;
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    show: false,
    webPreferences: {
      preload: join(__dirname, '../preload/index.mjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  win.once('ready-to-show', () => win.show());
  // The window shows only Skiff: navigation away and new windows are refused; https links open outside.
  win.webContents.on('will-navigate', (event, url) => {
    if (!url.startsWith(rendererUrl().split('#')[0]!)) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  void win.loadURL(rendererUrl());
  return win;
}

async function start() {
  await app.whenReady();
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  const sources = await loadClusterSources([], false);
  const service = createService({
    dataDir: app.getPath('userData'),
    contexts: sources.contexts,
    ...(sources.demo ? { demo: sources.demo } : {}),
    logger,
  });
  const { url } = await service.listen(0, '127.0.0.1');
  logger.info({ url }, 'local API listening');
  registerIpcHandlers(ipcMain, {
    invoke: service.invoke,
    isTrustedSender: (event) => event.senderFrame?.url.startsWith(rendererUrl().split('#')[0]!) ?? false,
    principal: () => ({ accountId: 'local', workspaces: 'all' }),
  });
  mainWindow = createWindow();
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', () => {
    void service.close();
    void sources.simulator?.close();
  });
}

void start().catch((err: unknown) => {
  logger.fatal({ err }, 'Skiff failed to start');
  app.exit(1);
});

export { mainWindow };
