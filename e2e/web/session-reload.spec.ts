import type { Page } from '@playwright/test';
import { ADMIN, expect, login, test } from './fixtures';

/**
 * A web session survives a reload and a new tab: the refresh token is the service's HttpOnly
 * cookie (no script reads it, no web storage holds a token) and the access token lives in memory,
 * so a reload trades the cookie for a new access token in the same session instead of a new
 * login. Reloads do not fill the session list; a browser session is labelled by its browser.
 */

const sessionsTable = (page: Page) => page.getByRole('table', { name: 'Login sessions' });

async function openSecurity(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Security' }).click();
  await expect(sessionsTable(page)).toBeVisible();
}

async function expectSignedIn(page: Page) {
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('banner').getByText(ADMIN.username, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log in' })).toHaveCount(0);
}

test.describe('the web session', () => {
  test('survives reloads and a new tab as one session, labelled by its browser', async ({
    page,
    context,
  }) => {
    await login(page);
    await openSecurity(page);
    // Earlier specs' logins of the same account are listed too (one service, workers: 1): what
    // matters is that the reloads add none and that this device's row stays the same session.
    const rows = sessionsTable(page).locator('tbody tr');
    const mine = sessionsTable(page).locator('tbody tr.this-device');
    await expect(mine).toHaveCount(1);
    const before = await rows.count();
    const sessionId = await mine.getAttribute('data-session');

    for (let i = 0; i < 3; i++) {
      await page.reload();
      await expectSignedIn(page);
    }
    await openSecurity(page);
    // Still the one session: the reloads continued it.
    await expect(rows).toHaveCount(before);
    await expect(mine).toHaveCount(1);
    await expect(mine).toHaveAttribute('data-session', sessionId!);
    const device = mine.locator('td').first();
    await expect(device).toContainText(/Chrom\w*( Headless)? browser/);
    await expect(device).not.toHaveText(/^desktop/);

    const tab = await context.newPage();
    await tab.goto('/');
    await expectSignedIn(tab);
    await openSecurity(tab);
    await expect(sessionsTable(tab).locator('tbody tr')).toHaveCount(before);
    await expect(sessionsTable(tab).locator('tbody tr.this-device')).toHaveAttribute(
      'data-session',
      sessionId!,
    );
    await tab.close();
  });

  test('keeps the refresh token out of every script: an HttpOnly, SameSite=Strict cookie for the refresh path only', async ({
    page,
    context,
  }) => {
    await login(page);
    const cookies = await context.cookies();
    const refresh = cookies.find((c) => c.name === 'skiff_refresh');
    expect(refresh).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/v1/auth/refresh' });
    expect(refresh!.value).toMatch(/^skiff_rt_/);
    const visible = await page.evaluate(() => ({
      cookie: document.cookie,
      storage: JSON.stringify({ ...localStorage, ...sessionStorage }),
    }));
    expect(visible.cookie).not.toContain('skiff_rt_');
    expect(visible.storage).not.toMatch(/eyJ|skiff_rt_/); // no JWT, no refresh token in web storage
  });

  test('ends with a logout: the cookie is gone and a reload asks for the password', async ({
    page,
    context,
  }) => {
    await login(page);
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page.getByText('You logged out.')).toBeVisible();
    await expect
      .poll(async () => (await context.cookies()).some((c) => c.name === 'skiff_refresh'))
      .toBe(false);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  });

  test('ended elsewhere, a reload shows the login page instead of a broken shell', async ({
    page,
    context,
  }) => {
    await login(page);
    await openSecurity(page);
    const sessionId = await sessionsTable(page).locator('tbody tr').first().getAttribute('data-session');
    // Ended from another device: the cookie this browser holds is now refused.
    const other = await context.request.post('/v1/auth/login', { data: ADMIN });
    const { accessToken } = (await other.json()) as { accessToken: string };
    const ended = await context.request.post(`/v1/auth/sessions/${sessionId}/logout`, {
      headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
    });
    expect(ended.status()).toBe(200);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
    await expect
      .poll(async () => (await context.cookies()).some((c) => c.name === 'skiff_refresh'))
      .toBe(false);
  });
});
