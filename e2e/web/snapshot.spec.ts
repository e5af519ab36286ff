import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { DEMO_PODS } from '@skiff/kube-simulator';
import {
  expect,
  expectAccessible,
  login,
  openDemoSnapshot,
  openFromTree,
  openRow,
  screenshot,
  test,
} from './fixtures';

/**
 * Cluster snapshots from the web UI (issue 10 §2): take one of the demo cluster with its
 * progress shown, download the `.skiff` file, open it again as an administrator, and browse it as
 * a read-only cluster: the banner, the crash-looping pod explained, its previous logs, and the
 * events on the timeline.
 */

const SQLITE_MAGIC = 'SQLite format 3\0';

const screenRows = (page: Page) =>
  page.locator('[data-testid=log-terminal] .xterm-rows > div').allTextContents();
const logText = async (page: Page) =>
  (await screenRows(page)).map((r) => r.replace(/\u00a0/g, ' ').trimEnd()).join('\n');

/** Drops `file` onto the window the way a file from the desktop arrives: dragenter, dragover, drop. */
async function dropFile(page: Page, name: string, bytes: Buffer): Promise<void> {
  const transfer = await page.evaluateHandle(
    ({ name, data }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], name));
      return dt;
    },
    { name, data: [...bytes] },
  );
  for (const type of ['dragenter', 'dragover', 'drop']) {
    await page.dispatchEvent('main', type, { dataTransfer: transfer });
  }
}

test.describe('cluster snapshots', () => {
  test('take, download, open and browse a snapshot of the demo cluster', async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    await login(page);

    // Take: the defaults (every pod's logs, 1,000 lines), then the progress until the file is ready.
    await page.getByRole('button', { name: 'Take snapshot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Snapshot of demo' });
    await expect(dialog.getByRole('radio', { name: 'Every pod' })).toBeChecked();
    await expect(dialog.getByLabel('Log lines per container')).toHaveValue('1000');
    await expectAccessible(page, 'snapshot options');
    await dialog.getByRole('button', { name: 'Start' }).click();
    const progress = dialog.getByTestId('snapshot-progress');
    await expect(progress).toBeVisible();
    await expect
      .poll(async () =>
        Number(((await dialog.getByTestId('snapshot-objects').textContent()) ?? '0').replace(/\D/g, '')),
      )
      .toBeGreaterThan(0);
    await expect(progress).toHaveAttribute('data-status', 'done', { timeout: 180_000 });
    await expect(dialog.getByTestId('snapshot-logs')).toHaveText(/^(\d[\d,]*) of \1$/);
    await expect(progress).toContainText(/ready: demo-.+\.skiff \(\d/);
    await screenshot(page, 'snapshot-taken');
    await expectAccessible(page, 'snapshot progress');

    // Download: fetched with the session's token, handed to the browser as a file.
    const downloading = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download snapshot' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^demo-.+\.skiff$/);
    const file = testInfo.outputPath(download.suggestedFilename());
    await download.saveAs(file);
    const bytes = readFileSync(file);
    expect(bytes.subarray(0, 16).toString('latin1')).toBe(SQLITE_MAGIC);
    await expect(dialog.getByTestId('snapshot-saved')).toContainText(download.suggestedFilename());
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Open: an administrator uploads the file; the new read-only cluster is selected.
    await page.getByTestId('snapshot-file-input').setInputFiles(file);
    const banner = page.getByTestId('snapshot-banner');
    await expect(banner).toBeVisible({ timeout: 60_000 });
    await expect(banner).toHaveAttribute('role', 'status');
    await expect(banner).toContainText(/^Snapshot of demo taken (\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}/);
    await expect(page.getByTestId('cluster-status')).toContainText('snapshot');
    await expect(page.getByRole('combobox', { name: 'Cluster' }).locator('option:checked')).toHaveText(
      /^demo \(snapshot taken .+\)$/,
    );
    // A snapshot is neither unreachable nor stale, and cannot be captured again.
    await expect(page.getByTestId('cluster-down')).toHaveCount(0);
    await expect(page.getByTestId('stale-banner')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Take snapshot' })).toHaveCount(0);

    // Browse: the crash-looping pod, explained from the captured status.
    await openFromTree(page, 'pod', 'demo-broken');
    await openRow(page, DEMO_PODS.crashLoop.name);
    const explanation = page.getByTestId('pod-explanation');
    await expect(explanation.getByTestId('exit-code').first()).toContainText('Exit code 1');
    await expect(explanation.getByText('Likely causes').first()).toBeVisible();
    await expect(banner).toBeVisible();
    await screenshot(page, 'snapshot-pod-explanation');
    await expectAccessible(page, 'snapshot pod details');

    // Its previous run's log, as captured.
    await explanation.getByRole('button', { name: 'Logs of the previous container' }).first().click();
    await expect(page.getByTestId('log-previous')).toBeChecked();
    await expect(page.getByTestId('log-stream-status')).toHaveText('Complete');
    await expect.poll(() => logText(page)).toContain('panic: database unavailable');

    // The events, on the timeline too.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Events' }).click();
    const table = page.getByRole('table', { name: 'Cluster events' });
    await expect(table.locator('tbody tr.event-row').first()).toBeVisible();
    await expect(page.getByTestId('event-timeline').locator('.uplot')).toHaveAttribute(
      'data-bars',
      /^[1-9]\d*$/,
    );
    await page.getByLabel('Reason').fill('BackOff');
    await expect(table.locator('tbody tr.event-row').first()).toContainText('BackOff');
    await expect(banner).toBeVisible();
    await expect(page.getByTestId('stale-banner')).toHaveCount(0);
    await expectAccessible(page, 'snapshot events');
  });

  test('a file that is not a snapshot is refused in words, by the chooser and by a drop', async ({
    page,
  }) => {
    await login(page);
    const junk = Buffer.from('this is a text file, not a snapshot\n'.repeat(40));

    await page.getByTestId('snapshot-file-input').setInputFiles({
      name: 'notes.skiff',
      mimeType: 'application/octet-stream',
      buffer: junk,
    });
    const alert = page.getByTestId('snapshot-open-error');
    await expect(alert).toBeVisible();
    await expect(alert).toHaveAttribute('role', 'alert');
    // The service's own detail follows the file's name: never a blank message.
    await expect(alert).toContainText(/^notes\.skiff could not be opened: \S.{10,}/);
    await expect(page.getByTestId('snapshot-banner')).toHaveCount(0);
    await expect(page.getByTestId('cluster-status')).toContainText('connected');
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await expect(alert).toHaveCount(0);

    await dropFile(page, 'dropped.skiff', junk);
    await expect(alert).toContainText(/^dropped\.skiff could not be opened: \S.{10,}/);
    // The drop was taken by the app: the page is still Skiff, not the file.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expectAccessible(page, 'snapshot open error');
  });

  test.describe('in the dark theme', () => {
    test.use({ colorScheme: 'dark' });

    test('a snapshot taken and opened over /v1 shows its banner, readable and accessible', async ({
      page,
      baseURL,
    }) => {
      test.setTimeout(180_000);
      // The same three calls a script makes: start, poll, download; then open as an administrator.
      const clusterId = await openDemoSnapshot(baseURL!, { logs: 'none' });

      await login(page);
      await page.getByRole('combobox', { name: 'Cluster' }).selectOption(clusterId);
      await expect(page.getByTestId('snapshot-banner')).toContainText('Snapshot of demo taken');
      await expect(page.getByTestId('cluster-status')).toContainText('snapshot');
      await screenshot(page, 'snapshot-banner-dark');
      await expectAccessible(page, 'snapshot banner (dark)');
    });
  });
});
