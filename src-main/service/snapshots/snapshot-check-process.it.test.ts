/**
 * The snapshot check against `serve` as a process, as an administrator meets it (issue 22 §1):
 * an upload whose check is under way leaves /v1/health answering, SIGTERM stops the service in
 * the middle of a check and leaves no check behind, and `serve --snapshot` with a hostile file
 * says why in one line instead of never starting. A check is held under way by a real SQLite lock
 * on the file it reads, taken by this test (a process of its own, as locks are per process).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { copyFile, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceArgs } from '../../../scripts/serve.mjs';
import { SNAPSHOT_MEDIA_TYPE } from '../../../src-shared/contract/snapshot-operations';
import { eventually } from '../test-support/eventually.test-support';
import { login, TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import { HOSTILE_FILES } from './hostile-files.test-support';
import { PROBE_MARK } from './probe';
import { fixtureDirPerFile } from './snapshot-open.test-support';

const fx = fixtureDirPerFile('skiff-check-process-');

const started = new Set<ChildProcess>();
// A test that failed half-way must not leave a service running behind it.
afterEach(() => {
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  started.clear();
});

interface Serve {
  child: ChildProcess;
  exited: Promise<number | null>;
  stderr(): string;
  dataDir: string;
}

function serve(name: string, args: string[] = []): Serve {
  const dataDir = join(fx.dir, `data-${name}`);
  const child = spawn(process.execPath, serviceArgs(['--port', '0', '--data-dir', dataDir, ...args]), {
    env: {
      ...process.env,
      SKIFF_LOG_LEVEL: 'warn',
      SKIFF_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      KUBECONFIG: '',
      HOME: join(fx.dir, 'home'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr, dataDir };
}

function listening(s: Serve): Promise<string> {
  return new Promise((resolve, reject) => {
    createInterface({ input: s.child.stdout! }).once('line', (line) => {
      const m = /^listening on (http:\/\/\S+)$/.exec(line);
      if (m) resolve(m[1]!);
      else reject(new Error(line));
    });
    void s.exited.then((code) => reject(new Error(`exited ${code}: ${s.stderr()}`)));
  });
}

/** Processes checking `path` (their command line names it after the mark): two per check. */
function checksOf(path: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (args.includes(PROBE_MARK) && args.includes(path)) found.push(Number(pid));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/**
 * An exclusive SQLite lock on `path`: a check reading the file waits for it. The file may still be
 * arriving: writable_schema lets SQLite lock a file shorter than its header says.
 */
function lockFile(path: string): { release(): void } {
  const db = new DatabaseSync(path, { defensive: false });
  db.exec('PRAGMA writable_schema = ON');
  db.exec('BEGIN EXCLUSIVE');
  return {
    release() {
      db.exec('ROLLBACK');
      db.close();
    },
  };
}

/**
 * Uploads `bytes` to `url`, sending the first 8 KiB, then (once the upload's file is on disk)
 * locking that file, then the rest: the check of the upload waits on the lock.
 */
async function lockedUpload(url: string, uploadDir: string, bytes: Buffer) {
  const { headers } = await login(url);
  let sendRest!: () => void;
  const rest = new Promise<void>((r) => {
    sendRest = r;
  });
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(bytes.subarray(0, 8_192));
      await rest;
      controller.enqueue(bytes.subarray(8_192));
      controller.close();
    },
  });
  const answer = fetch(`${url}/v1/snapshots`, {
    method: 'POST',
    headers: { ...headers, 'content-type': SNAPSHOT_MEDIA_TYPE },
    body,
    duplex: 'half',
  } as RequestInit).then(async (res) => ({
    status: res.status,
    body: (await res.json()) as { detail: string },
  }));
  answer.catch(() => {});
  const [name] = await eventually(async () => {
    const names = await readdir(uploadDir).catch(() => [] as string[]);
    expect(names).toHaveLength(1);
    return names;
  }, 20_000);
  const path = join(uploadDir, name!);
  const lock = lockFile(path);
  sendRest();
  await eventually(async () => expect(checksOf(path)).toHaveLength(2), 20_000);
  return { answer, path, lock };
}

const health = async (url: string) => {
  const res = await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(5_000) });
  return res.status;
};

const settledNow = async (p: Promise<unknown>) =>
  Promise.race([
    p.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((r) => setImmediate(() => r(false))),
  ]);

describe('serve and the snapshot check', () => {
  it('answers /v1/health while an upload is being checked, and refuses the hostile file once the check can read it', async () => {
    const s = serve('upload');
    const url = await listening(s);
    const hostile = join(fx.dir, 'view.skiff');
    HOSTILE_FILES[0]!.build(hostile);
    try {
      const { answer, lock } = await lockedUpload(
        url,
        join(s.dataDir, 'opened-snapshots'),
        await readFile(hostile),
      );
      try {
        for (let i = 0; i < 5; i++) expect(await health(url)).toBe(200);
        expect(await settledNow(answer)).toBe(false);
      } finally {
        lock.release();
      }
      const res = await answer;
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(HOSTILE_FILES[0]!.detail);
    } finally {
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
    }
  }, 90_000);

  it('stops on SIGTERM during a check, and no check outlives it', async () => {
    const s = serve('sigterm');
    const url = await listening(s);
    const { path, lock } = await lockedUpload(
      url,
      join(s.dataDir, 'opened-snapshots'),
      await readFile(fx.good),
    );
    try {
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
      // The check waited for the lock up to its budget (30 s): it must be gone long before.
      await eventually(async () => expect(checksOf(path)).toEqual([]), 10_000);
    } finally {
      lock.release();
    }
  }, 90_000);

  it('--snapshot with a hostile file says why in one line and exits 2', async () => {
    const hostile = join(fx.dir, 'cli-view.skiff');
    HOSTILE_FILES[0]!.build(hostile);
    const s = serve('cli-hostile', ['--snapshot', hostile]);
    expect(await s.exited).toBe(2);
    expect(s.stderr()).toBe(
      `skiff: --snapshot: ${hostile} is not a usable Skiff snapshot: it holds view "objects", which a snapshot does not have (only the tables meta, objects, events, logs, metrics, gaps, kinds, change_history, usage_samples, kept_logs and their indexes)\n`,
    );
  }, 60_000);

  it('--snapshot stops on SIGTERM while its file is being checked, and no check outlives it', async () => {
    const path = join(fx.dir, 'cli-locked.skiff');
    await copyFile(fx.good, path);
    const lock = lockFile(path);
    try {
      const s = serve('cli-locked', ['--snapshot', path]);
      await eventually(async () => expect(checksOf(path)).toHaveLength(2), 20_000);
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
      await eventually(async () => expect(checksOf(path)).toEqual([]), 10_000);
    } finally {
      lock.release();
    }
  }, 90_000);
});
