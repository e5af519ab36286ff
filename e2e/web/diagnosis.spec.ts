import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BAD_ROLLOUT, badRolloutPodName } from '@skiff/kube-simulator';
import { serviceArgs } from '../../scripts/serve.mjs';
import { ADMIN, apiLogin, expect, expectAccessible, login, screenshot, test } from './fixtures';

/**
 * "Changed before it started failing" (issue 27 §4) on the demo's bad rollout: a service of this
 * spec's own, started with `--demo-bad-rollout 5s` (which records changes of every kind from the
 * start), rolls shop/checkout out to an image whose pod crash-loops; the pod's explanation names
 * the rollout's image change before the first BackOff, links to its diff in the Deployment's
 * History tab, and to the kept logs of the first failed run. The shared e2e service is left
 * alone: its demo never rolls out, so other specs see the demo as it always was.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const POD = badRolloutPodName();
const NS = BAD_ROLLOUT.namespace;
const IMAGE_CHANGE = 'image checkout: 3.8.2 → 3.8.3';

let child: ChildProcess | undefined;
let dataDir: string | undefined;
let url = '';

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'skiff-e2e-diag-'));
  const args = serviceArgs(['--port', '0', '--data-dir', dataDir, '--demo', '--demo-bad-rollout', '5s']);
  child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, SKIFF_ADMIN_PASSWORD: ADMIN.password },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start in 30s:\n${output}`)), 30_000);
    child?.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    });
    child?.stderr?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child?.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
});

test.afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child?.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as the first argument
test.use({ baseURL: async ({}, use) => use(url) });

test('the bad rollout’s diagnosis names the image change, links its diff and the kept logs', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // The rollout happens 5 s after start and the new pod crashes a few ticks later.
  const { accessToken } = await apiLogin(url);
  const diagnosis = async () => {
    const res = await fetch(
      `${url}/v1/workspaces/default/observability/demo/diagnosis/namespaces/${NS}/pod/${POD}`,
      {
        headers: { authorization: `Bearer ${accessToken}` },
      },
    );
    if (res.status !== 200) return `HTTP ${res.status}`;
    const d = (await res.json()) as {
      onset: string | null;
      changesBefore: { summary: string }[];
      keptLogs?: unknown;
    };
    return `${d.onset ? 'failing' : 'not failing'}; ${d.changesBefore[0]?.summary ?? 'no change'}; ${d.keptLogs ? 'kept' : 'no logs'}`;
  };
  await expect
    .poll(diagnosis, { timeout: 120_000, intervals: [1_000] })
    .toBe(`failing; ${IMAGE_CHANGE}; kept`);

  await login(page, `#ws=default&cl=demo&area=resources&kind=pod&ns=${NS}&sel=pod/${NS}/${POD}`);
  const section = page.getByTestId('changed-before');
  await expect(section).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Changed before it started failing' })).toBeVisible();
  const first = section.locator('li').first();
  await expect(first).toContainText(`Deployment checkout: ${IMAGE_CHANGE} at`);
  await expect(first).toContainText(
    /before the first (BackOff|restart) at \d\d:\d\d|at the time of the first/,
  );
  await expect(section.getByTestId('changed-before-kept-logs')).toBeVisible();
  await expectAccessible(page, 'the pod’s explanation with what changed before it failed');
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, 'diagnosis');

  // The diff of that change, in the Deployment's History tab.
  await first.getByRole('button', { name: /^Diff of Deployment checkout/ }).click();
  await expect(page).toHaveURL(/sel=deployment%2Fshop%2Fcheckout/);
  await expect(page).toHaveURL(/tab=history/);
  await expect(page.getByTestId('detail-pane')).toContainText('3.8.3');

  // Back to the pod, then its kept logs.
  await page.goBack();
  await expect(page.getByTestId('changed-before')).toBeVisible();
  await page.getByTestId('changed-before-kept-logs').click();
  await expect(page).toHaveURL(/tab=logs/);
  await expect(page.getByText('Earlier runs kept by Skiff')).toBeVisible();
});
