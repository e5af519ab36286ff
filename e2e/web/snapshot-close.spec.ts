import { writeFileSync } from 'node:fs';
import { captureDemoSnapshot, expect, expectAccessible, login, screenshot, test } from './fixtures';

/**
 * Closing an opened snapshot from the web UI (issue 24 §4): a snapshot of the demo cluster,
 * opened through the file chooser as an administrator does, is closed from its banner. It leaves
 * the cluster list at once, the view goes back to the live cluster, and a reload (a new session
 * in the browser) does not bring it back.
 */

test('an opened snapshot closes from its banner and stays closed after a reload', async ({
  page,
  baseURL,
}, testInfo) => {
  test.setTimeout(180_000);
  // The file: captured over /v1 (no logs, to be quick), as a script would.
  const { auth, bytes } = await captureDemoSnapshot(baseURL!, { logs: 'none' });
  const file = testInfo.outputPath('demo.skiff');
  writeFileSync(file, bytes);
  // Earlier specs on this service may have left snapshots open: count from what is there now.
  const snapshotIds = async () =>
    (
      (await (await fetch(`${baseURL}/v1/workspaces/default/clusters`, { headers: auth })).json()) as Array<{
        clusterId: string;
        status: string;
      }>
    )
      .filter((c) => c.status === 'snapshot')
      .map((c) => c.clusterId);
  const before = await snapshotIds();

  // Open: the file chooser, as snapshot.spec.ts does; the snapshot is selected.
  await login(page);
  await page.getByTestId('snapshot-file-input').setInputFiles(file);
  const banner = page.getByTestId('snapshot-banner');
  await expect(banner).toBeVisible({ timeout: 60_000 });
  const clusterSelect = page.getByRole('combobox', { name: 'Cluster' });
  const snapshotOption = clusterSelect.locator('option', { hasText: /\(snapshot taken / });
  await expect(snapshotOption).toHaveCount(before.length + 1);
  const opened = (await snapshotIds()).filter((id) => !before.includes(id));
  expect(opened).toHaveLength(1);
  await expect(clusterSelect.locator('option:checked')).toHaveAttribute('value', opened[0]!);
  await expectAccessible(page, 'snapshot banner with its close button');
  await screenshot(page, 'snapshot-close-banner');

  // Close: gone from the list, the live demo cluster shown again.
  await banner.getByRole('button', { name: 'Close snapshot' }).click();
  await expect(banner).toHaveCount(0);
  await expect(snapshotOption).toHaveCount(before.length);
  await expect(page.getByTestId('cluster-status')).toContainText('connected');
  await expect(clusterSelect.locator('option:checked')).toHaveText(/^demo \(/);

  // A reload is a new session in the browser: still gone, and gone from the API's list too.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Cluster' })).toBeVisible();
  await expect(
    page.getByRole('combobox', { name: 'Cluster' }).locator(`option[value="${opened[0]}"]`),
  ).toHaveCount(0);
  await expect(
    page.getByRole('combobox', { name: 'Cluster' }).locator('option', { hasText: /\(snapshot taken / }),
  ).toHaveCount(before.length);
  await expect(page.getByTestId('snapshot-banner')).toHaveCount(0);
  expect(await snapshotIds()).toEqual(before);
});
