/**
 * File bodies (upload.ts through request-handler.ts, POST /v1/snapshots): media types written with optional
 * whitespace, and an upload folder that refuses the file.
 */
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SNAPSHOT_MEDIA_TYPE } from '../../../src-shared/contract/snapshot-operations';
import { type Edge, type EdgeCall, startEdge } from './edge.test-support';

const MAX = 1_000;

let base: string;
let dir: string;
let edge: Edge;

/** The operation: receives the file and answers with what it got. */
async function receive({ ctx }: EdgeCall) {
  const got = await ctx.upload!.receive();
  return { status: 201, data: { bytes: got.bytes, text: await readFile(got.path, 'latin1') } };
}

beforeEach(async () => {
  base = join(tmpdir(), `skiff-upload-rules-${process.pid}-${Math.random().toString(36).slice(2)}`);
  dir = join(base, 'uploads');
  edge = await startEdge({ uploads: { dir, maxBytes: MAX }, answer: receive });
});
afterEach(async () => {
  await edge.close();
  await rm(base, { recursive: true, force: true });
});

describe('file uploads', () => {
  it('takes an accepted media type with whitespace before its parameters', async () => {
    for (const type of [`${SNAPSHOT_MEDIA_TYPE} ; v=1`, 'application/octet-stream\t;charset=binary']) {
      const res = await fetch(`${edge.url}/v1/snapshots`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: 'bytes',
      });
      expect(res.status, type).toBe(201);
      expect(await res.json(), type).toEqual({ bytes: 5, text: 'bytes' });
    }
  });

  it.skipIf(!existsSync('/sys/kernel'))(
    'fails with the error of the folder that refused the file, not one from removing a file never made',
    async () => {
      // A folder that exists, where not even root may create a file.
      const refusing = '/sys/kernel';
      let seen: NodeJS.ErrnoException | undefined;
      const other = await startEdge({
        uploads: { dir: refusing, maxBytes: MAX },
        answer: async (call) => {
          try {
            return await receive(call);
          } catch (err) {
            seen = err as NodeJS.ErrnoException;
            throw err;
          }
        },
      });
      try {
        const res = await fetch(`${other.url}/v1/snapshots`, {
          method: 'POST',
          headers: { 'content-type': SNAPSHOT_MEDIA_TYPE },
          body: 'bytes',
        });
        expect(res.status).toBe(500);
        expect(seen).toMatchObject({ syscall: 'open' });
        expect(seen!.path).toMatch(/^\/sys\/kernel\/upload-[0-9a-f-]{36}\.skiff$/);
      } finally {
        await other.close();
      }
    },
  );
});
