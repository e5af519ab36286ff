import { expect, login, test } from './fixtures';

/**
 * Issue 26 in the administration views: a workspace's identity-provider member groups are typed in
 * Settings → Workspaces and read back from the service after a reload, and the Security view lists
 * the accounts with how each signs in. (Identity-provider accounts and their groups in that list are
 * covered by the renderer's AccountsTable test; the whole provider flow by oidc.spec.ts.)
 */

const nav = (page: import('@playwright/test').Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name }).click();

test.describe('member groups and accounts', () => {
  test('a workspace’s member groups are saved and read back after a reload', async ({ page }) => {
    await login(page);
    await nav(page, 'Settings');
    const section = page.getByTestId('workspace-settings');
    await section.getByLabel('New workspace name').fill('Team Groups');
    await section.getByLabel('Member groups', { exact: true }).fill('shop-devs, ops ,shop-devs');
    await section.getByRole('button', { name: 'Create workspace' }).click();
    const row = section.locator('tr[data-workspace="team-groups"]');
    const groups = row.getByRole('textbox', { name: 'Member groups of workspace team-groups' });
    await expect(groups).toHaveValue('shop-devs, ops');

    await groups.fill('ops');
    await groups.press('Enter');
    await page.reload();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await nav(page, 'Settings');
    await expect(groups).toHaveValue('ops');
    await expect(groups).not.toHaveAttribute('readonly');

    await row.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove workspace' }).click();
    await expect(row).toHaveCount(0);
  });

  test('the Security view lists the accounts with how they sign in', async ({ page }) => {
    await login(page);
    await nav(page, 'Security');
    const panel = page.getByTestId('accounts-panel');
    const admin = panel.locator('tr[data-source="local"]').first();
    await expect(admin.getByText('Password', { exact: true })).toBeVisible();
    await expect(admin.getByRole('button', { name: 'Set password' })).toBeDisabled();
  });
});
