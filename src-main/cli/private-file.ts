/**
 * Files `serve` writes for kubectl (`--demo-kubeconfig`, `--snapshot-kubeconfig`): they hold
 * credentials, so they are the owner's alone (0600, also when the file was there before with a
 * wider mode, which `open`'s mode alone would keep). A path that cannot be written is a usage
 * error named by its flag, in one line: checked before anything starts, and again when written.
 */

import { accessSync, closeSync, constants, fchmodSync, openSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from './args';

const REASONS: Record<string, string> = {
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of its path is not a folder',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
};

function refusal(flag: string, path: string, err: unknown): UsageError {
  const { code, message } = err as NodeJS.ErrnoException;
  const reason = (code && REASONS[code]) ?? message.split('\n')[0];
  return new UsageError(`${flag} ${path}: cannot write the file: ${reason}`);
}

/** Throws the usage error `writePrivateFile` would, without writing anything. */
export function checkWritable(flag: string, path: string): void {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (stat) accessSync(path, constants.W_OK);
    else {
      const folder = statSync(dirname(path));
      if (!folder.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
      accessSync(dirname(path), constants.W_OK);
    }
  } catch (err) {
    throw refusal(flag, path, err);
  }
}

/** Replaces the file's content with `text`, readable and writable by its owner only. */
export function writePrivateFile(flag: string, path: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'w', 0o600);
  } catch (err) {
    throw refusal(flag, path, err);
  }
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, text);
  } catch (err) {
    throw refusal(flag, path, err);
  } finally {
    closeSync(fd);
  }
}
