import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { serviceArgs } from '../../scripts/serve.mjs';

/**
 * Web-mode e2e: each worker starts its own `skiff serve --demo` on a free port with a fresh data
 * dir and a known admin password, and the tests drive the built renderer it serves. Tests wait
 * for states (auto-waiting assertions, expect.poll), never for time; a route handler a test
 * installed has finished before the test ends (the `context` fixture).
 */

export const ADMIN = { username: 'admin', password: 'e2e-admin-password' };
const ROOT = resolve(import.meta.dirname, '../..');

export interface Service {
  url: string;
  dataDir: string;
  /**
   * A kubeconfig for the demo cluster (`--demo-kubeconfig`): a spec edits the cluster through it
   * (demo-kube.ts). The shared service has one; a spec that starts its own service may leave it out.
   */
  demoKubeconfig?: string;
}

async function startService(): Promise<{ service: Service; child: ChildProcess }> {
  if (!existsSync(join(ROOT, 'out/renderer/index.html'))) {
    throw new Error('the renderer is not built: run `npx electron-vite build` before the web e2e');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'skiff-e2e-'));
  const demoKubeconfig = join(dataDir, 'demo-kubeconfig.yaml');
  const args = ['--port', '0', '--data-dir', dataDir, '--demo', '--demo-kubeconfig', demoKubeconfig];
  const child = spawn(process.execPath, serviceArgs(args), {
    cwd: ROOT,
    // Usage is sampled every 2 s, so the usage charts (usage.spec.ts) fill within the test.
    env: { ...process.env, SKIFF_ADMIN_PASSWORD: ADMIN.password, SKIFF_USAGE_INTERVAL: '2s' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start in 30s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
  return { service: { url, dataDir, demoKubeconfig }, child };
}

/**
 * The service allows 20 logins per address per 10 minutes, and every test logs in (tokens live in
 * memory only). A fresh service every few tests keeps the suite under that limit without
 * weakening it.
 */
const TESTS_PER_SERVICE = 10;

class ServiceHost {
  private running: { service: Service; child: ChildProcess } | null = null;
  private uses = 0;

  async acquire(): Promise<Service> {
    if (!this.running || this.uses >= TESTS_PER_SERVICE) {
      await this.stop();
      this.running = await startService();
      this.uses = 0;
    }
    this.uses++;
    return this.running.service;
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    const { child, service } = this.running;
    this.running = null;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    rmSync(service.dataDir, { recursive: true, force: true });
  }
}

export const test = base.extend<{ service: Service }, { host: ServiceHost }>({
  // Large enough that the list and the detail pane sit side by side in the screenshots.
  viewport: { width: 1440, height: 900 },
  host: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as the first argument
    async ({}, use) => {
      const host = new ServiceHost();
      await use(host);
      await host.stop();
    },
    { scope: 'worker' },
  ],
  service: async ({ host }, use) => {
    await use(await host.acquire());
  },
  // A route handler still running when a test ends (a route.fetch to the service, an answer held
  // back) finishes before the context closes; left alone it runs on past its test and fails against
  // the closed page. Playwright 1.65 offers the wait on unrouteAll only (unroute has no behavior).
  context: async ({ context }, use) => {
    await use(context);
    await Promise.all(context.pages().map((p) => p.unrouteAll({ behavior: 'wait' })));
    await context.unrouteAll({ behavior: 'wait' });
  },
  baseURL: async ({ service }, use) => {
    await use(service.url);
  },
});

export { expect };

/** Logs in through the login page and waits for the shell. */
export async function login(page: Page, hash = ''): Promise<void> {
  await page.goto(`/${hash}`);
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByTestId('cluster-status')).toContainText('connected');
}

/** Logs in over HTTP, as another device would; answers the tokens and the session id. */
export async function apiLogin(baseURL: string, userAgent?: string) {
  const res = await fetch(`${baseURL}/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(userAgent ? { 'User-Agent': userAgent } : {}) },
    body: JSON.stringify(ADMIN),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { accessToken: string; refreshToken: string; sessionId: string };
}

/**
 * The demo cluster captured over /v1, as a script does it (start, poll until done, download):
 * the `.skiff` file's bytes, and the administrator's auth header for the calls that follow.
 * `options` is the capture's body (`{ logs: 'none' }` to be quick).
 */
export async function captureDemoSnapshot(
  baseURL: string,
  options: { logs?: 'all' | 'failing' | 'none' } = {},
) {
  const { accessToken } = await apiLogin(baseURL);
  const auth = { authorization: `Bearer ${accessToken}` };
  const started = await fetch(`${baseURL}/v1/workspaces/default/clusters/demo/snapshots`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(options),
  });
  expect(started.status).toBe(202);
  const location = started.headers.get('location')!;
  const status = async () =>
    ((await (await fetch(`${baseURL}${location}`, { headers: auth })).json()) as { status: string }).status;
  await expect.poll(status, { timeout: 120_000 }).toBe('done');
  const file = await fetch(`${baseURL}${location}/file`, { headers: auth });
  expect(file.status).toBe(200);
  return { auth, bytes: Buffer.from(await file.arrayBuffer()) };
}

/** A capture of the demo cluster (captureDemoSnapshot), opened over /v1: its clusterId. */
export async function openDemoSnapshot(baseURL: string, options: { logs?: 'all' | 'failing' | 'none' } = {}) {
  const { auth, bytes } = await captureDemoSnapshot(baseURL, options);
  const opened = await fetch(`${baseURL}/v1/snapshots`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/vnd.skiff.snapshot+sqlite' },
    body: bytes,
  });
  expect(opened.status).toBe(201);
  return ((await opened.json()) as { clusterId: string }).clusterId;
}

/**
 * Closes a snapshot a test opened (DELETE …/clusters/{id}), so that later specs on the same
 * service see only the snapshots they open themselves.
 */
export async function closeSnapshot(baseURL: string, clusterId: string): Promise<void> {
  const { accessToken } = await apiLogin(baseURL);
  const res = await fetch(`${baseURL}/v1/workspaces/default/clusters/${encodeURIComponent(clusterId)}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(res.status).toBe(200);
}

/**
 * Opens a kind's list from the tree, scoped to `namespace` with the header's selector (null: all
 * namespaces). `label` is "Nodes" or "Namespaces", or any kind's resourceType (`pod`, `configmap`).
 */
export async function openFromTree(
  page: Page,
  label: string,
  namespace: string | null = null,
): Promise<void> {
  const tree = page.getByRole('tree');
  const item =
    label === 'Nodes' || label === 'Namespaces'
      ? tree.getByRole('treeitem', { name: new RegExp(`^${label}`) })
      : tree.locator(`[data-tree-id="kind:${label}"]`);
  if (label !== 'Nodes' && label !== 'Namespaces') {
    await page.getByLabel('Namespace', { exact: true }).selectOption(namespace ?? '');
  }
  // The tree re-groups twice after login: when the served kinds arrive and when their counts do
  // (empty kinds are hidden then), and items above the target move. A click while they move can
  // press on one item and release on another, which opens nothing; so wait for the target's count
  // (both have arrived), click, and wait for it to be the current item.
  await expect(item.locator('.count')).toBeVisible();
  await item.click();
  await expect(item).toHaveAttribute('aria-selected', 'true');
}

/** Opens the first row whose name starts with `prefix` in the current list. */
export async function openRow(page: Page, prefix: string): Promise<void> {
  await page.getByLabel('Filter by name').fill(prefix);
  const row = page.locator('.vt-body tr').filter({ hasText: prefix }).first();
  await row.click();
  await expect(page.getByTestId('detail-pane')).toBeVisible();
}

/** The pod's Logs tab, opened straight from the address (the route keeps tab=logs), streaming. */
export async function openLogs(page: Page, pod: { namespace: string; name: string }): Promise<void> {
  await login(
    page,
    `#ws=default&cl=demo&area=resources&kind=pod&ns=${pod.namespace}&sel=pod/${pod.namespace}/${pod.name}&tab=logs`,
  );
  await expect(page.getByTestId('log-viewer')).toBeVisible();
  await expect(page.getByTestId('log-stream-status')).not.toHaveText('Connecting…');
}

/** The log terminal's rows on screen, as text (xterm's non-breaking spaces as spaces). */
export const logScreenRows = async (page: Page) =>
  (await page.locator('[data-testid=log-terminal] .xterm-rows > div').allTextContents()).map((r) =>
    r.replace(/\u00a0/g, ' '),
  );

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ROOT, 'docs/screenshots', `${name}.png`) });
}

/** axe-core on the page as it is; fails on serious or critical violations, listing them. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map(
    (v) =>
      `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 5)
        .join('\n  ')}`,
  );
  expect(summary, `axe violations on ${what}`).toEqual([]);
}
