/**
 * The certificate and key `serve --tls-cert/--tls-key` serves HTTPS with, read from files and
 * read again when they change (cert-manager renews a mounted Secret in place). Rules:
 * - At start a pair that cannot be read or does not match is an error naming the file; the
 *   service does not start on it.
 * - Later, files are polled (fs.watchFile: a stat per interval). Polling, not fs.watch, because a
 *   Kubernetes Secret volume swaps a `..data` symlink rather than writing the files, which inotify
 *   on the file itself never reports; a stat follows the link.
 * - A changed pair is checked (both read, the key matching the certificate) before it replaces the
 *   one served; a half-written or mismatched pair (the certificate renewed, the key not yet) is
 *   logged and the old pair kept, so connections keep working and the next change is tried again.
 *   Connections already open keep the pair they shook hands with.
 */
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { createSecureContext, type Server as TlsServer } from 'node:tls';
import type { Logger } from '../logger';

export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

export interface TlsPair {
  cert: Buffer;
  key: Buffer;
}

/** A pair that cannot be served, with the file and the reason named. */
export class TlsFilesError extends Error {}

/** How often the files are checked for a change. */
export const TLS_POLL_MS = 2_000;

function readOne(flag: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new TlsFilesError(`${flag} ${path}: cannot be read (${(err as NodeJS.ErrnoException).code})`);
  }
}

/** Reads both files and checks that the key belongs to the certificate. */
export function readTlsPair(files: TlsFiles): TlsPair {
  const pair = { cert: readOne('--tls-cert', files.certFile), key: readOne('--tls-key', files.keyFile) };
  try {
    createSecureContext(pair);
  } catch (err) {
    throw new TlsFilesError(
      `--tls-cert ${files.certFile} and --tls-key ${files.keyFile} cannot be served together: ${(err as Error).message}`,
    );
  }
  return pair;
}

/**
 * Serves a changed pair from the next handshake on; returns how to stop watching. `server` is
 * the HTTPS server started with the pair read by readTlsPair.
 */
export function reloadOnChange(
  server: TlsServer,
  files: TlsFiles,
  logger: Logger,
  intervalMs = TLS_POLL_MS,
): () => void {
  const changed = () => {
    try {
      server.setSecureContext(readTlsPair(files));
      logger.info({ cert: files.certFile }, 'serving the renewed TLS certificate');
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'kept the TLS certificate served until now');
    }
  };
  // Not persistent: a watch alone must not keep the process running.
  const paths = [files.certFile, files.keyFile];
  for (const path of paths) watchFile(path, { interval: intervalMs, persistent: false }, changed);
  return () => {
    for (const path of paths) unwatchFile(path, changed);
  };
}
