import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Upload } from '../context';
import { ProblemError } from '../errors';

/**
 * Request bodies that are files (operations with `consumes`, e.g. a snapshot): streamed to a
 * temporary file, never held in memory, and bounded. Nothing is read until the operation asks,
 * so a caller it refuses (a non-administrator) costs no upload. The file is removed once the
 * answer is sent unless the operation kept it.
 */

export interface UploadOptions {
  /** Where bodies are written; created on first use. */
  dir: string;
  /** Bodies larger than this are refused with 413. */
  maxBytes: number;
}

export const DEFAULT_UPLOAD_MAX_BYTES = 4 * 1024 ** 3;

const tooLarge = (max: number) =>
  new ProblemError('payload_too_large', `the file must be at most ${max} bytes`, { maxBytes: max });

export function createUpload(
  req: IncomingMessage,
  res: ServerResponse,
  consumes: readonly string[],
  opts: UploadOptions,
  signal: AbortSignal,
): { upload: Upload; cleanup(): Promise<void> } {
  let path: string | undefined;
  let kept = false;
  const upload: Upload = {
    async receive() {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!consumes.includes(type)) {
        throw new ProblemError(
          'unsupported_media_type',
          `send the file with Content-Type ${consumes.join(' or ')}${type ? `, not ${type}` : ''}`,
          { accepted: consumes },
        );
      }
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes) throw tooLarge(opts.maxBytes);
      await mkdir(opts.dir, { recursive: true, mode: 0o700 });
      path = join(opts.dir, `upload-${randomUUID()}.skiff`);
      let bytes = 0;
      const bound = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          done(bytes > opts.maxBytes ? tooLarge(opts.maxBytes) : null, chunk);
        },
      });
      try {
        await pipeline(req, bound, createWriteStream(path, { flags: 'wx', mode: 0o600 }), { signal });
      } catch (err) {
        await rm(path, { force: true });
        throw err;
      }
      return { path, bytes };
    },
    keep() {
      kept = true;
    },
  };
  return {
    upload,
    async cleanup() {
      // Answered before the body was read whole (refused, or too large): the rest is not read, so
      // the connection cannot carry another request and closes after the answer.
      if (!req.readableEnded && !res.headersSent) res.setHeader('Connection', 'close');
      if (path !== undefined && !kept) await rm(path, { force: true });
    },
  };
}
