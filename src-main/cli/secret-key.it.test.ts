import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceArgs } from '../../scripts/serve.mjs';
import { login, TEST_ADMIN_PASSWORD } from '../service/test-support/login.test-support';

/**
 * `serve --secret-key-file` / SKIFF_SECRET_KEY, as an operator meets them: the token signing keys
 * in the data dir's database are sealed with the key, a restart with the same key keeps tokens
 * valid, and a wrong, short or unreadable key stops the start with exit 2 and one line saying why.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-secret-key-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

type Outcome = { url: string; stop: () => Promise<void> } | { exit: number | null; stderr: string };

/** Starts serve and answers once it listens, or once it has exited. */
function start(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  const { SKIFF_SECRET_KEY: _unset, ...base } = process.env;
  const child = spawn(process.execPath, serviceArgs(['--port', '0', ...args]), {
    env: { ...base, SKIFF_LOG_LEVEL: 'warn', SKIFF_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(d.toString());
      if (m)
        resolve({
          url: m[1]!,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
    });
    child.once('exit', (exit) => resolve({ exit, stderr }));
  });
}

async function running(args: string[], env?: NodeJS.ProcessEnv) {
  const outcome = await start(args, env);
  if (!('url' in outcome)) throw new Error(`serve exited ${outcome.exit}: ${outcome.stderr}`);
  return outcome;
}

async function refused(args: string[], env?: NodeJS.ProcessEnv) {
  const outcome = await start(args, env);
  if ('url' in outcome) {
    await outcome.stop();
    throw new Error('serve started');
  }
  return outcome;
}

const me = async (url: string, token: string) =>
  (await fetch(`${url}/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status;

describe('serve with a secret key', () => {
  it('seals the signing keys with it; the same key keeps tokens valid across a restart, another stops the start', async () => {
    const dataDir = join(dir, 'data');
    const keyFile = join(dir, 'secret-key');
    // With the newline `echo` and a Secret made from a file both add.
    await writeFile(keyFile, `${randomBytes(32).toString('base64')}\n`);
    const first = await running(['--data-dir', dataDir, '--secret-key-file', keyFile]);
    const { accessToken } = await login(first.url);
    expect(await me(first.url, accessToken)).toBe(200);
    await first.stop();

    const db = new DatabaseSync(join(dataDir, 'skiff.db'), { readOnly: true });
    const rows = db.prepare('SELECT sealed, private_key FROM auth_signing_keys').all();
    db.close();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ sealed: 1 });
    expect(String(rows[0]!.private_key)).not.toContain('"d"');

    // The same key from the environment, without the newline: the same key.
    const again = await running(['--data-dir', dataDir], {
      SKIFF_SECRET_KEY: (await import('node:fs')).readFileSync(keyFile, 'utf8').trim(),
    });
    expect(await me(again.url, accessToken)).toBe(200);
    await again.stop();

    const wrong = await refused(['--data-dir', dataDir], {
      SKIFF_SECRET_KEY: randomBytes(32).toString('base64'),
    });
    expect(wrong.exit).toBe(2);
    expect(wrong.stderr).toMatch(/^skiff: .*does not open with this secret key/m);
    const none = await refused(['--data-dir', dataDir]);
    expect(none.exit).toBe(2);
    expect(none.stderr).toMatch(/is encrypted and no secret key was given/);
  });

  it('refuses a key shorter than 32 bytes, and a key file it cannot read, with exit 2', async () => {
    const short = await refused(['--data-dir', join(dir, 'short')], { SKIFF_SECRET_KEY: 'too-short' });
    expect(short.exit).toBe(2);
    expect(short.stderr).toMatch(/the secret key is 9 bytes; it must be at least 32/);
    expect(short.stderr).not.toContain('too-short');
    const missing = await refused([
      '--data-dir',
      join(dir, 'missing'),
      '--secret-key-file',
      join(dir, 'nope'),
    ]);
    expect(missing.exit).toBe(2);
    expect(missing.stderr).toContain(`--secret-key-file ${join(dir, 'nope')}: cannot read it (ENOENT)`);
  });
});
