import { expect, expectAccessible, login, openFromTree, openRow, screenshot, test } from './fixtures';

/** axe-core over the main views, in both themes: no serious or critical violations. */
for (const theme of ['light', 'dark'] as const) {
  test.describe(`accessibility (${theme})`, () => {
    test.use({ colorScheme: theme });

    test('login page', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
      await expectAccessible(page, 'login');
    });

    test('resources, pod details and explanation', async ({ page }) => {
      await login(page);
      await openFromTree(page, 'pod', 'demo-broken');
      await expectAccessible(page, 'pod list');
      await openRow(page, 'unschedulable');
      await expect(page.getByTestId('scheduling-breakdown').first()).toBeVisible();
      await expectAccessible(page, 'pod details');
      if (theme === 'dark') await screenshot(page, 'dark-pod-details');
      await page.getByTestId('detail-pane').getByRole('tab', { name: 'Events' }).click();
      await expect(page.locator('.object-events')).toBeVisible();
      await expectAccessible(page, 'pod events');
      await page.getByTestId('detail-pane').getByRole('tab', { name: 'YAML' }).click();
      await expectAccessible(page, 'pod yaml');
    });

    test('nodes and node details', async ({ page }) => {
      await login(page);
      await openFromTree(page, 'Nodes');
      await openRow(page, 'worker-3');
      await expect(page.getByTestId('node-allocatable')).toBeVisible();
      await expectAccessible(page, 'node details');
    });

    test('events with an expanded explanation', async ({ page }) => {
      await login(page);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Events' }).click();
      await page.getByLabel('Reason').fill('FailedScheduling');
      await page
        .getByRole('table', { name: 'Cluster events' })
        .getByRole('button', { name: 'FailedScheduling' })
        .first()
        .click();
      await expect(page.getByTestId('event-explanation')).toBeVisible();
      await expectAccessible(page, 'events');
    });

    test('security and settings', async ({ page }) => {
      await login(page);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Security' }).click();
      await expect(page.getByRole('table', { name: 'Login sessions' })).toBeVisible();
      await expectAccessible(page, 'security');
      await page
        .getByRole('table', { name: 'Login sessions' })
        .getByRole('button', { name: 'Logout Device' })
        .first()
        .click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectAccessible(page, 'logout confirmation');
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
      await expect(page.getByTestId('service-settings')).toBeVisible();
      await expectAccessible(page, 'settings');
    });
  });
}
