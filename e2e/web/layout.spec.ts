import type { Locator, Page } from '@playwright/test';
import { expect, login, openFromTree, openRow, test } from './fixtures';

/**
 * The list beside an open detail pane: name and status stay in sight at every window width from
 * 1,024 px, at 1,280 px Ready, Restarts and Age too, no status badge is ever cut, and the pane's
 * width follows its handle (visible at rest; drag or keys) and stays across navigation.
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

/** The crash-looping pod's detail pane open, in an 800 px high window `width` px wide. */
async function openCrashloopAt(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 800 });
  await login(page);
  await openRow(page, 'crashloop');
}

for (const width of [1024, 1440]) {
  test(`at ${width} px with the pane open, the pods list keeps name and status in sight`, async ({
    page,
  }) => {
    await openCrashloopAt(page, width);
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
  await openCrashloopAt(page, 1440);
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
  // The default is near the narrowest: a step past it stops there.
  const narrowest = Number(await handle.getAttribute('aria-valuemin'));
  await expect.poll(() => paneWidth(page)).toBeCloseTo(Math.max(before - 32, narrowest), -1);

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

/** Every badge in the list's rendered rows, shown whole: neither cut by itself nor by its cell. */
async function expectNoBadgeClipped(page: Page, what: string) {
  const list = page.getByTestId('resource-list');
  await expect(list.locator('.vt-body .badge').first()).toBeVisible();
  const clipped = await list.locator('.vt-body .badge').evaluateAll((badges) =>
    badges
      .filter((b) => {
        const cell = b.closest('td')!;
        const bb = b.getBoundingClientRect();
        const cb = cell.getBoundingClientRect();
        return (
          b.scrollWidth > b.clientWidth ||
          cell.scrollWidth > cell.clientWidth ||
          bb.left < cb.left - 0.5 ||
          bb.right > cb.right + 0.5
        );
      })
      .map((b) => b.textContent),
  );
  expect(clipped, `badges cut ${what}`).toEqual([]);
}

/** Shows the rows whose names start with each prefix in turn (the column is sized by all rows). */
async function expectNoBadgeClippedIn(page: Page, what: string) {
  for (const prefix of ['configerror', 'crashloop', 'imagepull', 'unschedulable', '']) {
    await page.getByLabel('Filter by name').fill(prefix);
    await expectNoBadgeClipped(page, `${what}, rows "${prefix}"`);
  }
  await page.getByLabel('Filter by name').fill('');
}

for (const width of [1024, 1280]) {
  test(`at ${width} px no status badge is cut, with the pane closed or open`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await login(page);
    await openFromTree(page, 'pod', null);
    // The longest status of the demo is in the list.
    await page.getByLabel('Filter by name').fill('configerror');
    await expect(page.getByTestId('resource-list').locator('.vt-body .badge').first()).toHaveText(
      'CreateContainerConfigError',
    );
    await expectNoBadgeClippedIn(page, 'with the pane closed');
    await openRow(page, 'crashloop');
    await expectNoBadgeClippedIn(page, 'with the pane open');
  });

  test(`at ${width} px the pane's handle shows at rest and dragging it resizes the pane`, async ({
    page,
  }) => {
    await openCrashloopAt(page, width);
    const handle = page.getByRole('separator', { name: 'Resize the detail pane' });
    await expect(handle).toBeVisible();
    await expect(handle).toHaveAttribute('aria-valuenow', /^\d+$/);
    const h = await box(handle);
    expect(h.width).toBeGreaterThan(0);
    expect(h.height).toBeGreaterThan(100);
    // The grip, with the pointer elsewhere and nothing focused: at least 3:1 against the page
    // (WCAG 1.4.11, non-text contrast). Before, the handle was drawn only on hover or focus.
    await page.mouse.move(1, 1);
    const ratio = await handle.evaluate((el) => {
      const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
      const lum = ([r, g, b]: number[]) => {
        const f = (v: number) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
      };
      const grip = getComputedStyle(el, '::after');
      const color = rgb(grip.backgroundColor);
      // A transparent grip (alpha 0) is no grip.
      if (grip.content === 'none' || color.length < 3 || color[3] === 0) return 1;
      let bg = el.parentElement;
      while (bg && rgb(getComputedStyle(bg).backgroundColor)[3] === 0) bg = bg.parentElement;
      const page = rgb(bg ? getComputedStyle(bg).backgroundColor : 'rgb(255, 255, 255)');
      const [a, b] = [lum(color), lum(page)].sort((x, y) => y - x);
      return (a! + 0.05) / (b! + 0.05);
    });
    expect(ratio, 'contrast of the resting grip against the page').toBeGreaterThanOrEqual(3);

    // Dragging it 60 px to the left widens the pane by as much, or up to its widest.
    const before = await paneWidth(page);
    const max = Number(await handle.getAttribute('aria-valuemax'));
    expect(max).toBeGreaterThan(before);
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(h.x + h.width / 2 - 30, h.y + h.height / 2, { steps: 3 });
    await page.mouse.move(h.x + h.width / 2 - 60, h.y + h.height / 2, { steps: 3 });
    await page.mouse.up();
    await expect.poll(() => paneWidth(page)).toBeCloseTo(Math.min(before + 60, max), -1);
    await handle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => paneWidth(page)).toBeCloseTo(before, -1);
  });
}

test('at 1280 px with the pane open, the pods list keeps Ready, Restarts and Age in sight', async ({
  page,
}) => {
  await openCrashloopAt(page, 1280);
  await page.getByLabel('Filter by name').fill('');
  const grid = page.getByTestId('resource-list').getByRole('grid');
  const headers = grid.getByRole('columnheader');
  const texts = () => headers.allTextContents();
  await expect.poll(texts).toEqual(expect.arrayContaining([expect.stringMatching(/^Age\b/)]));
  const row = grid.locator('.vt-body tr').filter({ hasText: 'crashloop' }).first();
  for (const name of ['Ready', 'Restarts', 'Age']) {
    const header = headers.filter({ hasText: new RegExp(`^${name}\\b`) });
    await expect(header, `the ${name} column is shown`).toHaveCount(1);
    await expectInSight(page, header, `the ${name} header`);
    const index = (await texts()).findIndex((t) => t.startsWith(name));
    const cell = row.getByRole('gridcell').nth(index);
    await expect(cell).not.toHaveText('');
    await expectInSight(page, cell, `the open pod's ${name}`);
  }
  const overflow = await page
    .getByTestId('resource-list')
    .locator('.vt')
    .evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
