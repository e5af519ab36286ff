import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { IpcMainInvokeEvent } from 'electron';
import type { StreamBody } from '../../src-shared/contract/define';
import type { Cluster } from '../../src-shared/contract/models';
import type { SnapshotJob } from '../../src-shared/contract/snapshot-models';
import { SNAPSHOT_MEDIA_TYPE } from '../../src-shared/contract/snapshot-operations';
import type { IpcOutcome } from '../../src-shared/ipc/channels';
import {
  IPC_SNAPSHOT_OPEN,
  IPC_SNAPSHOT_OPEN_PATH,
  IPC_SNAPSHOT_SAVE,
  type SavedSnapshot,
} from '../../src-shared/ipc/snapshot-files';
import type { Principal } from '../service/context';
import { ProblemError } from '../service/errors';
import type { Invoker } from '../service/invoke';
import type { IpcMainLike } from './ipc-handlers';

/**
 * Snapshot files for the desktop window: saving a finished capture where the person chooses, and
 * opening a `.skiff` file from the open dialog or a drop onto the window. The dialogs and the
 * service's open method come in as functions, so this runs (and is tested) without Electron.
 */
export interface SnapshotIpcOptions {
  invoke: Invoker;
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean;
  /** The desktop session's principal; rejects with a 401 problem once this device is logged out. */
  principal: () => Promise<Principal>;
  /** The save dialog, proposing `fileName`; null when the person cancelled. */
  chooseSavePath: (fileName: string) => Promise<string | null>;
  /** The open dialog; null when the person cancelled. */
  chooseOpenPath: () => Promise<string | null>;
  /** The service's method that opens a `.skiff` file as a read-only cluster. */
  openFile: (path: string, principal: Principal) => Promise<Cluster>;
}

/** A path of a file dropped onto the window or chosen in a dialog; nothing relative, nothing huge. */
const MAX_PATH = 4096;

function problemOf(err: unknown) {
  const problem =
    err instanceof ProblemError
      ? err
      : new ProblemError(
          'internal_error',
          `the snapshot file could not be handled: ${(err as Error).message}`,
        );
  return problem.toProblem();
}

function chunkSource(body: StreamBody<string | Uint8Array>): Readable {
  // Byte chunks are written as they are; text chunks (no snapshot sends any) as UTF-8.
  return Readable.from(body.chunks, { objectMode: false });
}

/**
 * Writes the job's file to `target` through a temporary name beside it, so a save that fails
 * halfway (the job expired, the disk filled up) never leaves a truncated `.skiff` under the
 * chosen name.
 */
export async function saveSnapshotFile(
  invoke: Invoker,
  principal: Principal,
  snapshotId: string,
  target: string,
): Promise<SavedSnapshot> {
  const abort = new AbortController();
  const reply = await invoke(
    'downloadSnapshot',
    { params: { snapshotId }, query: {}, body: undefined },
    { principal, client: { via: 'ipc' }, signal: abort.signal, mediaType: SNAPSHOT_MEDIA_TYPE },
  );
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.part`);
  try {
    await pipeline(
      chunkSource(reply.data as StreamBody<string | Uint8Array>),
      createWriteStream(temp, { flags: 'wx' }),
    );
    await rename(temp, target);
  } catch (err) {
    abort.abort();
    await rm(temp, { force: true });
    throw err instanceof ProblemError
      ? err
      : new ProblemError('internal_error', `${target} could not be written: ${(err as Error).message}`);
  }
  return { path: target, sizeBytes: (await stat(target)).size };
}

/** Registers the three snapshot channels; returns the function that removes them. */
export function registerSnapshotIpc(ipcMain: IpcMainLike, opts: SnapshotIpcOptions): () => void {
  const guarded =
    <R>(run: (...args: unknown[]) => Promise<R>) =>
    async (event: IpcMainInvokeEvent, ...args: unknown[]): Promise<IpcOutcome<R>> => {
      try {
        if (!opts.isTrustedSender(event)) {
          throw new ProblemError('forbidden', 'IPC from a frame that is not the Skiff window is refused');
        }
        return { ok: true, data: await run(...args) };
      } catch (err) {
        return { ok: false, problem: problemOf(err) };
      }
    };

  ipcMain.handle(
    IPC_SNAPSHOT_SAVE,
    guarded(async (snapshotId): Promise<SavedSnapshot | null> => {
      if (typeof snapshotId !== 'string') {
        throw new ProblemError('invalid_parameter', 'snapshotId must be a string');
      }
      const principal = await opts.principal();
      // Asked first, so an unknown or unfinished job is refused before any dialog opens.
      const job = (
        await opts.invoke(
          'getSnapshot',
          { params: { snapshotId }, query: {}, body: undefined },
          { principal, client: { via: 'ipc' }, signal: new AbortController().signal },
        )
      ).data as SnapshotJob;
      if (job.status !== 'done') {
        throw new ProblemError(
          'conflict',
          job.status === 'failed'
            ? `The snapshot failed and has no file: ${job.error ?? 'no reason given'}`
            : 'The snapshot is still being taken; save it once it is done.',
        );
      }
      const target = await opts.chooseSavePath(job.fileName);
      if (target === null) return null;
      return saveSnapshotFile(opts.invoke, principal, snapshotId, target);
    }),
  );

  ipcMain.handle(
    IPC_SNAPSHOT_OPEN,
    guarded(async (): Promise<Cluster | null> => {
      const principal = await opts.principal();
      const path = await opts.chooseOpenPath();
      if (path === null) return null;
      return opts.openFile(path, principal);
    }),
  );

  ipcMain.handle(
    IPC_SNAPSHOT_OPEN_PATH,
    guarded(async (path): Promise<Cluster> => {
      if (typeof path !== 'string' || path.length > MAX_PATH || !isAbsolute(path)) {
        throw new ProblemError('invalid_parameter', 'a dropped snapshot must be a file on this computer');
      }
      return opts.openFile(path, await opts.principal());
    }),
  );

  return () => {
    ipcMain.removeHandler(IPC_SNAPSHOT_SAVE);
    ipcMain.removeHandler(IPC_SNAPSHOT_OPEN);
    ipcMain.removeHandler(IPC_SNAPSHOT_OPEN_PATH);
  };
}
