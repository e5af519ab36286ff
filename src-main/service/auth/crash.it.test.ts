import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureServiceBuilt, SERVICE_NODE_FLAGS } from '../../../scripts/serve.mjs';
import { checkedBody } from '../test-support/contract-check.test-support';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import { hashSecret } from './secrets';
import { queryDataDir } from './stack.test-support';

/**
 * Crash safety of the database: the built service (out/service/serve.js) is killed with SIGKILL
 * while logins, refreshes and API key creations are in flight, again and again. Every restart
 * must load; everything the service acknowledged (answered 2xx) before the kill must be there
 * after it; and no temporary file may be left in the data dir.
 */

const KILLS = 30;
const WRITERS = 4;
const root = resolve(fileURLToPath(import.meta.url), '../../../..');
const SERVE_JS = join(root, 'out/service/serve.js');

let dir: string;
let dataDir: string;
let kubeconfig: string;
let child: ChildProcess | undefined;

beforeAll(() => {
  ensureServiceBuilt();
  dir = mkdtempSync(join(tmpdir(), 'skiff-crash-'));
  dataDir = join(dir, 'data');
  // One cluster that is never reachable: no embedded demo cluster to start with every restart.
  kubeconfig = join(dir, 'kubeconfig.yaml');
  writeFileSync(
    kubeconfig,
    `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: 'https://127.0.0.1:9'}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: offline, context: {cluster: c, user: u}}]
current-context: offline
`,
  );
});
afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function start(): Promise<string> {
  const proc = spawn(
    process.execPath,
    [...SERVICE_NODE_FLAGS, SERVE_JS, '--port', '0', '--data-dir', dataDir, '--kubeconfig', kubeconfig],
    {
      env: { ...process.env, SKIFF_LOG_LEVEL: 'error', SKIFF_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child = proc;
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((done, fail) => {
    createInterface({ input: proc.stdout! }).once('line', (line) => {
      const m = /^listening on (http:\/\/[\d.:]+)$/.exec(line);
      if (m) done(m[1]!);
      else fail(new Error(`unexpected first line: ${line}`));
    });
    proc.once('exit', (code) =>
      fail(new Error(`the service exited with ${code} before listening: ${stderr}`)),
    );
  });
}

function kill(): Promise<void> {
  const proc = child!;
  return new Promise((done) => {
    proc.once('exit', () => done());
    proc.kill('SIGKILL');
  });
}

async function post<T>(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: checkedBody<T>('POST', path, res, await res.text()) };
}

interface Chain {
  sessionId: string;
  /** The newest refresh token an answer handed out. */
  token: string;
  /** A refresh was sent and not answered: the rotation may or may not have committed. */
  inFlight: boolean;
  access: string;
}

interface Acknowledged {
  sessions: Set<string>;
  chains: Chain[];
  keys: string[];
}

interface Login {
  accessToken: string;
  refreshToken: string;
  sessionId: string;
}

async function login(url: string, acked: Acknowledged): Promise<Login> {
  const res = await post<Login>(url, '/v1/auth/login', { username: 'admin', password: TEST_ADMIN_PASSWORD });
  if (res.status !== 200) throw new Error(`login answered ${res.status}`);
  acked.sessions.add(res.body.sessionId);
  return res.body;
}

/** Logs in again and again (each one a session row and an activity entry) until the kill. */
async function loginWriter(url: string, acked: Acknowledged): Promise<void> {
  try {
    for (;;) await login(url, acked);
  } catch {
    // The kill: whatever had not been answered is not acknowledged.
  }
}

/** Refreshes its session and creates API keys until the process dies under it. */
async function chainWriter(url: string, chain: Chain, acked: Acknowledged): Promise<void> {
  try {
    for (let i = 0; ; i++) {
      if (i % 2 === 1) {
        const key = await post<{ key: string }>(
          url,
          '/v1/auth/api-keys',
          { name: `k${i}` },
          { authorization: `Bearer ${chain.access}` },
        );
        if (key.status !== 201) throw new Error(`API key creation answered ${key.status}`);
        acked.keys.push(key.body.key);
        continue;
      }
      chain.inFlight = true;
      const r = await post<Login>(url, '/v1/auth/refresh', { refreshToken: chain.token });
      // The per-account refresh limit (30 a minute): refused before anything is written.
      if (r.status === 429) {
        chain.inFlight = false;
        continue;
      }
      if (r.status !== 200) throw new Error(`refresh answered ${r.status}`);
      chain.token = r.body.refreshToken;
      chain.access = r.body.accessToken;
      chain.inFlight = false;
    }
  } catch {
    // The kill.
  }
}

function leftovers(): string[] {
  return readdirSync(dataDir).filter((f) => f.includes('.tmp') || f.includes('.import-'));
}

it(`loses nothing acknowledged across ${KILLS} SIGKILLs in the middle of writes`, {
  timeout: 120_000,
}, async () => {
  const acked: Acknowledged = { sessions: new Set(), chains: [], keys: [] };
  for (let round = 0; round < KILLS; round++) {
    const url = await start();
    expect(leftovers(), `round ${round}`).toEqual([]);

    // What was acknowledged before the last kill is all there (read as another process would).
    const sessions = new Map(
      queryDataDir<{ session_id: string; refresh_hash: string; refresh_previous_hash: string | null }>(
        dataDir,
        'SELECT session_id, refresh_hash, refresh_previous_hash FROM sessions',
      ).map((s) => [s.session_id, s]),
    );
    const logins = new Set(
      queryDataDir<{ session_id: string }>(
        dataDir,
        "SELECT session_id FROM activity WHERE type = 'login'",
      ).map((r) => r.session_id),
    );
    for (const id of acked.sessions) {
      expect(sessions.has(id), `round ${round}: session ${id}`).toBe(true);
      expect(logins.has(id), `round ${round}: login entry of ${id}`).toBe(true);
    }
    const keyHashes = new Set(
      queryDataDir<{ hash: string }>(dataDir, 'SELECT hash FROM api_keys').map((k) => k.hash),
    );
    for (const key of acked.keys)
      expect(keyHashes.has(hashSecret(key)), `round ${round}: API key`).toBe(true);
    for (const chain of acked.chains) {
      const row = sessions.get(chain.sessionId)!;
      const hash = hashSecret(chain.token);
      // A refresh in flight may have committed before the kill: then the acknowledged token is the previous one.
      const held = chain.inFlight ? [row.refresh_hash, row.refresh_previous_hash] : [row.refresh_hash];
      expect(held, `round ${round}: refresh token of ${chain.sessionId}`).toContain(hash);
    }
    // A chain whose unanswered rotation committed would now count as reuse: it is replaced.
    acked.chains = acked.chains.filter(
      (c) => sessions.get(c.sessionId)!.refresh_hash === hashSecret(c.token),
    );
    for (const c of acked.chains) c.inFlight = false;
    while (acked.chains.length < WRITERS - 1) {
      const l = await login(url, acked);
      acked.chains.push({
        sessionId: l.sessionId,
        token: l.refreshToken,
        inFlight: false,
        access: l.accessToken,
      });
    }

    const keysBefore = acked.keys.length;
    const writers = [loginWriter(url, acked), ...acked.chains.map((c) => chainWriter(url, c, acked))];
    await sleep(60 + ((round * 37) % 140));
    // On a loaded machine the writers may not have had a write answered yet: the kill is meant to
    // land among acknowledged writes, so it waits (a bounded while) for one.
    for (let waited = 0; acked.keys.length === keysBefore && waited < 10_000; waited += 20) await sleep(20);
    await kill();
    await Promise.all(writers);
  }
  expect(acked.keys.length).toBeGreaterThanOrEqual(KILLS);
  expect(acked.sessions.size).toBeGreaterThan(WRITERS);

  // A last clean start and stop: the WAL is checkpointed away and nothing else is left.
  await start();
  const proc = child!;
  await new Promise<void>((done) => {
    proc.once('exit', () => done());
    proc.kill('SIGTERM');
  });
  child = undefined;
  expect(readdirSync(dataDir).filter((f) => f.startsWith('skiff.db'))).toEqual(['skiff.db']);
  expect(leftovers()).toEqual([]);
});
