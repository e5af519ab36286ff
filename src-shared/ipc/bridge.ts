import type { RawInput } from '../contract/define';
import type { OperationName, Operations } from '../contract/operations';
import type { IpcOutcome } from './channels';

/**
 * What the preload exposes to the page as `window.skiff`: one method per contract operation and
 * nothing else, derived from the contract so the preload and the renderer cannot disagree on it.
 */
export type Bridge = {
  [K in OperationName]: (input: RawInput<Operations[K]>) => Promise<IpcOutcome<unknown>>;
};

export type { SavedSnapshot, SnapshotFilesBridge } from './snapshot-files';

/** Desktop only (`window.skiffDesktop`): sign this device in again after its session was logged out. */
export interface DesktopBridge {
  renewSession(): Promise<IpcOutcome<null>>;
}
