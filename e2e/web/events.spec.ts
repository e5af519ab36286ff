import { expect, login, screenshot, test } from './fixtures';

test.describe('events view', () => {
  test.beforeEach(async ({ page }) => {
    await login(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Events' }).click();
    await expect(page.getByRole('table', { name: 'Cluster events' })).toBeVisible();
  });

  test('filters by type, reason, namespace and object; expands to the explanation', async ({ page }) => {
    const table = page.getByRole('table', { name: 'Cluster events' });
    await expect(table.locator('tbody tr.event-row').first()).toBeVisible();
    await expect(page.locator('.list-count')).toHaveText(/\d+ of \d+ events/);
    await screenshot(page, 'events');

    await page.getByRole('switch', { name: 'Warnings only' }).check();
    await expect(async () => {
      const types = await table.locator('tbody tr.event-row td:first-child').allInnerTexts();
      expect(types.length).toBeGreaterThan(0);
      expect(new Set(types)).toEqual(new Set(['Warning']));
    }).toPass();

    await page.getByLabel('Reason').fill('FailedScheduling');
    await expect(async () => {
      const reasons = await table.locator('tbody tr.event-row .event-toggle').allInnerTexts();
      expect(reasons.length).toBeGreaterThan(0);
      for (const r of reasons) expect(r).toContain('FailedScheduling');
    }).toPass();

    await page.getByLabel('Namespace').fill('demo-broken');
    await page.getByLabel('Object kind').selectOption('Pod');
    await expect(table.locator('tbody tr.event-row').first()).toContainText('demo-broken');

    await table.getByRole('button', { name: 'FailedScheduling' }).first().click();
    const explanation = page.getByTestId('event-explanation');
    await expect(explanation.getByTestId('scheduling-breakdown')).toContainText('nodes');
    await expect(explanation.locator('.guidance')).toBeVisible();
    await screenshot(page, 'events-expanded');

    await page.getByLabel('Namespace').fill('no-such-namespace');
    await expect(page.getByText('No events match these filters.')).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page.getByRole('switch', { name: 'Warnings only' })).not.toBeChecked();
  });

  test('an event row opens its object, and a guidance action lands on the object', async ({ page }) => {
    await page.getByLabel('Reason').fill('FailedMount');
    const table = page.getByRole('table', { name: 'Cluster events' });
    await table.getByRole('button', { name: 'FailedMount' }).first().click();
    await page.getByTestId('event-explanation').getByRole('button', { name: 'Volumes' }).first().click();
    await expect(page.getByTestId('detail-pane')).toBeVisible();
    await expect(page.getByTestId('detail-pane').getByRole('heading', { level: 2 })).toContainText(
      'failedmount',
    );
    await expect(page.locator('[data-section="volumes"]')).toBeInViewport();
  });

  test('pages further on demand and refreshes live', async ({ page }) => {
    // A cluster with 250 events, answered here so the paging is exact whatever the demo cluster did.
    const make = (i: number, reason = 'Pulled') => ({
      workspaceId: 'default',
      clusterId: 'demo',
      resourceId: `uid-${i}`,
      eventId: `ev-${i}`,
      firstTimestamp: new Date(Date.now() - i * 60_000).toISOString(),
      lastTimestamp: new Date(Date.now() - i * 60_000).toISOString(),
      count: 1,
      message: `event number ${i}`,
      reason,
      type: 'NORMAL',
      involvedObject: { kind: 'Pod', name: `pod-${i}`, uid: `uid-${i}`, namespace: 'default' },
      source: { component: 'kubelet', host: 'worker-1' },
    });
    let events = Array.from({ length: 250 }, (_, i) => make(i));
    await page.route('**/kubernetes-events?*', async (route) => {
      const url = new URL(route.request().url());
      // The live watch is cut off: the view falls back to polling the list, answered here.
      if (url.searchParams.get('watch') === 'true') return route.abort('connectionrefused');
      const limit = Number(url.searchParams.get('limit') ?? 20);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      await route.fulfill({
        json: events.slice(offset, offset + limit),
        headers: { 'x-total': String(events.length), 'x-limit': String(limit), 'x-offset': String(offset) },
      });
    });
    // A filter restarts the watch, now refused, so the list is polled (and answered above).
    await page.getByLabel('Namespace').fill('default');
    const count = page.locator('.list-count');
    // The first answer may still be the demo cluster's; the next refresh is the 250.
    await expect(count).toHaveText(/^\d+ of 250 events$/);
    // Scrolling to the end loads further pages by itself (the button is there for keyboard users):
    // each look scrolls to the end again, since every page that arrives moves the end further down.
    const scroller = page.locator('.events-scroll');
    await expect
      .poll(async () => {
        await scroller.evaluate((el) => {
          el.scrollTop = el.scrollHeight;
        });
        return count.textContent();
      })
      .toBe('250 of 250 events');
    await expect(page.getByRole('button', { name: /Load \d+ more/ })).toHaveCount(0);

    // A new event arrives: the next refresh shows it on top without a reload.
    events = [make(-1, 'Killing'), ...events];
    await expect(page.locator('tbody tr.event-row').first()).toContainText('Killing');
  });

  test('follows the event watch: changes appear live, and the list is not polled meanwhile', async ({
    page,
  }) => {
    const table = page.getByRole('table', { name: 'Cluster events' });
    await expect(page.locator('.list-updated')).toHaveText('live');
    // From here on, count what the view asks for: the list (not its timeline or groups) and the watch.
    const lists: string[] = [];
    const watches: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (!url.pathname.endsWith('/kubernetes-events')) return;
      (url.searchParams.get('watch') === 'true' ? watches : lists).push(url.search);
    });
    // The demo cluster repeats events every few seconds (count + 1, lastTimestamp now): the one
    // that repeated moves to the top with its new count, which only the watch can have told.
    // The "last seen" cell's title is the absolute lastTimestamp: it changes only with the data.
    const lastSeen = table.locator('tbody tr.event-row').first().locator('td[title]').nth(1);
    const before = await lastSeen.getAttribute('title');
    await expect(async () => expect(await lastSeen.getAttribute('title')).not.toBe(before)).toPass({
      timeout: 30_000,
    });
    expect(lists).toEqual([]);
    expect(watches).toEqual([]);
  });
});
