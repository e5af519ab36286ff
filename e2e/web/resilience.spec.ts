import { expect, login, openFromTree, test } from './fixtures';

test('an unreachable cluster says so, the security panel still works, and the view recovers', async ({
  page,
}) => {
  await login(page);
  await openFromTree(page, 'pod', 'shop');
  await expect(page.locator('.vt-body tr').first()).toBeVisible();

  // The cluster goes away: its status turns unreachable and every proxied call fails as the service would.
  let down = true;
  await page.route('**/v1/workspaces/default/clusters?*', async (route) => {
    // Always a full answer, and no ETag on the doctored one, so the page's conditional-GET cache
    // never holds the mocked status once the cluster is back.
    const { 'if-none-match': _held, ...headers } = route.request().headers();
    const res = await route.fetch({ headers });
    const body = (await res.json()) as Array<{ status: string }>;
    const { etag: _etag, ...resHeaders } = res.headers();
    await route.fulfill({
      status: res.status(),
      headers: resHeaders,
      json: down ? body.map((c) => ({ ...c, status: 'unreachable' })) : body,
    });
  });
  await page.route('**/observability/**', async (route) => {
    if (!down) return route.continue();
    await route.fulfill({
      status: 502,
      contentType: 'application/problem+json',
      body: JSON.stringify({
        type: 'https://skiff.dev/problems/cluster_unreachable',
        title: 'Cluster unreachable',
        status: 502,
        detail: 'cluster "demo" did not answer: connect ECONNREFUSED 127.0.0.1:6443',
        code: 'cluster_unreachable',
      }),
    });
  });

  await expect(page.getByTestId('cluster-down')).toContainText('demo is unreachable', { timeout: 15_000 });
  await expect(page.getByTestId('cluster-status')).toContainText('unreachable');
  await expect(page.locator('.stale')).toContainText('ECONNREFUSED', { timeout: 15_000 });

  // Security needs no cluster.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Security' }).click();
  await expect(page.getByRole('table', { name: 'Login sessions' })).toBeVisible();
  await expect(page.getByTestId('api-keys-panel')).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Events' }).click();
  await expect(page.getByText('The cluster cannot be reached')).toBeVisible({ timeout: 15_000 });

  down = false;
  await expect(page.getByTestId('cluster-down')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByRole('table', { name: 'Cluster events' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('cluster-status')).toContainText('connected');
});
