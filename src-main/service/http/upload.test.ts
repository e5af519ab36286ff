/**
 * File bodies (upload.ts through request-handler.ts, the snapshot upload's POST /v1/snapshots): streamed to
 * a file of their own, bounded by --snapshot-max-size, and never left behind when refused.
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SNAPSHOT_MEDIA_TYPE } from '../../../src-shared/contract/snapshot-operations';
import { ProblemError } from '../errors';
import { type Edge, type EdgeCall, problemOf, rawRequest, startEdge } from './edge.test-support';
import { DEFAULT_UPLOAD_MAX_BYTES } from './upload';

const MAX = 1_000;

let base: string;
let dir: string;
let edge: Edge;
/** What the folder held each time receive() failed, read before the answer went out. */
let leftAtFailure: string[][];
/** Settles when the operation has seen receive() fail. */
let failed: Promise<void>;
let failedNow: () => void;

/** The operation: receives the file, keeps it when asked (?keep is not in the contract: a header). */
async function receiveAndTell({ ctx }: EdgeCall) {
  try {
    const got = await ctx.upload!.receive();
    if (ctx.client.userAgent === 'keep') ctx.upload!.keep();
    return { status: 201, data: { ...got, text: await readFile(got.path, 'latin1') } };
  } catch (err) {
    leftAtFailure.push(await readdir(dir).catch(() => []));
    failedNow();
    throw err;
  }
}

beforeEach(async () => {
  base = join(tmpdir(), `skiff-upload-test-${process.pid}-${Math.random().toString(36).slice(2)}`);
  // Nested and not there yet: the first upload creates it.
  dir = join(base, 'data', 'opened-snapshots');
  leftAtFailure = [];
  failed = new Promise((resolve) => {
    failedNow = resolve;
  });
  edge = await startEdge({ uploads: { dir, maxBytes: MAX }, answer: receiveAndTell });
});
afterEach(async () => {
  await edge.close();
  await rm(base, { recursive: true, force: true });
});

const files = () => readdir(dir).catch(() => [] as string[]);
const upload = (body: BodyInit, type = SNAPSHOT_MEDIA_TYPE, keep = false) =>
  fetch(`${edge.url}/v1/snapshots`, {
    method: 'POST',
    headers: { 'content-type': type, ...(keep ? { 'user-agent': 'keep' } : {}) },
    body,
    duplex: 'half',
  } as RequestInit);
const head = (type: string, length: number | 'chunked', extra = '') =>
  `POST /v1/snapshots HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\n${
    length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`
  }\r\n${extra}\r\n`;
/** A body streamed in pieces, with no length declared. */
const streamed = (pieces: number, size: number) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < pieces; i++) controller.enqueue(new Uint8Array(size).fill(65 + i));
      controller.close();
    },
  });

describe('file uploads', () => {
  it('streams the body to a private file of its own in the upload folder and hands the operation its path and size', async () => {
    const body = Buffer.from('SQLite format 3\0 and then some bytes é', 'latin1');
    const res = await upload(body, SNAPSHOT_MEDIA_TYPE, true);
    expect(res.status).toBe(201);
    const got = (await res.json()) as { path: string; bytes: number; text: string };
    expect(got.bytes).toBe(body.length);
    expect(got.text).toBe(body.toString('latin1'));
    expect(dirname(got.path)).toBe(dir);
    expect(got.path).toMatch(/upload-[0-9a-f-]{36}\.skiff$/);
    expect((await stat(got.path)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(edge.calls.map((c) => [c.name, c.raw.body])).toEqual([['openSnapshot', undefined]]);
  });

  it('removes the file once the answer is sent unless the operation kept it', async () => {
    const kept = (await (await upload('first', SNAPSHOT_MEDIA_TYPE, true)).json()) as { path: string };
    const dropped = (await (await upload('second')).json()) as { path: string };
    expect(kept.path).not.toBe(dropped.path);
    expect(await files()).toEqual([kept.path.slice(dir.length + 1)]);
  });

  it('takes the accepted media types whatever their case and parameters', async () => {
    for (const type of ['Application/Octet-Stream; charset=binary', ` ${SNAPSHOT_MEDIA_TYPE} `]) {
      expect((await upload('bytes', type)).status, type).toBe(201);
    }
  });

  it('refuses any other media type with 415 naming the accepted ones, and writes nothing', async () => {
    for (const type of ['application/json', 'text/plain; charset=utf-8']) {
      const refused = await problemOf(await upload('{"x":1}', type));
      expect(refused).toMatchObject({ status: 415, code: 'unsupported_media_type' });
      expect(refused.body.accepted).toEqual([SNAPSHOT_MEDIA_TYPE, 'application/octet-stream']);
    }
    const untyped = await rawRequest(edge.url, `${head('', 5).replace('Content-Type: \r\n', '')}`, 'bytes');
    untyped.socket.destroy();
    expect(untyped.status).toBe(415);
    expect(await files()).toEqual([]);
  });
});

describe('the upload bound (--snapshot-max-size)', () => {
  it('accepts a body of exactly the bound, declared or streamed', async () => {
    expect((await upload(Buffer.alloc(MAX, 1))).status).toBe(201);
    const res = await upload(streamed(4, MAX / 4));
    expect(res.status).toBe(201);
    expect(((await res.json()) as { bytes: number }).bytes).toBe(MAX);
  });

  it('refuses a body declared larger with 413 at once, writes nothing and closes the connection', async () => {
    // Only a few bytes of it are ever sent: the answer must not wait for the rest.
    const answer = await rawRequest(edge.url, head('application/octet-stream', MAX + 1), 'SQLite');
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'payload_too_large', maxBytes: MAX });
    expect(answer.headers.connection).toBe('close');
    await answer.closed;
    expect(await files()).toEqual([]);
  });

  it('stops a streamed body at the bound with 413 and removes the part already written', async () => {
    const res = await upload(streamed(8, MAX / 2));
    expect(await problemOf(res)).toMatchObject({ status: 413, code: 'payload_too_large' });
    await failed;
    expect(leftAtFailure).toEqual([[]]);
    expect(await files()).toEqual([]);
  });

  it('without options, writes to the temp folder and bounds uploads at 4 GiB', async () => {
    const defaults = await startEdge({ answer: receiveAndTell });
    const folder = join(tmpdir(), 'skiff-uploads');
    try {
      const res = await fetch(`${defaults.url}/v1/snapshots`, {
        method: 'POST',
        headers: { 'content-type': SNAPSHOT_MEDIA_TYPE },
        body: 'small',
      });
      expect(dirname(((await res.json()) as { path: string }).path)).toBe(folder);
      const big = await rawRequest(
        defaults.url,
        head(SNAPSHOT_MEDIA_TYPE, DEFAULT_UPLOAD_MAX_BYTES + 1, 'Connection: close\r\n'),
      );
      expect([big.status, JSON.parse(big.body).maxBytes]).toEqual([413, 4 * 1024 ** 3]);
    } finally {
      await defaults.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('connections of refused and abandoned uploads', () => {
  it('closes the connection when the operation answers before reading the body', async () => {
    await edge.close();
    edge = await startEdge({
      uploads: { dir, maxBytes: MAX },
      answer: async () => {
        throw new ProblemError('admin_required', 'administrators only');
      },
    });
    const answer = await rawRequest(edge.url, head(SNAPSHOT_MEDIA_TYPE, 500), 'SQLite');
    expect(answer.status).toBe(403);
    expect(answer.headers.connection).toBe('close');
    await answer.closed;
    expect(await files()).toEqual([]);
  });

  it('keeps the connection alive when the body was read whole', async () => {
    const answer = await rawRequest(edge.url, head(SNAPSHOT_MEDIA_TYPE, 5), 'bytes');
    answer.socket.destroy();
    expect(answer.status).toBe(201);
    expect(answer.headers.connection).toBe('keep-alive');
  });

  it('removes the partial file when the client leaves in the middle of the body', async () => {
    const client = connect(Number(new URL(edge.url).port), '127.0.0.1');
    client.on('error', () => {});
    client.write(head(SNAPSHOT_MEDIA_TYPE, MAX) + 'x'.repeat(MAX / 2));
    // The operation is reading: the file exists with part of the body in it.
    const started = Date.now();
    while ((await files()).length === 0 && Date.now() - started < 10_000) await sleep(20);
    expect(await files()).toHaveLength(1);
    expect(edge.calls).toHaveLength(1);
    // Then the client goes away.
    client.destroy();
    await failed;
    expect(leftAtFailure).toEqual([[]]);
    expect(await files()).toEqual([]);
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
