import { expect, login, openFromTree, openRow, test } from './fixtures';

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
