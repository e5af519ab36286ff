import { MAX_PAGE_LIMIT } from '../../src-shared/contract/params';
import { expect, expectAccessible, login, openFromTree, test } from './fixtures';
import { fakeBrokenWatch, shownAs } from './stale-route';

/**
 * Honest staleness in the UI: while the service answers lists from a cache whose watch is broken
 * (x-Stale-Since), every list and the events view say "Data as of HH:MM, cluster unreachable" in
 * local time, and say nothing once answers are fresh again. The browser runs in a zone half an
 * hour off UTC, so a banner showing the UTC clock (or the server's) would not pass.
 */
const TZ = 'Asia/Kolkata';
test.use({ timezoneId: TZ });

const nav = (page: import('@playwright/test').Page, area: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: area }).click();

test('stale lists say "Data as of HH:MM, cluster unreachable" above the pods list and in events, until answers are fresh', async ({
  page,
}) => {
  const watch = await fakeBrokenWatch(page);
  await login(page);
  await openFromTree(page, 'pod', 'shop');
  const list = page.getByTestId('resource-list');
  await expect(list.locator('.vt-body tr').first()).toBeVisible();
  await expect(page.getByTestId('stale-banner')).toHaveCount(0);

  // The watch breaks: the next poll answers from memory with the time of the last sync.
  const since = new Date(Date.now() - 2 * 60_000).toISOString();
  watch.since = since;
  const banner = list.getByTestId('stale-banner');
  await expect(banner).toBeVisible({ timeout: 15_000 });
  await expect(banner).toHaveAttribute('role', 'status');
  await expect
    .poll(async () => banner.locator('strong').textContent())
    .toBe(`Data as of ${shownAs(since, TZ)}, cluster unreachable`);
  await expect(banner.locator('time')).toHaveAttribute('datetime', since);
  // Above the list it describes.
  const bannerBox = (await banner.boundingBox())!;
  const tableBox = (await list.getByRole('grid').boundingBox())!;
  expect(bannerBox.y + bannerBox.height).toBeLessThanOrEqual(tableBox.y);
  // The navigation shows the cluster's own status and when it last matched.
  await expect(page.getByTestId('cluster-status')).toContainText('unreachable', { timeout: 15_000 });
  await expect(page.getByTestId('cluster-synced')).toContainText(`data as of ${shownAs(since, TZ)}`);

  // Polls revalidate with the ETag; a 304 keeps the staleness it was issued with. The second 304
  // of the list itself comes a poll after the first was rendered, so the banner has outlived one.
  const listRevalidations = () =>
    watch.notModified.filter((u) => {
      const url = new URL(u);
      return (
        url.pathname.endsWith('/namespaces/shop/pod') &&
        url.searchParams.get('limit') === String(MAX_PAGE_LIMIT)
      );
    }).length;
  await expect.poll(listRevalidations, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  await expect(banner).toContainText(`Data as of ${shownAs(since, TZ)}`);

  // Stale since before today: the date is shown too.
  const older = new Date(Date.now() - 3 * 24 * 3_600_000).toISOString();
  watch.since = older;
  await expect
    .poll(async () => banner.locator('strong').textContent(), { timeout: 15_000 })
    .toBe(`Data as of ${shownAs(older, TZ)}, cluster unreachable`);
  expect(shownAs(older, TZ)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);

  await nav(page, 'Events');
  const events = page.getByTestId('events-view');
  await expect(events.getByRole('table', { name: 'Cluster events' })).toBeVisible({ timeout: 15_000 });
  const eventsBanner = events.getByTestId('stale-banner');
  await expect(eventsBanner).toHaveText(new RegExp(`^Data as of ${shownAs(older, TZ)}, cluster unreachable`));
  await expect(eventsBanner).toHaveAttribute('role', 'status');

  // The cluster answers again: fresh lists carry no header and the banners go away by themselves.
  watch.since = null;
  await expect(eventsBanner).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByTestId('cluster-synced')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByTestId('cluster-status')).toContainText('connected');
  await nav(page, 'Resources');
  await expect(list.locator('.vt-body tr').first()).toBeVisible();
  await expect(page.getByTestId('stale-banner')).toHaveCount(0, { timeout: 15_000 });
});

for (const theme of ['light', 'dark'] as const) {
  test(`the stale banner is accessible and readable (${theme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    const watch = await fakeBrokenWatch(page);
    await login(page);
    await openFromTree(page, 'pod', 'shop');
    watch.since = new Date(Date.now() - 5 * 60_000).toISOString();
    await expect(page.getByTestId('resource-list').getByTestId('stale-banner')).toBeVisible({
      timeout: 15_000,
    });
    await expectAccessible(page, `pods list, stale (${theme})`);
    await nav(page, 'Events');
    await expect(page.getByTestId('events-view').getByTestId('stale-banner')).toBeVisible({
      timeout: 15_000,
    });
    await expectAccessible(page, `events, stale (${theme})`);
  });
}
