import { expect, expectAccessible, login, openFromTree, openRow, screenshot, test } from './fixtures';

/**
 * Issue 23's UI for every kind, against the demo cluster: the tree's groups and counts, the
 * namespace scope, a custom resource's list with its CRD's printer columns and its failing object
 * explained, a pod's missing ConfigMap opened from Related, and the command palette. Every wait is
 * for a state.
 */

test.describe('every kind', () => {
  test.beforeEach(async ({ page }) => {
    await login(page);
  });

  test('the tree groups the served kinds, counts them in the chosen namespace and hides empty ones', async ({
    page,
  }) => {
    const tree = page.getByRole('tree');
    for (const group of ['Workloads', 'Networking', 'Config & storage', 'Access control', 'Cluster']) {
      await expect(tree.getByRole('treeitem', { name: group, exact: true })).toHaveAttribute(
        'aria-level',
        '1',
      );
    }
    await expect(tree.getByRole('treeitem', { name: 'Custom resources' })).toBeVisible();
    await expect(tree.getByRole('treeitem', { name: 'cert-manager.io' })).toHaveAttribute('aria-level', '2');
    await expect(tree.locator('[data-tree-id="kind:configmap"]')).toHaveAttribute('aria-level', '2');
    await expect(tree.locator('[data-tree-id="kind:certificate"] .count')).toHaveText(/^2/);

    // Scoped to one namespace, the counts are that namespace's, and a kind it has none of hides.
    await page.getByLabel('Namespace', { exact: true }).selectOption('monitoring');
    await expect(tree.locator('[data-tree-id="kind:certificate"] .count')).toHaveText(/^1/);
    await expect(tree.locator('[data-tree-id="kind:cronjob"]')).toHaveCount(0);
    await page.getByLabel(/^Show empty kinds/).check();
    await expect(tree.locator('[data-tree-id="kind:cronjob"] .count')).toHaveText(/^0/);
    await page.getByLabel(/^Show empty kinds/).uncheck();
    await expect(tree.locator('[data-tree-id="kind:cronjob"]')).toHaveCount(0);

    // Every list follows the scope, whatever kind it is.
    await tree.locator('[data-tree-id="kind:configmap"]').click();
    await expect(page.getByRole('heading', { name: 'ConfigMaps in monitoring' })).toBeVisible();
    await tree.locator('[data-tree-id="kind:pod"]').click();
    await expect(page.getByRole('heading', { name: 'Pods in monitoring' })).toBeVisible();
    const count = (await tree.locator('[data-tree-id="kind:pod"] .count').textContent()) ?? '';
    await expect(page.locator('.list-count')).toHaveText(new RegExp(`^${Number.parseInt(count, 10)} pods`));
    // One namespace: no Namespace column to tell them apart.
    await expect(page.getByRole('columnheader', { name: 'Namespace' })).toHaveCount(0);
    await page.getByLabel('Namespace', { exact: true }).selectOption('');
    await expect(page.getByRole('heading', { name: 'Pods in all namespaces' })).toBeVisible();

    // A namespace's own pane counts what it holds, of every kind, and scopes the lists to it.
    await openFromTree(page, 'Namespaces');
    await openRow(page, 'monitoring');
    const contents = page.getByTestId('detail-pane').locator('[data-section="contents"]');
    await expect(contents.getByRole('button', { name: /^1\s*Certificates$/ })).toBeVisible();
    await contents.getByRole('button', { name: 'Scope every list to monitoring' }).click();
    await expect(page.getByRole('heading', { name: 'Pods in monitoring' })).toBeVisible();
    await expect(page.getByLabel('Namespace', { exact: true })).toHaveValue('monitoring');
  });

  test('the Certificate list shows its printer columns, and the failing one is explained', async ({
    page,
  }) => {
    await openFromTree(page, 'certificate');
    const grid = page.getByRole('grid', { name: 'Certificates in all namespaces' });
    for (const column of ['Name', 'Namespace', 'Status', 'Ready', 'Secret', 'Age']) {
      await expect(grid.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
    }
    // Priority-1 columns (Issuer, the Ready message) are for the detail, not the list.
    await expect(grid.getByRole('columnheader', { name: 'Issuer' })).toHaveCount(0);
    const failing = grid.locator('.vt-body tr').filter({ hasText: 'grafana-tls' });
    await expect(failing).toContainText('Not ready (DoesNotExist)');
    await expect(failing).toContainText('False');
    await expect(grid.locator('.vt-body tr').filter({ hasText: 'shop-tls' })).toContainText('True');
    await screenshot(page, 'certificates');

    await openRow(page, 'grafana-tls');
    const pane = page.getByTestId('detail-pane');
    await expect(pane.getByRole('heading', { name: 'grafana-tls', level: 2 })).toBeVisible();
    const explanation = pane.getByTestId('object-explanation');
    await expect(explanation.locator('[data-finding="Ready"]')).toContainText('DoesNotExist');
    await expect(explanation.locator('[data-finding="Ready"]')).toContainText(
      'Issuing certificate as Secret does not exist',
    );
    await expect(explanation.locator('[data-finding="Ready"] .guidance-title')).toBeVisible();
    // The summary has every printer column, the wide ones too.
    await expect(pane.locator('[data-section="columns"]')).toContainText('letsencrypt');
    await expect(pane.locator('[data-condition="Issuing"]')).toContainText('Failed');
    await expect(pane.locator('[data-section="spec"]')).toContainText('grafana.example.com');
    await screenshot(page, 'certificate-explained');
    await expectAccessible(page, 'a custom resource’s detail');
    await pane.getByRole('tab', { name: 'Events' }).click();
    await expect(pane.locator('.object-events')).toContainText('rateLimited');
    await pane.getByRole('tab', { name: 'YAML' }).click();
    await expect(pane.locator('.yaml-text')).toContainText('kind: Certificate');
  });

  test('a pod’s missing ConfigMap opens from Related, marked missing', async ({ page }) => {
    await openFromTree(page, 'pod', 'demo-broken');
    await openRow(page, 'failedmount');
    const pane = page.getByTestId('detail-pane');
    // The owners breadcrumb: Deployment › ReplicaSet › the pod.
    const owners = pane.getByRole('navigation', { name: 'Owners' });
    await expect(owners.getByRole('listitem')).toHaveCount(3);
    await expect(owners.getByRole('listitem').first()).toContainText('Deployment');
    await expect(owners.getByRole('listitem').nth(1)).toContainText('ReplicaSet');

    // The explanation's step names the ConfigMap, marked missing.
    const step = pane.locator('.guidance-checks li[data-ref]').filter({ hasText: 'app-config' }).first();
    await expect(step.getByText('missing', { exact: true })).toBeVisible();

    await pane.getByRole('tab', { name: 'Related' }).click();
    const related = pane.getByTestId('related');
    const uses = related.locator('[data-section="related-uses"]');
    const configMap = uses.locator('li').filter({ hasText: 'app-config' });
    await expect(configMap).toHaveAttribute('data-missing', 'true');
    await expect(configMap.getByText('missing', { exact: true })).toBeVisible();
    await expect(configMap).toContainText('spec.volumes[config]');
    await screenshot(page, 'pod-related');
    await expectAccessible(page, 'the Related tab');

    await configMap.getByRole('button', { name: /app-config/ }).click();
    await expect(pane.getByRole('heading', { name: 'app-config', level: 2 })).toBeVisible();
    await expect(pane.getByText('ConfigMap · demo-broken')).toBeVisible();
    await expect(pane.getByTestId('object-missing')).toContainText('does not exist');
  });

  test('every list of the nine shows Age, beside the detail pane too', async ({ page }) => {
    for (const [kind, heading] of [
      ['Nodes', 'Nodes'],
      ['pod', 'Pods in all namespaces'],
      ['deployment', 'Deployments in all namespaces'],
      ['daemonset', 'DaemonSets in all namespaces'],
      ['service', 'Services in all namespaces'],
    ] as const) {
      await openFromTree(page, kind);
      const grid = page.getByRole('grid', { name: heading });
      await expect(grid.getByRole('columnheader', { name: 'Age', exact: true })).toBeVisible();
    }
    await openFromTree(page, 'pod', 'shop');
    await openRow(page, 'frontend');
    const grid = page.getByRole('grid', { name: 'Pods in shop' });
    await expect(grid.getByRole('columnheader', { name: 'Age', exact: true })).toBeVisible();
    await expect(grid.locator('.vt-body tr').first().locator('time')).toHaveText(/^\d+[smhdy]/);
  });

  test('the palette jumps to a kind by short name and to an object by name prefix', async ({ page }) => {
    // Ctrl-K from anywhere; Escape closes it again.
    await page.keyboard.press('Control+k');
    const input = page.getByRole('combobox', { name: 'Kind or object name' });
    const options = page.getByRole('listbox', { name: 'Matches' }).getByRole('option');
    await expect(input).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(input).toHaveCount(0);

    // ":" as in k9s, then a short name.
    await page.getByRole('tree').locator('[data-tree-id="kind:pod"]').click();
    await page.keyboard.press(':');
    await expect(input).toBeFocused();
    await input.fill('cm');
    await expect(options.first()).toContainText('ConfigMaps');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: /^ConfigMaps in / })).toBeVisible();
    await expect(input).toHaveCount(0);

    // ":" typed into a field is a colon, not the palette.
    const selector = page.getByLabel('Label selector');
    await selector.fill('app');
    await selector.press(':');
    await expect(selector).toHaveValue('app:');
    await expect(input).toHaveCount(0);

    // An object by the start of its name, across kinds and namespaces.
    await page.getByRole('button', { name: /^Go to/ }).click();
    await input.fill('grafana');
    for (const kind of ['Deployment', 'Service', 'Pod']) {
      await expect(options.filter({ hasText: kind }).filter({ hasText: 'grafana' }).first()).toBeVisible();
    }
    await screenshot(page, 'palette');
    await expectAccessible(page, 'the palette');
    await options.filter({ hasText: 'Service' }).filter({ hasText: 'grafana' }).click();
    const pane = page.getByTestId('detail-pane');
    await expect(pane.getByRole('heading', { name: 'grafana', level: 2 })).toBeVisible();
    await expect(pane.getByText('Service · monitoring')).toBeVisible();
    await expect(page.getByRole('heading', { name: /^Services in / })).toBeVisible();

    // kind/name narrows the search to one kind, a custom resource's by its short name too.
    await page.keyboard.press('Control+k');
    await input.fill('cert/graf');
    await expect(options).toHaveCount(1);
    await expect(options.first()).toContainText('Certificate');
    await expect(options.first()).toContainText('grafana-tls');
    await page.keyboard.press('Enter');
    await expect(pane.getByRole('heading', { name: 'grafana-tls', level: 2 })).toBeVisible();
    await expect(page.getByRole('heading', { name: /^Certificates in / })).toBeVisible();
  });
});
