import { expect, login, openFromTree, openRow, screenshot, test } from './fixtures';

test.describe('explanations of failing pods', () => {
  test.beforeEach(async ({ page }) => {
    await login(page);
    await openFromTree(page, 'pod', 'demo-broken');
  });

  test('a crash-looping pod: exit code, meaning, and a jump to the previous logs', async ({ page }) => {
    await openRow(page, 'crashloop');
    const explanation = page.getByTestId('pod-explanation');
    // The container is either waiting in CrashLoopBackOff or just restarted; both explain the last exit.
    await expect(explanation.locator('[data-finding]').first()).toBeVisible();
    await expect(explanation.getByTestId('exit-code').first()).toContainText('Exit code 1');
    await expect(explanation.getByText('Likely causes').first()).toBeVisible();
    await expect(explanation.getByText('Check first').first()).toBeVisible();
    await screenshot(page, 'pod-crashloop-explanation');

    await explanation.getByRole('button', { name: 'Logs of the previous container' }).first().click();
    const pane = page.getByTestId('detail-pane');
    await expect(pane.getByRole('tab', { name: 'Logs' })).toHaveAttribute('aria-selected', 'true');
    await expect(pane.getByTestId('log-viewer')).toBeVisible();
    await expect(pane.getByTestId('log-previous')).toBeChecked();
  });

  test('an unschedulable pod: the scheduler message as per-reason node counts', async ({ page }) => {
    await openRow(page, 'unschedulable');
    const breakdown = page.getByTestId('pod-explanation').getByTestId('scheduling-breakdown').first();
    await expect(breakdown).toContainText('0 of 3 nodes');
    await expect(breakdown.getByRole('row', { name: /Insufficient memory/ })).toContainText('1');
    await expect(breakdown.getByRole('row', { name: /untolerated taint/ })).toBeVisible();
    await screenshot(page, 'pod-unschedulable-explanation');
    // "Node capacity vs. requests" on a pod with no node opens every node, where allocatable shows.
    const capacity = page.getByRole('button', { name: 'Node capacity vs. requests' }).first();
    await expect(capacity).toBeEnabled();
  });

  test('an image pull failure: guidance with the image and pull secrets one click away', async ({ page }) => {
    await openRow(page, 'imagepullbackoff');
    const explanation = page.getByTestId('pod-explanation');
    await expect(
      explanation.locator('[data-finding="ImagePullBackOff"], [data-finding="ErrImagePull"]').first(),
    ).toBeVisible();
    const secrets = explanation.getByRole('button', { name: 'Show spec.imagePullSecrets' }).first();
    await secrets.click();
    await expect(page.locator('[data-section="pull-secrets"]')).toBeInViewport();
  });

  test('an OOM-killed pod: exit 137 explained, and its node opens from the guidance', async ({ page }) => {
    await openRow(page, 'oomkilled');
    const explanation = page.getByTestId('pod-explanation');
    await expect(explanation.getByTestId('exit-code').first()).toContainText('137');
    await expect(explanation.getByTestId('exit-code').first()).toContainText('SIGKILL');
    await explanation.getByRole('button', { name: 'Requests and limits' }).first().click();
    await expect(page.locator('[data-section="resources"]')).toBeInViewport();
  });

  test('the owner action opens the deployment behind a pod', async ({ page }) => {
    await openRow(page, 'crashloop');
    await page
      .getByTestId('detail-pane')
      .getByRole('button', { name: /^Deployment\/crashloop/ })
      .first()
      .click();
    await expect(page.getByTestId('detail-pane').locator('.detail-kind')).toHaveText(/^Deployment/);
    await expect(page.getByTestId('detail-pane').getByRole('heading', { name: 'Replicas' })).toBeVisible();
  });

  test('a NotReady node: its condition explained', async ({ page }) => {
    await openFromTree(page, 'Nodes');
    await openRow(page, 'worker-3');
    const pane = page.getByTestId('detail-pane');
    await expect(pane.locator('[data-condition="Ready"]')).toContainText('False');
    await expect(pane.locator('.guidance').first()).toBeVisible();
    await expect(pane.getByText('Likely causes').first()).toBeVisible();
  });
});
