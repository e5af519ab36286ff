import type { Page } from '@playwright/test';
import { closeSnapshot, expect, login, openDemoSnapshot, openFromTree, openRow, test } from './fixtures';

/** Issue 24 §4's smaller items, as a person meets them in the web UI. */

test('Escape closes the detail pane, but not while typing in a field', async ({ page }) => {
  await login(page);
  await openFromTree(page, 'pod', 'shop');
  await openRow(page, 'frontend');
  const pane = page.getByTestId('detail-pane');

  // In the filter field Escape belongs to the field: the pane stays.
  await page.getByLabel('Filter by name').focus();
  await page.keyboard.press('Escape');
  await expect(pane).toBeVisible();

  // From the page (focus left the field for the pane's own text), Escape closes the pane and the
  // route forgets it.
  await pane.locator('.detail-name').click();
  await expect(page.getByLabel('Filter by name')).not.toBeFocused();
  await page.keyboard.press('Escape');
  await expect(pane).toHaveCount(0);
  await expect(page).not.toHaveURL(/frontend/);
});

test('a deep link to a pod that does not exist says it is missing (404), not a bad request', async ({
  page,
}) => {
  await login(
    page,
    '#ws=default&cl=demo&area=resources&kind=pod&ns=shop&sel=pod/shop/no-such-pod-7&tab=overview',
  );
  const pane = page.getByTestId('detail-pane');
  await expect(pane.getByTestId('object-missing')).toContainText('does not exist in namespace shop');
  await expect(pane).not.toContainText('400');
});

test('a deep link whose name no pod can have says the pod is missing, not "bad request"', async ({
  page,
}) => {
  // The service refuses such a name (400 invalid_name: it cannot be a pod's), and so no such pod
  // exists; the pane says so, with the reason, as for any absent object.
  await login(
    page,
    '#ws=default&cl=demo&area=resources&kind=pod&ns=shop&sel=pod/shop/No_Such_Pod&tab=overview',
  );
  const missing = page.getByTestId('detail-pane').getByTestId('object-missing');
  await expect(missing).toContainText('Pod No_Such_Pod does not exist in namespace shop');
  await expect(missing).toContainText('invalid pod name');
});

test("a snapshot's views say when it was taken and offer no Follow or Pause", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  // Take one of the demo cluster and open it over /v1, as a script would.
  const clusterId = await openDemoSnapshot(baseURL!);
  try {
    await snapshotViews(page, clusterId);
  } finally {
    await closeSnapshot(baseURL!, clusterId);
  }
});

/** The pods list and a pod's logs of the opened snapshot. */
async function snapshotViews(page: Page, clusterId: string) {
  await login(page);
  await page.getByRole('combobox', { name: 'Cluster' }).selectOption(clusterId);
  await expect(page.getByTestId('cluster-status')).toContainText('snapshot');
  await openFromTree(page, 'pod', 'shop');
  const updated = page.getByTestId('resource-list').locator('.list-updated');
  await expect(updated).toContainText(/^snapshot taken /);
  await expect(updated).not.toContainText('updated');

  await openRow(page, 'frontend');
  await page.getByTestId('detail-pane').getByRole('tab', { name: 'Logs' }).click();
  await expect(page.getByTestId('log-wrap')).toBeVisible();
  await expect(page.getByTestId('log-follow')).toHaveCount(0);
  await expect(page.getByTestId('log-pause')).toHaveCount(0);
}
