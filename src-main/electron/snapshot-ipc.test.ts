import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildSnapshotFilesBridge } from '../../src-preload/snapshot-files';
import type { Cluster } from '../../src-shared/contract/models';
import type { SnapshotJob } from '../../src-shared/contract/snapshot-models';
import type { IpcOutcome } from '../../src-shared/ipc/channels';
import type { SnapshotFilesBridge } from '../../src-shared/ipc/snapshot-files';
import type { Principal } from '../service/context';
import { CLUSTER_ID, type Stack, startStack } from '../service/test-support/harness.test-support';
import { APP_INDEX_URL } from './app-protocol-path';
import { FakeIpc } from './fake-ipc.test-support';
import { isAppUrl } from './navigation-policy';
import { registerSnapshotIpc } from './snapshot-ipc';
import { openSnapshotForDesktop } from './snapshot-open';

const ADMIN: Principal = { accountId: 'local', workspaces: 'all', admin: true };
const SQLITE_MAGIC = 'SQLite format 3\0';

let stack: Stack;
let dir: string;
let ipc: FakeIpc;
let unregister: () => void;
/** What the dialogs answer next; null is a cancel. */
const dialogs = { save: null as string | null, open: null as string | null, proposed: [] as string[] };

/** The preload bridge, from the app's own window or from some other frame. */
const bridge = (frame = APP_INDEX_URL, pathOf: (f: File) => string = () => ''): SnapshotFilesBridge =>
  buildSnapshotFilesBridge((channel, ...args) => ipc.invoke(frame, channel, ...args), pathOf);

async function finishedCapture(): Promise<SnapshotJob> {
  const call = { principal: ADMIN, client: { via: 'ipc' as const }, signal: new AbortController().signal };
  let job = (
    await stack.service.invoke(
      'createSnapshot',
      { params: { workspaceId: 'default', clusterId: CLUSTER_ID }, query: {}, body: { logs: 'failing' } },
      call,
    )
  ).data as SnapshotJob;
  while (job.status === 'running') {
    await new Promise((r) => setTimeout(r, 100));
    job = (
      await stack.service.invoke(
        'getSnapshot',
        { params: { snapshotId: job.snapshotId }, query: {}, body: undefined },
        call,
      )
    ).data as SnapshotJob;
  }
  expect(job.status, job.error).toBe('done');
  return job;
}

let job: SnapshotJob;

beforeAll(async () => {
  stack = await startStack();
  dir = await mkdtemp(join(tmpdir(), 'skiff-snapshot-ipc-'));
  ipc = new FakeIpc();
  unregister = registerSnapshotIpc(ipc, {
    invoke: stack.service.invoke,
    isTrustedSender: (event) => {
      const frame = event.senderFrame;
      return frame !== null && frame.parent === null && isAppUrl(frame.url, APP_INDEX_URL);
    },
    principal: async () => ADMIN,
    chooseSavePath: async (fileName) => {
      dialogs.proposed.push(fileName);
      return dialogs.save;
    },
    chooseOpenPath: async () => dialogs.open,
    openFile: (path, principal) => openSnapshotForDesktop(stack.service, path, principal),
  });
  job = await finishedCapture();
}, 120_000);
afterAll(async () => {
  unregister?.();
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  dialogs.save = null;
  dialogs.open = null;
  dialogs.proposed = [];
});

describe('saving a finished capture', () => {
  it('proposes the job’s file name, writes the whole file where the person chose, and leaves nothing else', async () => {
    dialogs.save = join(dir, 'saved.skiff');
    const outcome = await bridge().save(job.snapshotId);
    expect(dialogs.proposed).toEqual([job.fileName]);
    expect(outcome).toEqual({ ok: true, data: { path: dialogs.save, sizeBytes: job.sizeBytes } });
    const bytes = await readFile(dialogs.save);
    expect(bytes.length).toBe(job.sizeBytes);
    expect(bytes.subarray(0, 16).toString('latin1')).toBe(SQLITE_MAGIC);
    // Byte for byte what the service serves over HTTP.
    const res = await fetch(`${stack.url}/v1/snapshots/${job.snapshotId}/file`, {
      headers: stack.session.headers,
    });
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect(await readdir(dir)).toEqual(['saved.skiff']);
  });

  it('writes nothing when the dialog is cancelled', async () => {
    const before = await readdir(dir);
    expect(await bridge().save(job.snapshotId)).toEqual({ ok: true, data: null });
    expect(await readdir(dir)).toEqual(before);
  });

  it('refuses an unknown job before any dialog opens', async () => {
    dialogs.save = join(dir, 'never.skiff');
    const outcome = await bridge().save('no-such-snapshot');
    expect(outcome).toMatchObject({ ok: false, problem: { status: 404 } });
    expect(dialogs.proposed).toEqual([]);
  });

  it('reports a folder it cannot write to as a problem, leaving no partial file', async () => {
    dialogs.save = join(dir, 'missing-folder', 'x.skiff');
    const outcome = await bridge().save(job.snapshotId);
    expect(outcome).toMatchObject({ ok: false, problem: { code: 'internal_error' } });
    expect(!outcome.ok && outcome.problem.detail).toContain('could not be written');
    expect(await readdir(dir)).not.toContain('missing-folder');
  });
});

describe('opening a snapshot file', () => {
  let saved: string;
  beforeAll(async () => {
    saved = join(dir, 'to-open.skiff');
    dialogs.save = saved;
    const outcome = await bridge().save(job.snapshotId);
    expect(outcome.ok).toBe(true);
  });

  it('opens the file chosen in the dialog as a read-only cluster the service then reads from', async () => {
    dialogs.open = saved;
    const outcome = (await bridge().open()) as IpcOutcome<Cluster>;
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.data).toMatchObject({ status: 'snapshot', context: job.context, workspaceId: 'default' });
    expect(outcome.data.takenAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const pods = await stack.get<unknown[]>(
      `/v1/workspaces/default/observability/${outcome.data.clusterId}/kubernetes-proxy/pod?limit=5`,
    );
    expect(pods.status).toBe(200);
    expect(pods.body.length).toBeGreaterThan(0);
  });

  it('answers null when the open dialog is cancelled', async () => {
    expect(await bridge().open()).toEqual({ ok: true, data: null });
  });

  it('opens a dropped file by its path, and explains a file that is not a snapshot', async () => {
    const junk = join(dir, 'notes.skiff');
    await writeFile(junk, 'not a database\n'.repeat(100));
    const dropped = await bridge(APP_INDEX_URL, () => junk).openDropped(new File([], 'notes.skiff'));
    expect(dropped.ok).toBe(false);
    expect(!dropped.ok && dropped.problem.status).toBe(400);
    expect(!dropped.ok && dropped.problem.detail).toMatch(/\S/);
    // The dropped snapshot itself opens.
    const good = await bridge(APP_INDEX_URL, () => saved).openDropped(new File([], 'to-open.skiff'));
    expect(good).toMatchObject({ ok: true, data: { status: 'snapshot' } });
  });

  it('refuses a File that is not on disk without asking main, and a relative path at main', async () => {
    const none = await bridge(APP_INDEX_URL, () => '').openDropped(new File(['x'], 'made-up.skiff'));
    expect(none).toMatchObject({ ok: false, problem: { code: 'invalid_parameter' } });
    const relative = await bridge(APP_INDEX_URL, () => 'to-open.skiff').openDropped(new File([], 'x'));
    expect(relative).toMatchObject({ ok: false, problem: { code: 'invalid_parameter' } });
  });
});

describe('the channels refuse', () => {
  it('every call from a frame that is not the Skiff window', async () => {
    dialogs.save = join(dir, 'evil.skiff');
    dialogs.open = join(dir, 'saved.skiff');
    const evil = bridge('https://evil.example/', () => join(dir, 'saved.skiff'));
    for (const outcome of [
      await evil.save(job.snapshotId),
      await evil.open(),
      await evil.openDropped(new File([], 'x')),
    ]) {
      expect(outcome).toMatchObject({ ok: false, problem: { code: 'forbidden', status: 403 } });
    }
    expect(dialogs.proposed).toEqual([]);
    expect(await readdir(dir)).not.toContain('evil.skiff');
  });

  it('a snapshot id that is not a string', async () => {
    const outcome = (await ipc.invoke(APP_INDEX_URL, 'skiff:snapshot-save', {
      $ne: null,
    })) as IpcOutcome<unknown>;
    expect(outcome).toMatchObject({ ok: false, problem: { code: 'invalid_parameter' } });
  });
});
