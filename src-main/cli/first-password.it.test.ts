/**
 * The generated first password, as a new user meets it on the console: the first start prints it
 * (and writes it to the data dir), and every later start says again where it is, for as long as
 * it is the only way in. Runs `serve` as `npm start` does where Electron cannot run.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceArgs } from '../../scripts/serve.mjs';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-first-password-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Starts serve on the data dir, waits for its ready line, stops it; answers what it printed on stderr. */
function startOnce(dataDir: string): Promise<string> {
  const { SKIFF_ADMIN_PASSWORD: _unset, ...env } = process.env;
  const child = spawn(process.execPath, serviceArgs(['--port', '0', '--data-dir', dataDir]), {
    env: { ...env, SKIFF_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('listening on')) child.kill('SIGTERM');
    });
    child.once('exit', (code, signal) =>
      signal === 'SIGTERM' || code === 0 ? resolve(err) : reject(new Error(`serve exited ${code}: ${err}`)),
    );
  });
}

describe('the first password on the console', () => {
  it('is printed at first start, and a later start says where it is without printing it again', async () => {
    const dataDir = join(dir, 'data');
    const first = await startOnce(dataDir);
    const file = join(dataDir, 'initial-admin-password');
    const password = (await readFile(file, 'utf8')).trim();
    expect(first).toContain(`created account "admin" with password ${password}`);

    const second = await startOnce(dataDir);
    expect(second).toContain(
      `skiff: account "admin" still has the password generated at first start; it is in ${file}`,
    );
    expect(second).not.toContain(password);
  });
});
