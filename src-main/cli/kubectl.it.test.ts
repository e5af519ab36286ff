/**
 * The real kubectl against what `serve` writes for it (issue 24 §3): `--demo-kubeconfig` for the
 * demo cluster and `--snapshot-kubeconfig` for an opened snapshot. kubectl sends no bearer token
 * to an http:// server, so both are HTTPS with a CA made for the run, named in the file as
 * `certificate-authority-data`. Each runs `get pods -A`, `describe pod`, `logs --previous` and
 * `get events` and reads what a person would. A path that cannot be written is refused with
 * exit 2 and one line. The tests wait for `serve`'s ready line (printed after the files are
 * written), never for a time; without kubectl on the PATH the kubectl tests are skipped, saying so.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { DEMO_PODS } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { serviceArgs } from '../../scripts/serve.mjs';
import { type Captured, captureFixture, isExpired } from '../service/snapshots/snapshot-open.test-support';
import { TEST_ADMIN_PASSWORD } from '../service/test-support/login.test-support';

const run = promisify(execFile);

/** kubectl's client version, or why there is none. */
const KUBECTL = (() => {
  const probe = spawnSync('kubectl', ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return { ok: false, reason: 'kubectl is not on the PATH' } as const;
  const version = (JSON.parse(probe.stdout) as { clientVersion: { gitVersion: string } }).clientVersion;
  return { ok: true, reason: '', version: version.gitVersion } as const;
})();

let dir: string;
let snapshot: string;
let captured: Captured;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-kubectl-'));
  snapshot = join(dir, 'prod.skiff');
  captured = await captureFixture(snapshot);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Serving {
  stop(): Promise<number | null>;
}

/** `npm run serve -- …` as a process, resolved at its ready line; rejects with its stderr if it exits first. */
function serve(args: string[]): Promise<Serving> {
  const child = spawn(
    process.execPath,
    serviceArgs(['--port', '0', '--data-dir', join(dir, `data-${Math.random()}`), ...args]),
    {
      env: {
        ...process.env,
        SKIFF_LOG_LEVEL: 'warn',
        SKIFF_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
        KUBECONFIG: '',
        HOME: join(dir, 'home'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => {
      if (!line.startsWith('listening on ')) return reject(new Error(`unexpected first line: ${line}`));
      resolve({
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
    exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

/** `serve` that must refuse: its exit code and stderr. */
async function refused(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    serviceArgs(['--port', '0', '--data-dir', join(dir, 'refused'), ...args]),
    {
      env: {
        ...process.env,
        SKIFF_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
        KUBECONFIG: '',
        HOME: join(dir, 'home'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  return { code, stderr };
}

function kubectl(kubeconfig: string, args: string[]): Promise<string> {
  return run('kubectl', ['--request-timeout=30s', ...args], {
    env: { ...process.env, KUBECONFIG: kubeconfig, HOME: join(dir, 'kubectl-home') },
    maxBuffer: 16 * 1024 * 1024,
  }).then((r) => r.stdout);
}

/** The rows of a `kubectl get` table, each a record by column header (cells cut at the headers' offsets). */
function table(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trimEnd().split('\n');
  const columns = [...(header ?? '').matchAll(/\S+(?: \S+)*/g)].map((m) => ({ name: m[0], at: m.index }));
  return lines.map((line) =>
    Object.fromEntries(
      columns.map((c, i) => [c.name, line.slice(c.at, columns[i + 1]?.at ?? line.length).trim()]),
    ),
  );
}

interface Kubeconfig {
  clusters: { name: string; cluster: Record<string, unknown> & { server: string } }[];
  users: { name: string; user: Record<string, unknown> }[];
  'current-context': string;
}

/** The file is the owner's alone and names an HTTPS server with the CA to trust. */
async function checkKubeconfigFile(path: string): Promise<Kubeconfig> {
  expect((await stat(path)).mode & 0o777).toBe(0o600);
  const config = parse(await readFile(path, 'utf8')) as Kubeconfig;
  expect(config.clusters.length).toBeGreaterThan(0);
  for (const { cluster } of config.clusters) {
    expect(cluster.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(cluster['certificate-authority-data']).toEqual(expect.any(String));
    expect(cluster['insecure-skip-tls-verify']).toBeUndefined();
  }
  return config;
}

const crash = DEMO_PODS.crashLoop;
/** Pods whose STATUS the demo's ticker never changes (the crash loop and the OOM kill it does). */
const STEADY = Object.values(DEMO_PODS).filter((p) => p !== DEMO_PODS.crashLoop && p !== DEMO_PODS.oomKilled);

/** get pods -A, describe pod, logs --previous and get events, as a person reads them. */
async function readLikeAPerson(
  kubeconfig: string,
  pods: readonly { namespace: string; name: string; status: string }[],
  /** The reasons of the crash-looping pod's events the cluster holds: all of them, or some. */
  crashEvents: { reasons: string[]; all: boolean },
) {
  const listed = await kubectl(kubeconfig, ['get', 'pods', '-A']);
  expect(listed.split('\n')[0]).toMatch(/^NAMESPACE +NAME +READY +STATUS +RESTARTS +AGE$/);
  const rows = table(listed);
  const row = (p: { namespace: string; name: string }) =>
    rows.find((r) => r.NAMESPACE === p.namespace && r.NAME === p.name);
  for (const p of pods) expect(row(p)?.STATUS, `${p.namespace}/${p.name}`).toBe(p.status);
  // Restarts say when the last one was, as kubectl prints them from a real apiserver.
  expect(row(crash)?.RESTARTS).toMatch(/^[1-9]\d* \(\S+ ago\)$/);
  expect(row(crash)?.READY).toMatch(/^[01]\/1$/);

  const described = await kubectl(kubeconfig, ['describe', 'pod', '-n', crash.namespace, crash.name]);
  expect(described).toMatch(new RegExp(`^Name: +${crash.name}$`, 'm'));
  expect(described).toMatch(/^Status: +Running$/m);
  // The pod's events, found by describe's field selector on involvedObject.
  const eventLines = described.slice(described.indexOf('\nEvents:')).split('\n').slice(4);
  const describedReasons = eventLines
    .map((l) => /^ +(?:Normal|Warning) +(\S+) /.exec(l)?.[1])
    .filter(Boolean);
  if (crashEvents.all) expect(new Set(describedReasons)).toEqual(new Set(crashEvents.reasons));
  else expect(describedReasons).toEqual(expect.arrayContaining(crashEvents.reasons));

  const previous = await kubectl(kubeconfig, ['logs', '--previous', '-n', crash.namespace, crash.name]);
  expect(previous).toMatch(/^panic: /m);

  const events = await kubectl(kubeconfig, ['get', 'events', '-n', crash.namespace]);
  expect(events.split('\n')[0]).toMatch(/^LAST SEEN +TYPE +REASON +OBJECT +MESSAGE$/);
  const crashRows = table(events).filter((r) => r.OBJECT === `pod/${crash.name}`);
  const listedReasons = crashRows.map((r) => r.REASON);
  if (crashEvents.all) expect(new Set(listedReasons)).toEqual(new Set(crashEvents.reasons));
  else expect(listedReasons).toEqual(expect.arrayContaining(crashEvents.reasons));
  for (const backOff of crashRows.filter((r) => r.REASON === 'BackOff')) {
    expect(backOff).toMatchObject({
      TYPE: 'Warning',
      MESSAGE: expect.stringMatching(/^Back-off restarting failed container app in pod /),
    });
  }
}

describe(`kubectl (${KUBECTL.ok ? KUBECTL.version : KUBECTL.reason}) against serve`, () => {
  it('reads the demo cluster through the file --demo-kubeconfig writes', async ({ skip }) => {
    skip(!KUBECTL.ok, KUBECTL.reason);
    const file = join(dir, 'demo.kubeconfig');
    // A file there before, readable by anyone, is replaced and becomes the owner's alone.
    await writeFile(file, 'old content');
    await chmod(file, 0o644);
    const serving = await serve(['--demo-kubeconfig', file]);
    try {
      const config = await checkKubeconfigFile(file);
      expect(config['current-context']).toBe('skiff-demo');
      expect(config.users[0]?.user['client-certificate-data']).toEqual(expect.any(String));
      // The demo's crash loop always has its BackOff warning (and adds more as it loops).
      await readLikeAPerson(file, STEADY, { reasons: ['BackOff'], all: false });
    } finally {
      expect(await serving.stop()).toBe(0);
    }
  }, 120_000);

  it('reads an opened snapshot through the file --snapshot-kubeconfig writes', async ({ skip }) => {
    skip(!KUBECTL.ok, KUBECTL.reason);
    const file = join(dir, 'snapshot.kubeconfig');
    const serving = await serve(['--snapshot', snapshot, '--snapshot-kubeconfig', file]);
    try {
      const config = await checkKubeconfigFile(file);
      expect(config['current-context']).toBe('prod-eu-snapshot-20260301t120000z');
      // A snapshot is frozen: every notable pod shows the status it had when it was taken.
      // Exactly the crash-looping pod's events the file holds as live (the expired ones are history).
      const live = captured.events.filter((e) => {
        const about = (e as { involvedObject?: { name?: string } }).involvedObject?.name;
        return about === crash.name && !isExpired(e);
      });
      const reasons = live.map((e) => (e as { reason?: string }).reason ?? '');
      expect(reasons.length).toBeGreaterThan(0);
      await readLikeAPerson(file, Object.values(DEMO_PODS), { reasons, all: true });
    } finally {
      expect(await serving.stop()).toBe(0);
    }
  }, 120_000);
});

describe('serve refuses a kubeconfig path it cannot write', () => {
  it('with exit code 2 and one line naming the flag, the path and why, before anything starts', async () => {
    const notAFolder = join(dir, 'plain-file');
    await writeFile(notAFolder, '');
    const folder = join(dir, 'a-folder');
    await mkdir(folder);
    const cases = [
      [['--demo-kubeconfig', join(dir, 'missing', 'demo.yaml')], 'its folder does not exist'],
      [['--demo-kubeconfig', folder], 'it is a folder'],
      [
        ['--snapshot', snapshot, '--snapshot-kubeconfig', join(notAFolder, 'x.yaml')],
        'a part of its path is not a folder',
      ],
    ] as const;
    for (const [args, why] of cases) {
      const { code, stderr } = await refused([...args]);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toBe(`skiff: ${args.at(-2)} ${args.at(-1)}: cannot write the file: ${why}\n`);
    }
  }, 120_000);
});
