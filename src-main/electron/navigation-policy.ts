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

/** Only https links leave the app, and only to the system browser. */
export function isAllowedExternal(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}
