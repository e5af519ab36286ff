import { protocol } from 'electron';
import { APP_SCHEME, appResponse } from './app-protocol-path';

/**
 * The app:// scheme in Electron. Privileges must be declared before the app is ready: standard
 * (relative URLs resolve, and the page has a real origin, app://skiff), secure (a secure context,
 * as https would be) and supportFetchAPI. corsEnabled stays off, so no other origin can read it.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Serves the built renderer from `root`; what a URL may read is decided in app-protocol-path. */
export function serveAppScheme(root: string): void {
  protocol.handle(APP_SCHEME, (request) => appResponse(request, root));
}
