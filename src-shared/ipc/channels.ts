/** IPC channel names, shared by the main-process handlers and the preload bridge. */
export const IPC_INVOKE = 'skiff:invoke';
export const IPC_RENEW_SESSION = 'skiff:renew-session';

/** What crosses the IPC boundary back to the renderer: never an Error object, always data. */
export type IpcOutcome<R> =
  | { ok: true; data: R; page?: { total: number; limit: number; offset: number } }
  | { ok: false; problem: import('../contract/problem').Problem };
