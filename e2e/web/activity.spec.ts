import { readFile } from 'node:fs/promises';
import { ACTIVITY_CSV_COLUMNS } from '../../src-shared/contract/activity-export';
import { apiLogin, expect, login, screenshot, test } from './fixtures';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0';

test.describe('security activity log', () => {
  test('shows a login from another device, filters by kind, and exports CSV', async ({ page, baseURL }) => {
    const other = await apiLogin(baseURL!, FIREFOX_LINUX);
    const refreshed = await fetch(`${baseURL}/v1/auth/refresh`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': FIREFOX_LINUX },
      body: JSON.stringify({ refreshToken: other.refreshToken }),
    });
    expect(refreshed.status).toBe(200);

    await login(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Security' }).click();
    const log = page.getByTestId('activity-log');
    const table = log.getByRole('table', { name: 'Activity log' });
    const firefoxLogin = table.locator('tr[data-activity-type="login"]', { hasText: 'Firefox on Linux' });
    await expect(firefoxLogin.first()).toBeVisible();
    await expect(table.locator('tr[data-activity-type="refresh"]').first()).toBeVisible();
    await screenshot(page, 'activity-log');

    await log.getByLabel('Kind').selectOption({ label: 'Token refresh' });
    const rows = table.locator('tbody tr');
    await expect(rows.first()).toHaveAttribute('data-activity-type', 'refresh');
    await expect(table.locator('tr[data-activity-type="login"]')).toHaveCount(0);

    await log.getByLabel('Kind').selectOption({ label: 'Login' });
    await expect(table.locator('tr[data-activity-type="refresh"]')).toHaveCount(0);
    await expect(firefoxLogin.first()).toBeVisible();

    const downloading = page.waitForEvent('download');
    await log.getByRole('button', { name: 'Export CSV' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toMatch(/^skiff-activity-\d{4}-\d\d-\d\d\.csv$/);
    const csv = await readFile((await file.path())!, 'utf8');
    const lines = csv.split('\r\n').filter((l) => l !== '');
    expect(lines[0]).toBe(ACTIVITY_CSV_COLUMNS.join(','));
    // The filter applies to the export too: logins only, the other device's among them.
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.slice(1).every((l) => l.split(',')[1] === 'login')).toBe(true);
    expect(lines.some((l) => l.includes(other.sessionId) && l.includes('Firefox 126.0'))).toBe(true);
  });
});
