/**
 * Where the window may go. Pure functions, so the rules are tested in Node without Electron.
 */

/**
 * The app's own origin: the dev server in development, app://skiff/ otherwise. Node's URL gives
 * every scheme it does not know the opaque origin "null", the same for app: as for evil:, so a
 * custom scheme is compared by scheme and host rather than by `origin`.
 */
export function isAppUrl(url: string, appUrl: string): boolean {
  try {
    const target = new URL(url);
    const app = new URL(appUrl);
    if (app.protocol === 'http:' || app.protocol === 'https:') return target.origin === app.origin;
    return (
      app.host !== '' && // a file: URL names no origin, so it cannot be the app's
      target.protocol === app.protocol &&
      target.host === app.host &&
      target.username === '' &&
      target.password === ''
    );
  } catch {
    return false;
  }
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Only https links leave the app, and only to the system browser; and the local API's reference
 * page (Settings → "API reference"), plain http on loopback, which holds no credential.
 */
export function isAllowedExternal(url: string): boolean {
  try {
    const u = new URL(url);
    if (u.username !== '' || u.password !== '') return false;
    if (u.protocol === 'http:' && LOOPBACK.has(u.hostname) && u.pathname === '/v1/docs' && u.search === '')
      return true;
    return u.protocol === 'https:';
  } catch {
    return false;
  }
}
