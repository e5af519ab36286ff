import { expect, login, test } from './fixtures';

/**
 * 10,000 pods: the list endpoint is answered from here (the demo cluster is small), paged as the
 * service pages it, and the table must keep the DOM small and reach the last row by scrolling.
 * No timing here: load and frame times are `npm run bench -- --only renderer`'s.
 */
const TOTAL = 10_000;

function pod(i: number) {
  const name = `load-${String(i).padStart(5, '0')}`;
  return {
    clusterId: 'demo',
    workspaceId: 'default',
    resource: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'load',
        uid: `uid-${i}`,
        creationTimestamp: new Date(Date.now() - i * 1000).toISOString(),
      },
      spec: { nodeName: `worker-${(i % 3) + 1}`, containers: [{ name: 'app', image: 'nginx' }] },
      status: {
        phase: 'Running',
        podIP: `10.1.${Math.floor(i / 250)}.${i % 250}`,
        containerStatuses: [
          {
            name: 'app',
            ready: i % 97 !== 0,
            restartCount: i % 13,
            state:
              i % 97 === 0
                ? { waiting: { reason: 'CrashLoopBackOff' } }
                : { running: { startedAt: '2026-01-01T00:00:00Z' } },
          },
        ],
      },
    },
  };
}

const ALL = Array.from({ length: TOTAL }, (_, i) => pod(i));

test('a 10,000-row list stays virtualized, sorts, and scrolls to the end', async ({ page }) => {
  await login(page);
  await page.route('**/kubernetes-proxy/pod?*', async (route) => {
    const url = new URL(route.request().url());
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    await route.fulfill({
      status: 200,
      contentType: 'application/json',
      headers: { 'x-total': String(TOTAL), 'x-limit': String(limit), 'x-offset': String(offset) },
      body: JSON.stringify(ALL.slice(offset, offset + limit)),
    });
  });
  await page.goto('/#ws=default&cl=demo&area=resources&kind=pod');
  // goto keeps the in-memory session only within the page; the hash change alone does not reload.
  await expect(page.locator('.list-count')).toHaveText('10000 pods', { timeout: 20_000 });
  const rendered = await page.locator('.vt-body tr').count();
  expect(rendered).toBeLessThan(80);
  expect(await page.getByRole('grid').getAttribute('aria-rowcount')).toBe(String(TOTAL + 1));

  // Scrolling to the end in steps, a frame each, shows the last row, still with a small DOM. How
  // smooth that is (frame times while scrolling) is the renderer bench's: `npm run bench -- --only
  // renderer`, as ratios to the frame cadence of the same run.
  const scroller = page.locator('.vt');
  await scroller.evaluate(async (el) => {
    for (let i = 0; i < 60; i++) {
      el.scrollTop += el.scrollHeight / 60;
      await new Promise((r) => requestAnimationFrame(() => r(null)));
    }
  });
  await expect(page.locator('.vt-body tr').filter({ hasText: 'load-09999' })).toBeVisible();
  expect(await page.locator('.vt-body tr').count()).toBeLessThan(80);

  // Sorting by restarts (descending) puts the 12-restart pods first.
  await scroller.evaluate((el) => {
    el.scrollTop = 0;
  });
  await page.getByRole('button', { name: 'Restarts' }).click();
  await page.getByRole('button', { name: 'Restarts' }).click();
  await expect(page.getByRole('columnheader', { name: 'Restarts' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect(page.locator('.vt-body tr').first()).toContainText('12');
});
