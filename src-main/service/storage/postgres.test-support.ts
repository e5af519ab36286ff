import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';

/**
 * A throwaway PostgreSQL server for tests: the real server from the machine's packages (Debian's
 * `postgresql`; `pg_config --bindir` says where its binaries are), never a mock.
 *
 * Rules:
 * - One server per test file (`startPostgres()` in `beforeAll`, `stop()` in `afterAll`), and a fresh
 *   database per test (`createDatabase()`): initdb costs a second or two, a database a few ms.
 *   A run-wide server from the global setup is the later step once many files use it (see
 *   /work/notes/i25-storage-status.md).
 * - It listens on 127.0.0.1 only, on a free port, with its unix socket inside its own folder, and
 *   trusts every local connection: a test server, never reachable from outside the machine.
 * - As root (CI, these machines) initdb and pg_ctl run as the `postgres` user through `runuser`, in
 *   a folder that user owns under the system temp root: PostgreSQL refuses to run as root, and
 *   the per-file TMPDIR Vitest gives us is private to root. The folder is removed by `stop()`;
 *   a test process killed before that leaves a server behind, which the next start in any
 *   process stops and removes (the folder carries its owner's pid).
 * - fsync is off: a test server's data does not need to survive a power loss.
 * - `postgresSkipReason` is set only when there is no PostgreSQL to start (binaries or, as root,
 *   the `postgres` user missing); use it with `describe.skipIf`.
 */

const run = promisify(execFile);
const FOLDER_PREFIX = 'skiff-pg-';

function findBindir(): string | undefined {
  const r = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const candidates = r.status === 0 ? [r.stdout.trim()] : [];
  // Debian's pg_config may come from libpq-dev alone; the server's binaries live per major version.
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const majors = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...majors.map((v) => join(debian, v, 'bin')));
  }
  return candidates.find((dir) => ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(join(dir, b))));
}

const asRoot = process.getuid?.() === 0;

function postgresUser(): { uid: number; gid: number } | undefined {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

export const PG_BINDIR = findBindir();
const owner = asRoot ? postgresUser() : undefined;

export const postgresSkipReason: string | undefined = !PG_BINDIR
  ? 'no PostgreSQL server binaries (pg_config --bindir, /usr/lib/postgresql/*/bin): install the postgresql package'
  : asRoot && !owner
    ? 'running as root and there is no postgres user to run the server as'
    : undefined;

/** Runs one of the server's binaries, as the postgres user when we are root. */
async function pgBinary(name: string, args: string[]): Promise<string> {
  const bin = join(PG_BINDIR!, name);
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  // cwd: runuser keeps ours, and the postgres user may not be able to read it.
  const { stdout } = await run(file, argv, { cwd: '/', timeout: 120_000, maxBuffer: 4 << 20 });
  return stdout;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Servers whose test process died before stopping them: stopped and removed. */
async function removeAbandoned(base: string): Promise<void> {
  for (const name of readdirSync(base)) {
    const pid = Number(new RegExp(`^${FOLDER_PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    const data = join(base, name, 'data');
    if (existsSync(join(data, 'postmaster.pid'))) {
      await pgBinary('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
    }
    rmSync(join(base, name), { recursive: true, force: true });
  }
}

export interface TestPostgres {
  readonly port: number;
  /** The folder holding the data dir, the socket and the log. */
  readonly dir: string;
  /** A connection URL for `database` (trust auth, no password). */
  url(database: string): string;
  /** Creates a new, empty database and answers its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server at once and removes its folder. */
  stop(): Promise<void>;
}

export const TEST_PG_USER = 'skiff';
let databases = 0;

export async function startPostgres(): Promise<TestPostgres> {
  if (postgresSkipReason) throw new Error(postgresSkipReason);
  // Root's per-file TMPDIR is private to root; the postgres user needs a folder it can reach.
  const base = asRoot ? '/tmp' : tmpdir();
  await removeAbandoned(base);
  const dir = mkdtempSync(join(base, `${FOLDER_PREFIX}${process.pid}-`));
  const data = join(dir, 'data');
  try {
    if (owner) chownSync(dir, owner.uid, owner.gid);
    await pgBinary('initdb', [
      '-D',
      data,
      '-U',
      TEST_PG_USER,
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    // Another process may take the port between freePort and the server's bind: try a few.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const options = [
        `-p ${port}`,
        "-c listen_addresses='127.0.0.1'",
        `-c unix_socket_directories='${dir}'`,
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
      ].join(' ');
      try {
        await pgBinary('pg_ctl', [
          '-D',
          data,
          '-l',
          join(dir, 'server.log'),
          '-o',
          options,
          '-w',
          '-t',
          '60',
          'start',
        ]);
      } catch (err) {
        if (attempt < 3) continue;
        const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
        throw new Error(`pg_ctl start failed: ${(err as Error).message}\n${log}`);
      }
      return server(dir, data, port);
    }
  } catch (err) {
    if (existsSync(join(data, 'postmaster.pid'))) {
      await pgBinary('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
    }
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

function server(dir: string, data: string, port: number): TestPostgres {
  const url = (database: string) => `postgres://${TEST_PG_USER}@127.0.0.1:${port}/${database}`;
  let stopped = false;
  return {
    port,
    dir,
    url,
    async createDatabase(name = `t${process.pid}_${++databases}`) {
      const admin = postgres(url('postgres'), { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`CREATE DATABASE "${name}"`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        await pgBinary('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
