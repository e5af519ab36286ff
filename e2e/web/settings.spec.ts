import { expect, login, screenshot, test } from './fixtures';

async function openSettings(page: import('@playwright/test').Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
}

test.describe('settings', () => {
  test('monitoring flags round-trip through the service', async ({ page, baseURL }) => {
    await login(page);
    await openSettings(page);
    await screenshot(page, 'settings');
    const flag = page.getByRole('switch', { name: 'System events for demo' });
    await expect(flag).toBeChecked();
    await flag.uncheck();
    await expect(flag).not.toBeChecked();

    // A reload keeps the session (its refresh cookie); what the page shows now is what the service kept.
    await page.reload();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await openSettings(page);
    await expect(page.getByRole('switch', { name: 'System events for demo' })).not.toBeChecked();
    await expect(page.getByRole('switch', { name: 'Resource events for demo' })).toBeChecked();

    await page.getByRole('switch', { name: 'System events for demo' }).check();
    await expect(page.getByRole('switch', { name: 'System events for demo' })).toBeChecked();
    expect(baseURL).toBeTruthy();
  });

  test('workspaces: create, assign a cluster, rename, switch to it, remove', async ({ page }) => {
    await login(page);
    await openSettings(page);
    const section = page.getByTestId('workspace-settings');
    await section.getByLabel('New workspace name').fill('Team Payments');
    await expect(section.getByLabel('Id')).toHaveAttribute('placeholder', 'team-payments');
    await section.getByRole('button', { name: 'Create workspace' }).click();
    const row = section.locator('tr[data-workspace="team-payments"]');
    await expect(row).toBeVisible();

    await row.getByRole('checkbox', { name: 'demo' }).check();
    await expect(row.getByRole('checkbox', { name: 'demo' })).toBeChecked();

    const name = row.getByRole('textbox', { name: 'Name of workspace team-payments' });
    await name.fill('Payments');
    await name.press('Enter');
    await expect(page.getByLabel('Workspace', { exact: true })).toContainText('Payments');

    await page.getByLabel('Workspace', { exact: true }).selectOption('team-payments');
    await expect(page.getByLabel('Cluster', { exact: true })).toContainText('demo');

    await page.getByLabel('Workspace', { exact: true }).selectOption('default');
    await row.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove workspace' }).click();
    await expect(row).toHaveCount(0);
  });

  test('kubeconfig paths are kept, and say they apply at the next start', async ({ page }) => {
    await login(page);
    await openSettings(page);
    const section = page.getByTestId('kubeconfig-settings');
    await section.getByLabel('Add a kubeconfig file').fill('/tmp/skiff-e2e-does-not-exist.yaml');
    await section.getByRole('button', { name: 'Add file' }).click();
    await expect(section.getByText('/tmp/skiff-e2e-does-not-exist.yaml')).toBeVisible();
    await expect(section.getByText(/next time Skiff starts/)).toBeVisible();
    await section
      .getByRole('listitem')
      .filter({ hasText: 'skiff-e2e-does-not-exist' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await expect(section.getByText('/tmp/skiff-e2e-does-not-exist.yaml')).toHaveCount(0);
  });

  test('the local API cannot be switched off in web mode, and the page says why', async ({ page }) => {
    await login(page);
    await openSettings(page);
    const section = page.getByTestId('service-settings');
    await expect(section.getByRole('switch', { name: /Local HTTP API/ })).toBeDisabled();
    await expect(section.getByText(/In web mode the local API is this server itself/)).toBeVisible();
    await section.getByLabel(/Access token lifetime/).fill('30');
    await section.getByRole('button', { name: 'Save lifetimes' }).click();
    await expect(section.getByText('New lifetimes apply after Skiff restarts.')).toBeVisible();
    await section.getByLabel(/Access token lifetime/).fill('15');
    await section.getByRole('button', { name: 'Save lifetimes' }).click();
  });
});
