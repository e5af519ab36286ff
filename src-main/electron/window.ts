import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BrowserWindow, shell } from 'electron';
import { APP_INDEX_URL } from './app-protocol-path';
import type { DesktopStore } from './desktop-store';
import { isAllowedExternal, isAppUrl } from './navigation-policy';

const here = dirname(fileURLToPath(import.meta.url));

/** The built renderer's folder, which the app:// scheme serves and nothing outside it. */
export const RENDERER_ROOT = join(here, '../renderer');

/** The renderer's address: the dev server under `electron-vite dev`, app://skiff/ otherwise. */
export function rendererUrl(): string {
  return process.env.ELECTRON_RENDERER_URL ?? APP_INDEX_URL;
}

export interface MainWindowOptions {
  /** The page to load; see rendererUrl(). */
  appUrl: string;
  /** The window and taskbar icon (a PNG from resources/icons). */
  icon: string;
}

/** One locked-down window; its size and position persist across runs. */
export function createMainWindow(store: DesktopStore, options: MainWindowOptions): BrowserWindow {
  const saved = store.read().window;
  const win = new BrowserWindow({
    width: saved.width,
    height: saved.height,
    ...(saved.x !== undefined && saved.y !== undefined ? { x: saved.x, y: saved.y } : {}),
    minWidth: 800,
    minHeight: 500,
    show: false,
    title: 'Skiff',
    icon: options.icon,
    // Written out here, where the window is made, so a reviewer or a scanner sees each one.
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  if (saved.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());

  const app = options.appUrl;
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, app)) event.preventDefault();
  });
  win.webContents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, app)) event.preventDefault();
  });
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternal(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });

  const remember = () => {
    if (win.isDestroyed()) return;
    const maximized = win.isMaximized();
    const b = win.getNormalBounds();
    store.update((s) => ({ ...s, window: { x: b.x, y: b.y, width: b.width, height: b.height, maximized } }));
  };
  win.on('resized', remember);
  win.on('moved', remember);
  win.on('close', remember);

  // The last workspace, cluster and view live in the page's hash; remember it, and reopen there.
  win.webContents.on('did-navigate-in-page', (_event, url) => {
    const hash = new URL(url).hash;
    if (isAppUrl(url, app) && hash.length <= 500) store.update((s) => ({ ...s, lastView: { route: hash } }));
  });
  const lastRoute = store.read().lastView.route;
  void win.loadURL(lastRoute?.startsWith('#') ? `${app.split('#')[0]}${lastRoute}` : app);
  return win;
}
