import { ADMIN, expect, login, screenshot, test } from './fixtures';

test.describe('login', () => {
  test('refuses a wrong password, then logs in and out', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Skiff' })).toBeVisible();
    await screenshot(page, 'login');

    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toBeVisible();

    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByText(ADMIN.username, { exact: true })).toBeVisible();

    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
    await expect(page.getByText('You logged out.')).toBeVisible();
  });

  // A reload keeps the session (the refresh token is an HttpOnly cookie) and web storage holds no
  // token: session-reload.spec.ts.

  test('refreshes the access token on a 401 and carries on', async ({ page }) => {
    await login(page);
    // Make the service see a stale token once: the next list call answers 401 and the client must refresh.
    let refreshed = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/v1/auth/refresh')) refreshed++;
    });
    let failed = false;
    await page.route('**/kubernetes-proxy/**', async (route) => {
      if (!failed) {
        failed = true;
        await route.fulfill({
          status: 401,
          contentType: 'application/problem+json',
          body: JSON.stringify({
            type: 'about:blank',
            title: 'Unauthorized',
            status: 401,
            detail: 'expired',
            code: 'invalid_token',
          }),
        });
        return;
      }
      await route.continue();
    });
    await expect.poll(() => refreshed, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect(page.getByRole('grid')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log in' })).toHaveCount(0);
  });
});
