import { expect, login, openFromTree, openRow, screenshot, test } from './fixtures';

test.describe('browsing resources', () => {
  test.beforeEach(async ({ page }) => {
    await login(page);
  });

  test('the tree shows counts and opens every kind', async ({ page }) => {
    const tree = page.getByRole('tree');
    await expect(tree.getByRole('treeitem', { name: /^Nodes/ })).toContainText(/\d+/);
    await expect(tree.getByRole('treeitem', { name: /^Namespaces/ })).toContainText(/\d+/);

    await openFromTree(page, 'Nodes');
    await expect(page.getByRole('heading', { name: 'Nodes' })).toBeVisible();
    await expect(page.locator('.vt-body tr')).not.toHaveCount(0);

    await openFromTree(page, 'Namespaces');
    await expect(page.getByRole('heading', { name: 'Namespaces' })).toBeVisible();
    await expect(page.locator('.vt-body tr').filter({ hasText: 'kube-system' })).toHaveCount(1);

    for (const [id, heading] of [
      ['deployment', 'Deployments'],
      ['statefulset', 'StatefulSets'],
      ['daemonset', 'DaemonSets'],
      ['job', 'Jobs'],
      ['cronjob', 'CronJobs'],
      ['pod', 'Pods'],
      ['service', 'Services'],
    ] as const) {
      await openFromTree(page, id);
      await expect(page.getByRole('heading', { name: `${heading} in all namespaces` })).toBeVisible();
      await expect(page.getByTestId('resource-list')).toHaveAttribute('data-kind', id);
      // Every kind has objects in the demo cluster, and the tree's count matches the list's.
      const count = (await page.locator(`[data-tree-id="kind:${id}"] .count`).textContent()) ?? '';
      await expect(page.locator('.list-count')).toContainText(`${Number.parseInt(count, 10)} `);
    }
    await screenshot(page, 'resources-services');
  });

  test('node details: capacity, allocatable, conditions, system info, addresses', async ({ page }) => {
    await openFromTree(page, 'Nodes');
    await openRow(page, 'worker-1');
    const pane = page.getByTestId('detail-pane');
    for (const heading of [
      'Conditions',
      'Capacity and allocatable',
      'System info',
      'Addresses',
      'Taints and scheduling',
    ]) {
      await expect(pane.getByRole('heading', { name: heading })).toBeVisible();
    }
    await expect(pane.getByTestId('node-allocatable')).toContainText('cpu');
    await expect(pane.getByTestId('node-allocatable')).toContainText(/\d+%/);
    await expect(pane.getByText('Kernel version')).toBeVisible();
    await expect(pane.getByText('InternalIP')).toBeVisible();
    await screenshot(page, 'node-details');
  });

  test('deployment details: replicas, strategy, conditions, pod template; and its pods', async ({ page }) => {
    await openFromTree(page, 'deployment', 'shop');
    await openRow(page, 'frontend');
    const pane = page.getByTestId('detail-pane');
    for (const heading of ['Replicas', 'Strategy', 'Conditions', 'Pod template']) {
      await expect(pane.getByRole('heading', { name: heading })).toBeVisible();
    }
    await expect(pane.getByText('desired')).toBeVisible();
    await expect(pane.getByText('unavailable', { exact: true })).toBeVisible();
    await expect(pane.locator('[data-condition="Available"]')).toBeVisible();
    await screenshot(page, 'deployment-details');

    await pane.getByRole('button', { name: 'Show its pods' }).click();
    await expect(page.getByLabel('Label selector')).toHaveValue(/app=frontend/);
    await expect(page.getByRole('heading', { name: 'Pods in shop' })).toBeVisible();
    await expect(page.locator('.vt-body tr').first()).toContainText('frontend');
  });

  test('pod details: YAML, events section and the logs tab', async ({ page }) => {
    await openFromTree(page, 'pod', 'shop');
    await openRow(page, 'frontend');
    const pane = page.getByTestId('detail-pane');
    for (const heading of ['Status', 'Resource usage', 'Conditions', 'Containers']) {
      await expect(pane.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    }
    await expect(pane.getByTestId('pod-usage')).toContainText(/\d+(m|Mi|Ki)/);
    await pane.getByRole('tab', { name: 'YAML' }).click();
    await expect(pane.locator('.yaml-text')).toContainText('kind: Pod');
    await expect(pane.locator('.yaml-text')).not.toContainText('managedFields');
    await pane.getByRole('tab', { name: 'Events' }).click();
    await expect(pane.locator('.object-events')).toBeVisible();
    await pane.getByRole('tab', { name: 'Logs' }).click();
    await expect(pane.getByTestId('log-viewer')).toBeVisible();
  });

  test('label selector validates as you type and filters the list', async ({ page }) => {
    await openFromTree(page, 'pod');
    const box = page.getByLabel('Label selector');
    await box.fill('app in (frontend,checkout');
    await expect(box).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('alert')).toContainText('app in (frontend,checkout');
    await box.fill('app in (frontend,checkout), tier=');
    await expect(box).toHaveAttribute('aria-invalid', 'false');
    await box.fill('app=frontend');
    await expect(page.locator('.list-count')).toHaveText(/^3 pods/);
    await box.fill('app=frontend,=x');
    await expect(page.getByRole('alert')).toContainText('=x');
    // The list keeps the last valid result while the selector is wrong, also once the typing has
    // settled (the list applies what was typed after a pause, and the invalid text reaches it).
    await expect(page.getByTestId('resource-list')).toHaveAttribute(
      'data-selector-settled',
      'app=frontend,=x',
    );
    await expect(page.locator('.list-count')).toHaveText(/^3 pods/);
  });

  test('keyboard: tree and table move with arrows and open with Enter; sorting by column', async ({
    page,
  }) => {
    const nodes = page.getByRole('treeitem', { name: /^Nodes/ });
    await nodes.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Nodes' })).toBeVisible();
    await page.keyboard.press('ArrowDown'); // Namespaces
    await expect(page.getByRole('treeitem', { name: /^Namespaces/ })).toBeFocused();
    // Workloads come first: Pods, then Deployments.
    await page.getByRole('treeitem', { name: /^Pods/ }).focus();
    await page.keyboard.press('ArrowDown'); // Deployments
    await expect(page.getByRole('treeitem', { name: /^Deployments/ })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Deployments in all namespaces' })).toBeVisible();

    // Keys mean something once the deployments themselves are listed and the grid has the focus:
    // the list shows no rows until its own answer (the previous kind's rows are gone with it).
    const grid = page.getByRole('grid', { name: 'Deployments in all namespaces' });
    await expect(grid.locator('.vt-body tr').nth(1)).toBeVisible();
    await grid.focus();
    await expect(grid).toBeFocused();
    const active = grid.locator('.vt-body tr.active');
    await page.keyboard.press('ArrowDown');
    await expect(active).toHaveAttribute('aria-rowindex', '2'); // the first row (the header is 1)
    await page.keyboard.press('ArrowDown');
    await expect(active).toHaveAttribute('aria-rowindex', '3');
    // The grid names that row as its active one: Enter opens the row the grid announces.
    await expect(grid).toHaveAttribute('aria-activedescendant', 'list-deployment-row-1');
    const second = (await active.locator('td').first().textContent()) ?? '';
    await expect(grid).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('detail-pane').getByRole('heading', { level: 2 })).toHaveText(second);

    await page.getByRole('button', { name: 'Name', exact: true }).click();
    await expect(page.getByRole('columnheader', { name: 'Name', exact: true })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  });

  test('a list switched to another kind shows none of the previous kind’s rows while its own answer is on the way', async ({
    page,
  }) => {
    await openFromTree(page, 'Nodes');
    await expect(page.locator('.vt-body tr').filter({ hasText: 'worker-1' })).toHaveCount(1);
    // The deployments' answer is held back, as a slow cluster holds it, until the test has looked.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/kubernetes-proxy/deployment?*', async (route) => {
      await held;
      await route.continue();
    });
    try {
      await openFromTree(page, 'deployment');
      await expect(page.getByRole('heading', { name: 'Deployments in all namespaces' })).toBeVisible();
      await expect(page.getByText('Loading deployments…')).toBeVisible();
      // The nodes' rows under the deployments' heading would open a "deployment" worker-1.
      await expect(page.locator('.vt-body tr')).toHaveCount(0);
      await expect(page.locator('.list-count')).toHaveText('');
    } finally {
      release();
    }
    const grid = page.getByRole('grid', { name: 'Deployments in all namespaces' });
    await expect(grid.locator('.vt-body tr').filter({ hasText: 'frontend' })).not.toHaveCount(0);
    await expect(grid.locator('.vt-body tr').filter({ hasText: 'worker-1' })).toHaveCount(0);
  });
});
