import type { Locator, Page } from '@playwright/test';
import { expect, login, openRow, test } from './fixtures';

/**
 * The list beside an open detail pane: name and status stay in sight at every window width from
 * 1,024 px, and the pane's width follows its handle (drag or keys) and stays across navigation.
 */

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  expect(b, 'element is laid out').not.toBeNull();
  return b!;
}

/** Inside the viewport and inside the list's scroller as it is scrolled now (not cut off by it). */
async function expectInSight(page: Page, cell: Locator, what: string) {
  const viewport = page.viewportSize()!;
  const scroller = await box(page.getByTestId('resource-list').locator('.vt'));
  const b = await box(cell);
  expect(b.x, `${what} starts inside the window`).toBeGreaterThanOrEqual(0);
  expect(b.x + b.width, `${what} ends inside the window`).toBeLessThanOrEqual(viewport.width);
  expect(b.x, `${what} starts inside the list`).toBeGreaterThanOrEqual(scroller.x);
  expect(b.x + b.width, `${what} ends inside the list`).toBeLessThanOrEqual(scroller.x + scroller.width);
}

async function paneWidth(page: Page): Promise<number> {
  return (await box(page.getByTestId('detail-pane'))).width;
}

for (const width of [1024, 1440]) {
  test(`at ${width} px with the pane open, the pods list keeps name and status in sight`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await login(page);
    await openRow(page, 'crashloop');
    await page.getByLabel('Filter by name').fill('');

    const grid = page.getByTestId('resource-list').getByRole('grid');
    const headers = grid.getByRole('columnheader');
    const name = headers.filter({ hasText: /^Name\b/ });
    const status = headers.filter({ hasText: /^Status\b/ });
    await expect(name).toHaveCount(1);
    await expect(status).toHaveCount(1);
    await expectInSight(page, name, 'the Name header');
    await expectInSight(page, status, 'the Status header');

    // The status cell of the open pod's row, found by the Status header's position.
    const statusIndex = (await headers.allTextContents()).findIndex((t) => t.startsWith('Status'));
    const row = grid.locator('.vt-body tr').filter({ hasText: 'crashloop' }).first();
    const cell = row.getByRole('gridcell').nth(statusIndex);
    await expect(cell).toHaveText(/CrashLoopBackOff|Running|Error/);
    await expectInSight(page, cell, "the open pod's status");

    // Nothing to scroll sideways, and the pane really is beside the list.
    const overflow = await page
      .getByTestId('resource-list')
      .locator('.vt')
      .evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const list = await box(page.getByTestId('resource-list'));
    const pane = await box(page.getByTestId('detail-pane'));
    expect(pane.x).toBeGreaterThan(list.x + list.width);
    expect(pane.x + pane.width).toBeLessThanOrEqual(width);
  });
}

test('the handle resizes the detail pane by keyboard and by dragging, within bounds, and the width stays', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 800 });
  await login(page);
  await openRow(page, 'crashloop');
  const handle = page.getByRole('separator', { name: 'Resize the detail pane' });
  await expect(handle).toBeVisible();

  const before = await paneWidth(page);
  expect(Number(await handle.getAttribute('aria-valuenow'))).toBeCloseTo(before, -1);

  // Keys: the handle sits left of the pane, so Left widens it.
  await handle.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => paneWidth(page)).toBeCloseTo(before + 32, -1);
  await expect(handle).toHaveAttribute('aria-valuenow', String(Math.round(before + 32)));
  await page.keyboard.press('Shift+ArrowRight');
  await expect.poll(() => paneWidth(page)).toBeCloseTo(before - 32, -1);

  // Bounds: End is the widest the pane gets while name and status still fit beside it.
  await page.keyboard.press('End');
  const max = Number(await handle.getAttribute('aria-valuemax'));
  await expect.poll(() => paneWidth(page)).toBeCloseTo(max, 0);
  const status = page
    .getByTestId('resource-list')
    .getByRole('columnheader')
    .filter({ hasText: /^Status\b/ });
  await expectInSight(page, status, 'the Status header at the widest pane');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => paneWidth(page)).toBeCloseTo(max, 0);
  await page.keyboard.press('Home');
  const min = Number(await handle.getAttribute('aria-valuemin'));
  await expect.poll(() => paneWidth(page)).toBeCloseTo(min, 0);
  expect(min).toBeLessThan(max);

  // Dragging the handle 150 px to the left widens the pane by as much.
  const from = await paneWidth(page);
  const h = await box(handle);
  await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
  await page.mouse.down();
  await page.mouse.move(h.x + h.width / 2 - 75, h.y + h.height / 2, { steps: 4 });
  await page.mouse.move(h.x + h.width / 2 - 150, h.y + h.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect.poll(() => paneWidth(page)).toBeCloseTo(from + 150, -1);
  const dragged = await paneWidth(page);

  // Another object, then closing the pane and opening it again: the pane keeps the chosen width.
  await openRow(page, 'oomkilled');
  await expect.poll(() => paneWidth(page)).toBeCloseTo(dragged, 0);
  await page.getByRole('button', { name: 'Close details' }).click();
  await expect(page.getByTestId('detail-pane')).toHaveCount(0);
  await openRow(page, 'crashloop');
  await expect.poll(() => paneWidth(page)).toBeCloseTo(dragged, 0);

  // Enter goes back to the default width.
  await handle.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => paneWidth(page)).toBeCloseTo(before, -1);
});
