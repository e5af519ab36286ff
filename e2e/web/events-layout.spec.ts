import type { Locator, Page } from '@playwright/test';
import { expect, login, openRow, test } from './fixtures';

/**
 * Events at the window sizes a laptop has (issue 24 §4): the Count, First seen and Last seen of
 * the first rows are in sight without scrolling sideways, in the Events view and in a pod's Events
 * tab, and the timeline chart folds away so the list gets the height, and stays folded across
 * navigation. Boxes are measured against the window and against the list's own scroller (the
 * nearest ancestor that scrolls), so a cell cut off by either fails.
 */

const SIZES = [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const;

const RECENCY = ['Count', 'First seen', 'Last seen'] as const;

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The table's scroller and the given header's cells in its first `rows` rows, as laid out now. */
async function measure(table: Locator, header: string, rows: number) {
  return table.evaluate(
    (el, { header, rows }) => {
      const rect = (e: Element) => {
        const r = e.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      };
      let scroller: HTMLElement | null = el.parentElement;
      while (scroller) {
        const s = getComputedStyle(scroller);
        if (/(auto|scroll|hidden)/.test(`${s.overflowX} ${s.overflowY}`)) break;
        scroller = scroller.parentElement;
      }
      const heads = Array.from(el.querySelectorAll('thead th'));
      const index = heads.findIndex((th) => th.textContent?.trim() === header);
      const cells = Array.from(el.querySelectorAll('tbody tr.event-row'))
        .slice(0, rows)
        .map((tr) => tr.children[index])
        .filter((td): td is Element => td !== undefined);
      return {
        index,
        header: index >= 0 ? rect(heads[index]!) : null,
        cells: cells.map(rect),
        scroller: scroller ? rect(scroller) : null,
      };
    },
    { header, rows },
  );
}

function expectInside(b: Rect, outer: Rect, what: string, where: string) {
  expect(b.width, `${what} has a width`).toBeGreaterThan(0);
  expect(b.x, `${what} starts inside ${where}`).toBeGreaterThanOrEqual(outer.x - 0.5);
  expect(b.x + b.width, `${what} ends inside ${where}`).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
}

/** Count, First seen and Last seen of the first three rows: inside the window and the list's scroller. */
async function expectRecencyInSight(page: Page, table: Locator) {
  const viewport = page.viewportSize()!;
  const window = { x: 0, y: 0, width: viewport.width, height: viewport.height };
  for (const header of RECENCY) {
    const m = await measure(table, header, 3);
    expect(m.index, `the ${header} column is shown`).toBeGreaterThanOrEqual(0);
    expect(m.cells.length, `rows have a ${header} cell`).toBeGreaterThan(0);
    expect(m.scroller, 'the list has a scroller').not.toBeNull();
    expectInside(m.header!, window, `the ${header} header`, 'the window');
    expectInside(m.header!, m.scroller!, `the ${header} header`, 'the list');
    for (const [i, cell] of m.cells.entries()) {
      expectInside(cell, window, `row ${i + 1}'s ${header}`, 'the window');
      expectInside(cell, m.scroller!, `row ${i + 1}'s ${header}`, 'the list');
    }
  }
}

/** Rows wholly visible: inside the list's scroller and the window, top to bottom. */
async function visibleRows(table: Locator): Promise<number> {
  return table.evaluate((el) => {
    const scroller = el.closest('.events-scroll') ?? el.parentElement!;
    const s = scroller.getBoundingClientRect();
    const bottom = Math.min(s.bottom, window.innerHeight);
    return Array.from(el.querySelectorAll('tbody tr.event-row')).filter((tr) => {
      const r = tr.getBoundingClientRect();
      return r.height > 0 && r.top >= s.top - 0.5 && r.bottom <= bottom + 0.5;
    }).length;
  });
}

async function openEvents(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Events' }).click();
  const table = page.getByRole('table', { name: 'Cluster events' });
  await expect(table.locator('tbody tr.event-row').nth(12)).toBeAttached();
  return table;
}

for (const size of SIZES) {
  const at = `${size.width}×${size.height}`;

  test(`at ${at} the Events view shows count and recency in sight, and the chart folds for more rows`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await login(page);
    const table = await openEvents(page);
    await expectRecencyInSight(page, table);

    const fold = page.getByRole('button', { name: 'Timeline', exact: true });
    await expect(fold).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByTestId('event-timeline')).toBeVisible();
    const open = await visibleRows(table);

    await fold.click();
    await expect(fold).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByTestId('event-timeline')).toHaveCount(0);
    // Folded, the list takes the height: more rows, and enough to read (at least ten).
    await expect.poll(() => visibleRows(table)).toBeGreaterThan(open);
    await expect.poll(() => visibleRows(table)).toBeGreaterThanOrEqual(10);
    await expectRecencyInSight(page, table);

    // Away and back: still folded.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Resources' }).click();
    await expect(page.getByTestId('events-view')).toHaveCount(0);
    const again = await openEvents(page);
    await expect(fold).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByTestId('event-timeline')).toHaveCount(0);
    await expect.poll(() => visibleRows(again)).toBeGreaterThanOrEqual(10);

    // And it unfolds again.
    await fold.click();
    await expect(fold).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByTestId('event-timeline')).toBeVisible();
  });

  test(`at ${at} a pod's Events tab shows count and recency in sight`, async ({ page }) => {
    await page.setViewportSize(size);
    await login(page);
    await openRow(page, 'crashloop');
    const pane = page.getByTestId('detail-pane');
    await pane.getByRole('tab', { name: 'Events' }).click();
    const table = pane.getByRole('table', { name: /^Events of / });
    await expect(table.locator('tbody tr.event-row').first()).toBeVisible();
    await expectRecencyInSight(page, table);
  });
}
