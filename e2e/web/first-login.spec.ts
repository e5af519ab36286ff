import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serviceArgs } from '../../scripts/serve.mjs';
import { expect, expectAccessible, test } from './fixtures';

/**
 * A new user's first visit: the service generated the admin's password (no SKIFF_ADMIN_PASSWORD),
 * and the login page says which file holds it while that admin is the only account. This spec
 * starts its own service for that, since the shared one is given a known password.
 */

const ROOT = resolve(import.meta.dirname, '../..');

interface Fresh {
  url: string;
  dataDir: string;
  child: ChildProcess;
}

async function startFresh(): Promise<Fresh> {
  const dataDir = mkdtempSync(join(tmpdir(), 'skiff-e2e-first-'));
  const { SKIFF_ADMIN_PASSWORD: _unset, ...env } = process.env;
  const child = spawn(process.execPath, serviceArgs(['--port', '0', '--data-dir', dataDir]), {
    cwd: ROOT,
    env: { ...env, SKIFF_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((ready, fail) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) ready(m[1]!);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}:\n${output}`)));
  });
  return { url, dataDir, child };
}

let fresh: Fresh | undefined;
test.afterEach(async () => {
  if (!fresh) return;
  const { child, dataDir } = fresh;
  fresh = undefined;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
});

test('the login page says where the generated first password is, until a second account exists', async ({
  page,
  request,
}) => {
  fresh = await startFresh();
  const file = join(fresh.dataDir, 'initial-admin-password');
  await page.goto(fresh.url);
  const hint = page.getByTestId('first-login');
  await expect(hint).toContainText('account admin has a generated password');
  await expect(hint.locator('code')).toHaveText(file);
  await expectAccessible(page, 'login page with the first-login hint');

  const password = readFileSync(file, 'utf8').trim();
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  // Once there is a second account, the page says nothing more about it.
  const login = await request.post(`${fresh.url}/v1/auth/login`, { data: { username: 'admin', password } });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const created = await request.post(`${fresh.url}/v1/auth/accounts`, {
    headers: { Authorization: `Bearer ${accessToken}` },
    data: { username: 'dev.one', password: 'another-password' },
  });
  expect(created.status()).toBe(201);
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await expect(page.getByText('You logged out.')).toBeVisible();
  await expect(hint).toHaveCount(0);
});
