/**
 * Several `serve` processes sharing one PostgreSQL database, as N replicas behind a load balancer
 * (issue 25 §2), for the replicas test and nothing else.
 *
 * Rules:
 * - Each replica is a real `serve` child process on 127.0.0.1 with a port of its own (port 0: the
 *   kernel picks a free one, read from the ready line), its own data dir, its own `--replica-id`,
 *   and the same `--database`, `--kubeconfig`, admin password and secret key as the others.
 * - The replicas run the built service (`out/service/serve.js`, built once per `vitest run` by the
 *   global setup) with the product's Node flags, not through `scripts/serve.mjs`: that wrapper
 *   rebuilds when a source is newer than the build, and in a shared checkout another engineer's
 *   edit between two replicas' starts would make them run different code or race to rebuild.
 * - Replicas start one after another, so the first one migrates and creates the admin; the others
 *   find both done. (That replicas starting together migrate once is the storage suite's test.)
 * - `kill(i, 'SIGKILL')` is a `kill -9`: nothing of the replica runs after it, its PostgreSQL
 *   connections (and so its advisory locks) end when the kernel closes its sockets.
 * - Every answer is checked against the contract (checkedBody), as the HTTP suites do.
 * - `stop()` ends every replica still running (SIGTERM, then SIGKILL after 5 s) and removes the data
 *   dirs; nothing is left behind when a test fails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SERVICE_NODE_FLAGS } from '../../scripts/serve.mjs';
import { checkedBody } from '../service/test-support/contract-check.test-support';
import { TEST_ADMIN_PASSWORD } from '../service/test-support/login.test-support';

const BUILT_SERVE = fileURLToPath(new URL('../../out/service/serve.js', import.meta.url));

/** 32 bytes, base64: the key that seals the signing keys in the database (`SKIFF_SECRET_KEY`). */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

export interface Replica {
  /** 0-based position; `replica-<index>` is its `--replica-id`. */
  readonly index: number;
  readonly id: string;
  readonly url: string;
  readonly pid: number;
  /** Everything the replica wrote to stderr so far (its warnings and errors). */
  stderr(): string;
  /** True until the process has exited. */
  running(): boolean;
}

export interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
  /** The replica that answered. */
  replica: Replica;
}

export interface CallOptions {
  headers?: Record<string, string>;
  body?: unknown;
  /** Send to this replica instead of the next one in turn. */
  to?: number;
}

export interface ReplicaSet {
  readonly replicas: readonly Replica[];
  /** The replicas still running. */
  live(): Replica[];
  /**
   * One request, to the replica given or else to the next live replica in turn (round robin, as a
   * load balancer would spread them); the answer is checked against the contract.
   */
  call<T>(method: string, path: string, opts?: CallOptions): Promise<Answer<T>>;
  /** Sends a signal to one replica and waits until it has exited; answers its exit code. */
  kill(index: number, signal: NodeJS.Signals): Promise<number | null>;
  stop(): Promise<void>;
}

export interface ReplicaSetOptions {
  count: number;
  /**
   * postgres://… of the shared database, given to every replica with `--database` and a
   * `--replica-id`; without it each replica keeps its own SQLite file (one replica: today's serve).
   */
  database?: string;
  kubeconfig: string;
  /** A folder for the replicas' data dirs (removed by stop). */
  dir: string;
  /** More flags, the same for every replica (e.g. `--record-events all`). */
  args?: string[];
  env?: NodeJS.ProcessEnv;
}

interface Child {
  proc: ChildProcess;
  exited: Promise<number | null>;
  err: string;
}

function startOne(
  index: number,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ replica: Replica; child: Child }> {
  const proc = spawn(process.execPath, [...SERVICE_NODE_FLAGS, BUILT_SERVE, ...args], {
    env: {
      ...process.env,
      SKIFF_LOG_LEVEL: 'warn',
      SKIFF_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const child: Child = {
    proc,
    err: '',
    exited: new Promise((resolve) => proc.once('exit', (code) => resolve(code))),
  };
  proc.stderr!.on('data', (d: Buffer) => {
    // Bounded: a replica that logs every request must not fill the test's memory.
    if (child.err.length < 200_000) child.err += d.toString();
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout! });
    lines.once('line', (line) => {
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (!m) {
        proc.kill('SIGKILL');
        return reject(new Error(`replica ${index}: unexpected first line: ${line}\n${child.err}`));
      }
      resolve({
        child,
        replica: {
          index,
          id: `replica-${index}`,
          url: m[1]!,
          pid: proc.pid!,
          stderr: () => child.err,
          running: () => proc.exitCode === null && proc.signalCode === null,
        },
      });
    });
    void child.exited.then((code) => reject(new Error(`replica ${index} exited with ${code}: ${child.err}`)));
  });
}

async function end(child: Child, signal: NodeJS.Signals): Promise<number | null> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return child.proc.exitCode;
  const hard = setTimeout(() => child.proc.kill('SIGKILL'), 5_000);
  child.proc.kill(signal);
  try {
    return await child.exited;
  } finally {
    clearTimeout(hard);
  }
}

export async function startReplicas(opts: ReplicaSetOptions): Promise<ReplicaSet> {
  if (!existsSync(BUILT_SERVE))
    throw new Error(
      `${BUILT_SERVE} is missing: the service is built by the vitest global setup (npx vitest run)`,
    );
  const replicas: Replica[] = [];
  const children: Child[] = [];
  const stop = async () => {
    await Promise.all(children.map((c) => end(c, 'SIGTERM')));
    await rm(opts.dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < opts.count; i++) {
      const dataDir = join(opts.dir, `replica-${i}`);
      await mkdir(dataDir, { recursive: true });
      const { replica, child } = await startOne(
        i,
        [
          '--host',
          '127.0.0.1',
          '--port',
          '0',
          '--data-dir',
          dataDir,
          ...(opts.database ? ['--database', opts.database, '--replica-id', `replica-${i}`] : []),
          '--kubeconfig',
          opts.kubeconfig,
          ...(opts.args ?? []),
        ],
        // A shared database needs the secret key that seals the signing keys, the same on every replica.
        { ...(opts.database ? { SKIFF_SECRET_KEY: TEST_SECRET_KEY } : {}), ...opts.env },
      );
      replicas.push(replica);
      children.push(child);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  let turn = 0;
  const live = () => replicas.filter((r) => r.running());
  return {
    replicas,
    live,
    async call<T>(method: string, path: string, o: CallOptions = {}): Promise<Answer<T>> {
      let replica: Replica;
      if (o.to !== undefined) replica = replicas[o.to]!;
      else {
        const up = live();
        if (up.length === 0) throw new Error('no replica is running');
        replica = up[turn++ % up.length]!;
      }
      const res = await fetch(replica.url + path, {
        method,
        headers: {
          ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...o.headers,
        },
        ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
        signal: AbortSignal.timeout(30_000),
      });
      const body = checkedBody<T>(method, path, res, await res.text());
      return { status: res.status, body, headers: res.headers, replica };
    },
    kill: (index, signal) => end(children[index]!, signal),
    stop,
  };
}
