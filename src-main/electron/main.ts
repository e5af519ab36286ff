// First: V8 must know it should keep the heap small before the other modules allocate.
import '../service/heap-profile';
import { app, ipcMain, safeStorage, session, type WebFrameMain } from 'electron';
// The window icon; electron-vite resolves ?asset to a path that holds in dev and packaged builds.
import icon from '../../resources/icons/512x512.png?asset';
import { loadClusterSources } from '../service/clusters/sources';
import { createService } from '../service/index';
import { createLogger } from '../service/logger';
import { registerAppScheme, serveAppScheme } from './app-protocol';
import { DesktopSession } from './desktop-session';
import { openDesktopStore } from './desktop-store';
import { registerIpcHandlers } from './ipc-handlers';
import { LocalApi } from './local-api';
import { isAppUrl } from './navigation-policy';
import { PORT_STREAMS, registerPortStreamIpc } from './port-stream-ipc';
import { chooseSnapshotOpenPath, chooseSnapshotSavePath } from './snapshot-dialogs';
import { registerSnapshotIpc } from './snapshot-ipc';
import { openSnapshotForDesktop } from './snapshot-open';
import { createTokenVault } from './token-vault';
import { createMainWindow, RENDERER_ROOT, rendererUrl } from './window';

/**
 * The thin Electron shell: it hosts the same service `serve` runs, opens one locked-down window,
 * and bridges IPC to the service's operations. Nothing else in src-main imports electron.
 */

const logger = createLogger();
// Scheme privileges can only be declared before the app is ready.
registerAppScheme();

async function start() {
  await app.whenReady();
  serveAppScheme(RENDERER_ROOT);
  // Nothing in Skiff needs the camera, notifications or any other permission.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);

  const dataDir = app.getPath('userData');
  const store = openDesktopStore(dataDir);
  const vault = createTokenVault(safeStorage, process.platform);
  const sources = await loadClusterSources([], false);
  let localApi: LocalApi | null = null;
  const service = createService({
    dataDir,
    contexts: sources.contexts,
    ...(sources.demo ? { demo: sources.demo } : {}),
    kubeconfigPaths: sources.paths,
    logger,
    appHost: {
      mode: 'desktop',
      localApi: () => localApi?.describe() ?? { enabled: false, port: 0, url: null, editable: true },
      setLocalApi: async (patch) => localApi?.set(patch),
      tokenStorage: () => ({
        kind: vault.kind,
        backend: vault.backend,
        notice:
          vault.kind === 'memory'
            ? `No OS secret store backs safeStorage here (backend: ${vault.backend}), so this device's refresh token is kept in memory only and each start begins a new session.`
            : null,
      }),
    },
  });
  await service.auth.ready;
  localApi = new LocalApi(service, store, logger);
  await localApi.apply();

  const desktop = new DesktopSession(service, vault, store);
  const appUrl = rendererUrl();
  // Only the top frame of our own page: an iframe or a navigated-away page gets nothing.
  const isTrustedSender = (event: { senderFrame: WebFrameMain | null }) => {
    const frame = event.senderFrame;
    return frame !== null && frame.parent === null && isAppUrl(frame.url, appUrl);
  };
  const principal = () => desktop.principal();
  registerIpcHandlers(ipcMain, {
    invoke: service.invoke,
    isTrustedSender,
    principal,
    renewSession: () => desktop.renew(),
  });
  // A pod's log and the events view's live watch: MessagePorts with credit.
  for (const stream of Object.values(PORT_STREAMS)) {
    registerPortStreamIpc(ipcMain, stream, { invoke: service.invoke, isTrustedSender, principal });
  }
  // Snapshot files: saved and opened by main with its own dialogs; the page never handles the bytes.
  registerSnapshotIpc(ipcMain, {
    invoke: service.invoke,
    isTrustedSender,
    principal,
    chooseSavePath: chooseSnapshotSavePath,
    chooseOpenPath: chooseSnapshotOpenPath,
    openFile: (path, principal) => openSnapshotForDesktop(service, path, principal),
  });

  createMainWindow(store, { appUrl, icon });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', () => {
    void localApi?.stop();
    void service.close();
    void sources.simulator?.close();
  });
}

void start().catch((err: unknown) => {
  logger.fatal({ err }, 'Skiff failed to start');
  app.exit(1);
});
