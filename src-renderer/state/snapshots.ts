import { create } from 'zustand';
import type { Cluster } from '../../src-shared/contract/models';
import type { SnapshotJob } from '../../src-shared/contract/snapshot-models';
import {
  DEFAULT_SNAPSHOT_LOG_LINES,
  MAX_SNAPSHOT_LOG_LINES,
} from '../../src-shared/contract/snapshot-operations';
import type { IpcOutcome } from '../../src-shared/ipc/channels';
import type { SnapshotFilesBridge } from '../../src-shared/ipc/snapshot-files';
import { ApiError } from '../api';
import { fetchSnapshotFile, saveBlob, uploadSnapshotFile } from '../api/snapshot-file';
import { useClusters } from './clusters';
import { api } from './connection';
import { useRoute } from './route';

declare global {
  interface Window {
    /** The desktop app's snapshot file dialogs (src-preload/snapshot-files.ts); absent in a browser. */
    skiffSnapshots?: SnapshotFilesBridge;
  }
}

export type WhoseLogs = 'all' | 'failing' | 'none';

export interface CaptureOptions {
  logLines: number;
  logs: WhoseLogs;
}

export const DEFAULT_CAPTURE: CaptureOptions = { logLines: DEFAULT_SNAPSHOT_LOG_LINES, logs: 'all' };
export { MAX_SNAPSHOT_LOG_LINES };

/** How often a running capture is asked for its progress. */
const POLL_MS = 750;

interface SnapshotsState {
  /** The capture this window started (one at a time), as last reported; null before any. */
  job: SnapshotJob | null;
  starting: boolean;
  /** Starting or following the capture failed (not the capture itself: that is `job.error`). */
  captureError: string | null;
  saving: boolean;
  /** Where the file went: a path in the desktop app, the file name in a browser. */
  savedTo: string | null;
  saveError: string | null;

  /** Whether this person may open a snapshot: always in the desktop app, administrators in a browser. */
  canOpen: boolean;
  opening: boolean;
  openError: string | null;
  /** The snapshot being closed (its clusterId), while the service closes it. */
  closing: string | null;
  closeError: string | null;

  startCapture(workspaceId: string, clusterId: string, options: CaptureOptions): Promise<void>;
  saveFile(): Promise<void>;
  /** Forgets the finished (or failed) capture, so a new one can be set up. */
  resetCapture(): void;
  loadPermissions(): Promise<void>;
  /** Desktop: the open dialog. */
  openWithDialog(): Promise<void>;
  /** A file chosen in a file input or dropped onto the window. */
  openFile(file: File): Promise<void>;
  clearOpenError(): void;
  /**
   * Closes an opened snapshot: it leaves every cluster list, this session's and later ones'.
   * The switcher then lands on a connected cluster, as when the selected one is gone.
   */
  closeSnapshot(cluster: Cluster): Promise<void>;
}

function detail(err: unknown): string {
  return err instanceof ApiError ? err.problem.detail || err.problem.title : (err as Error).message;
}

function unwrap<T>(outcome: IpcOutcome<T>): T {
  if (!outcome.ok) throw new ApiError(outcome.problem);
  return outcome.data;
}

const desktopFiles = (): SnapshotFilesBridge | undefined =>
  typeof window === 'undefined' ? undefined : window.skiffSnapshots;

/** Lands on the opened snapshot: its workspace and cluster, the resources area. */
async function select(cluster: Cluster): Promise<void> {
  useRoute.getState().go({
    workspaceId: cluster.workspaceId,
    clusterId: cluster.clusterId,
    area: 'resources',
    selected: null,
  });
  await useClusters.getState().refresh();
}

let pollTimer: ReturnType<typeof setTimeout> | null = null;

function stopPolling(): void {
  if (pollTimer !== null) clearTimeout(pollTimer);
  pollTimer = null;
}

export const useSnapshots = create<SnapshotsState>()((set, get) => {
  const poll = (snapshotId: string) => {
    pollTimer = setTimeout(async () => {
      pollTimer = null;
      try {
        const job = (await api().call('getSnapshot', { params: { snapshotId } })).data;
        // A reset while the answer was on its way: that job is no longer shown.
        if (get().job?.snapshotId !== snapshotId) return;
        set({ job, captureError: null });
        if (job.status === 'running') poll(snapshotId);
      } catch (err) {
        if (get().job?.snapshotId !== snapshotId) return;
        set({ captureError: `Progress could not be read: ${detail(err)}` });
        // A hiccup (the service restarting its listener, a token refresh) is retried; an unknown
        // job (it expired, or the service restarted) is not going to come back.
        if (!(err instanceof ApiError && err.problem.status === 404)) poll(snapshotId);
      }
    }, POLL_MS);
  };

  return {
    job: null,
    starting: false,
    captureError: null,
    saving: false,
    savedTo: null,
    saveError: null,
    canOpen: desktopFiles() !== undefined,
    opening: false,
    openError: null,
    closing: null,
    closeError: null,

    async startCapture(workspaceId, clusterId, options) {
      stopPolling();
      set({ starting: true, captureError: null, job: null, savedTo: null, saveError: null });
      try {
        const job = (
          await api().call('createSnapshot', {
            params: { workspaceId, clusterId },
            body: { logLines: options.logLines, logs: options.logs },
          })
        ).data;
        set({ job, starting: false });
        if (job.status === 'running') poll(job.snapshotId);
      } catch (err) {
        set({ starting: false, captureError: detail(err) });
      }
    },

    async saveFile() {
      const job = get().job;
      if (job?.status !== 'done') return;
      set({ saving: true, saveError: null });
      try {
        const files = desktopFiles();
        if (files) {
          const saved = unwrap(await files.save(job.snapshotId));
          set({ saving: false, ...(saved ? { savedTo: saved.path } : {}) });
        } else {
          saveBlob(await fetchSnapshotFile(job.snapshotId), job.fileName);
          set({ saving: false, savedTo: job.fileName });
        }
      } catch (err) {
        set({ saving: false, saveError: detail(err) });
      }
    },

    resetCapture() {
      stopPolling();
      set({ job: null, starting: false, captureError: null, saving: false, savedTo: null, saveError: null });
    },

    async loadPermissions() {
      if (desktopFiles()) {
        set({ canOpen: true });
        return;
      }
      try {
        const me = await api().call('whoAmI', { params: {} });
        set({ canOpen: me.data.account.role === 'admin' });
      } catch {
        // Unknown: offer nothing rather than a button that is sure to be refused.
        set({ canOpen: false });
      }
    },

    async openWithDialog() {
      const files = desktopFiles();
      if (!files) return;
      set({ opening: true, openError: null });
      try {
        const cluster = unwrap(await files.open());
        set({ opening: false });
        if (cluster) await select(cluster);
      } catch (err) {
        set({ opening: false, openError: detail(err) });
      }
    },

    async openFile(file) {
      set({ opening: true, openError: null });
      try {
        const files = desktopFiles();
        const cluster = files ? unwrap(await files.openDropped(file)) : await uploadSnapshotFile(file);
        set({ opening: false });
        await select(cluster);
      } catch (err) {
        set({ opening: false, openError: `${file.name} could not be opened: ${detail(err)}` });
      }
    },

    clearOpenError() {
      set({ openError: null });
    },

    async closeSnapshot(cluster) {
      set({ closing: cluster.clusterId, closeError: null });
      try {
        await api().call('closeSnapshot', {
          params: { workspaceId: cluster.workspaceId, clusterId: cluster.clusterId },
        });
      } catch (err) {
        // Closed already (another tab, another administrator): gone all the same.
        if (!(err instanceof ApiError && err.problem.status === 404)) {
          set({ closing: null, closeError: `The snapshot could not be closed: ${detail(err)}` });
          return;
        }
      }
      // Nothing of the snapshot stays selected; the refresh picks the cluster shown next.
      useRoute.getState().go({ clusterId: null, selected: null });
      await useClusters.getState().refresh();
      set({ closing: null });
    },
  };
});
