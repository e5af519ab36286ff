import type { PageInfo } from '../contract/models';
import type { Problem } from '../contract/problem';

/** IPC channel names, shared by the main-process handlers and the preload bridge. */
export const IPC_INVOKE = 'skiff:invoke';
export const IPC_RENEW_SESSION = 'skiff:renew-session';

/**
 * What crosses the IPC boundary back to the renderer: never an Error object, always data. An ok
 * outcome carries the same facts the HTTP transport reads from headers: paging (the PageInfo that
 * x-Total, x-Limit, x-Offset and Link carry) and `staleSince` (x-Stale-Since, the RFC 3339 time a
 * cache whose watch is broken last matched the cluster; absent when the answer is fresh).
 */
export type IpcOutcome<R> =
  | {
      ok: true;
      data: R;
      page?: PageInfo;
      staleSince?: string;
    }
  | { ok: false; problem: Problem };
