/**
 * POST /v1/snapshots over real HTTP: the file as the body, streamed to disk, opened as a cluster;
 * and every way a file or a request can be wrong, each a problem+json that leaves nothing behind.
 */
import { copyFile, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../src-shared/contract/models';
import { SNAPSHOT_MEDIA_TYPE } from '../../../src-shared/contract/snapshot-operations';
import { ProblemError } from '../errors';
import { login } from '../test-support/login.test-support';
import { SNAPSHOT_SCHEMA_VERSION } from './format';
import { alterMeta } from './open-fixture.test-support';
import { captureFixture, type OpenStack, startOpenStack } from './snapshot-open.test-support';

let stack: OpenStack;
let files: string;
let good: string;
let size: number;

/** A copy of the good file, changed by `change`: the bad files. */
async function variant(name: string, change: (path: string) => void | Promise<void>) {
  const path = join(files, name);
  await copyFile(good, path);
  await change(path);
  return path;
}

const post = (body: BodyInit, contentType = SNAPSHOT_MEDIA_TYPE, headers: Record<string, string> = {}) =>
  stack.call<Cluster & { code: string; detail: string }>('POST', '/v1/snapshots', {
    headers: { 'content-type': contentType, ...headers },
    body,
  });

beforeAll(async () => {
  files = await mkdtemp(join(tmpdir(), 'skiff-open-files-'));
  good = join(files, 'good.skiff');
  await captureFixture(good);
  size = (await stat(good)).size;
  // Room for the good file, not for much more.
  stack = await startOpenStack({ snapshotMaxBytes: size + 1024 });
});
afterAll(async () => {
  await stack?.close();
  await rm(files, { recursive: true, force: true });
});

const uploads = async () => readdir(join(stack.dir, 'data', 'opened-snapshots')).catch(() => [] as string[]);

describe('POST /v1/snapshots', () => {
  it('opens the file sent as the body: 201, the cluster and its Location; the same capture again answers it, 200', async () => {
    const first = await post(await readFile(good));
    expect(first.status, first.text).toBe(201);
    expect(first.body.status).toBe('snapshot');
    expect(first.headers.get('location')).toBe(`/v1/workspaces/default/clusters/${first.body.clusterId}`);
    const pods = await stack.call<unknown[]>(
      'GET',
      `/v1/workspaces/default/observability/${first.body.clusterId}/kubernetes-proxy/pod?limit=5`,
    );
    expect(pods.status).toBe(200);
    expect(pods.body).toHaveLength(5);

    const again = await post(await readFile(good), 'application/octet-stream');
    expect(again.status).toBe(200);
    expect(again.body.clusterId).toBe(first.body.clusterId);
    const clusters = await stack.call<Cluster[]>('GET', '/v1/workspaces/default/clusters');
    expect(clusters.body.map((c) => c.clusterId)).toEqual([first.body.clusterId]);
    // The first upload is kept while it is open; the second copy is gone.
    expect(await uploads()).toHaveLength(1);
  });

  const badFiles: Array<[string, string, (path: string) => void | Promise<void>, RegExp]> = [
    [
      'a file that is not SQLite',
      'invalid_snapshot',
      (p) => writeFile(p, 'name,value\nx,1\n'),
      /not an SQLite database/,
    ],
    [
      'an SQLite database without a meta table',
      'invalid_snapshot',
      async (p) => {
        await rm(p);
        const db = new DatabaseSync(p);
        db.exec('CREATE TABLE notes (text TEXT)');
        db.close();
      },
      /no meta table/,
    ],
    [
      'an SQLite database whose meta.format is another',
      'invalid_snapshot',
      (p) => alterMeta(p, 'format', 'other'),
      /meta\.format/,
    ],
    ['a truncated file', 'invalid_snapshot', (p) => truncate(p, Math.floor(size / 2)), /truncated/],
    [
      'a file from a newer Skiff',
      'snapshot_version_unsupported',
      (p) => alterMeta(p, 'schemaVersion', String(SNAPSHOT_SCHEMA_VERSION + 1)),
      new RegExp(`newer Skiff \\(snapshot format version ${SNAPSHOT_SCHEMA_VERSION + 1}\\)`),
    ],
    [
      'a file whose object text is damaged',
      'invalid_snapshot',
      (p) => {
        const db = new DatabaseSync(p);
        db.exec(
          "UPDATE objects SET json = substr(json, 1, 40) WHERE kind = 'pod' AND name = (SELECT max(name) FROM objects WHERE kind = 'pod')",
        );
        db.close();
      },
      /damaged \(the pod [^ ]+ is not a JSON object\)/,
    ],
    [
      'a capture that did not finish',
      'invalid_snapshot',
      (p) => alterMeta(p, 'complete', null),
      /did not finish/,
    ],
  ];

  for (const [what, code, change, detail] of badFiles) {
    it(`refuses ${what} with 400 ${code}, over HTTP and from service.snapshots.open`, async () => {
      const before = await uploads();
      const path = await variant(`${code}-${what.replace(/\W+/g, '-')}.skiff`, change);
      const res = await post(await readFile(path));
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.code).toBe(code);
      expect(res.body.detail).toMatch(detail);
      expect(res.body.detail).toContain('the uploaded file');
      const thrown = await stack.service.snapshots.open(path).catch((err: unknown) => err);
      expect(thrown).toBeInstanceOf(ProblemError);
      expect((thrown as ProblemError).code).toBe(code);
      expect((thrown as ProblemError).message).toContain(path);
      expect(await uploads()).toEqual(before);
    });
  }

  it('refuses a body larger than the bound with 413, whether or not it says its length', async () => {
    const before = await uploads();
    const big = Buffer.alloc(size + 4096, 7);
    const declared = await post(big);
    expect(declared.status).toBe(413);
    expect(declared.body.code).toBe('payload_too_large');
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(big.subarray(0, Math.ceil(big.length / 4)));
        controller.close();
      },
    });
    const streamed = await post(chunked as unknown as BodyInit);
    expect(streamed.status).toBe(413);
    expect(await uploads()).toEqual(before);
  });

  it('refuses a body that is not sent as a snapshot with 415', async () => {
    const res = await post(await readFile(good), 'application/json');
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
    const none = await stack.call<{ code: string }>('POST', '/v1/snapshots', { body: await readFile(good) });
    expect(none.status).toBe(415);
  });

  it('is for administrators: a member gets 403 admin_required before anything is read', async () => {
    const created = await stack.call('POST', '/v1/auth/accounts', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'viewer', password: 'viewer-password-1', workspaces: ['default'] }),
    });
    expect(created.status).toBe(201);
    const member = await login(stack.url, 'viewer', 'viewer-password-1');
    const res = await post(await readFile(good), SNAPSHOT_MEDIA_TYPE, member.headers);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('admin_required');
  });
});
