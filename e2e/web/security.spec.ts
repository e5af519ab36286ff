import { apiLogin, expect, login, screenshot, test } from './fixtures';

test.describe('security panel', () => {
  test('logs out another device after a confirmation; that device loses access at once', async ({
    page,
    baseURL,
  }) => {
    const other = await apiLogin(
      baseURL!,
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
    );
    await login(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Security' }).click();
    const sessions = page.getByRole('table', { name: 'Login sessions' });
    const mine = sessions.locator('tr.this-device');
    await expect(mine).toHaveCount(1);
    await expect(mine).toContainText('This device');
    const row = sessions.locator(`tr[data-session="${other.sessionId}"]`);
    await expect(row).toContainText('Safari 17.5');
    await expect(row).toContainText('Mac OS 14.5');
    await screenshot(page, 'security');

    await row.getByRole('button', { name: 'Logout Device' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log out this device?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(row).toBeVisible();

    await row.getByRole('button', { name: 'Logout Device' }).click();
    await dialog.getByRole('button', { name: 'Log out device' }).click();
    await expect(row).toHaveCount(0);

    // The other device's access token stops working at once, and so does its refresh token.
    const listed = await fetch(`${baseURL}/v1/auth/sessions`, {
      headers: { Authorization: `Bearer ${other.accessToken}` },
    });
    expect(listed.status).toBe(401);
    const refreshed = await fetch(`${baseURL}/v1/auth/refresh`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refreshToken: other.refreshToken }),
    });
    expect(refreshed.status).toBe(401);

    // With expired sessions included it is still listed, as logged out.
    await page.getByRole('switch', { name: /Include expired/ }).check();
    await expect(sessions.locator(`tr[data-session="${other.sessionId}"]`)).toContainText('logged out');
  });

  test('logging out this device from the list returns to the login page', async ({ page }) => {
    await login(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Security' }).click();
    const mine = page.getByRole('table', { name: 'Login sessions' }).locator('tr.this-device');
    await mine.getByRole('button', { name: 'Logout Device' }).click();
    await expect(page.getByRole('dialog')).toContainText('you will be logged out here');
    await page.getByRole('dialog').getByRole('button', { name: 'Log out device' }).click();
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  });

  test('API keys: created and shown once, listed, revoked', async ({ page, baseURL }) => {
    await login(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Security' }).click();
    const panel = page.getByTestId('api-keys-panel');
    await panel.getByLabel('Name').fill('e2e-script');
    await panel.getByRole('button', { name: 'Create key' }).click();
    const created = panel.getByTestId('created-key');
    await expect(created).toContainText('Copy it now');
    const key = ((await created.locator('pre').textContent()) ?? '').trim();
    expect(key.length).toBeGreaterThan(20);

    const ok = await fetch(`${baseURL}/v1/workspaces`, { headers: { 'X-API-Key': key } });
    expect(ok.status).toBe(200);

    await created.getByRole('button', { name: 'I have stored it' }).click();
    await expect(panel.getByTestId('created-key')).toHaveCount(0);
    const row = panel.locator('tr[data-api-key="e2e-script"]');
    await expect(row).toContainText('active');
    await expect(row).not.toContainText(key);

    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect(row).toContainText('revoked');
    const refused = await fetch(`${baseURL}/v1/workspaces`, { headers: { 'X-API-Key': key } });
    expect(refused.status).toBe(401);
  });

  test('a window whose session is ended elsewhere returns to the login page and says why', async ({
    page,
    baseURL,
  }) => {
    await login(page);
    const other = await apiLogin(baseURL!);
    const res = await fetch(`${baseURL}/v1/auth/sessions`, {
      headers: { Authorization: `Bearer ${other.accessToken}` },
    });
    const sessions = (await res.json()) as Array<{
      sessionId: string;
      current: boolean;
      browser: { name: string | null };
    }>;
    const browserSession = sessions.find((x) => !x.current && x.browser.name?.includes('Chrome'));
    expect(browserSession).toBeTruthy();
    const out = await fetch(`${baseURL}/v1/auth/sessions/${browserSession!.sessionId}/logout`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${other.accessToken}`, 'Content-Type': 'application/json' },
    });
    expect(out.status).toBe(200);
    // The next poll gets a 401, the refresh is refused, and the window says so.
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText(/Your session has ended/)).toBeVisible();
  });
});
