import { type DemoKube, demoKube } from './demo-kube';
import { apiLogin, expect, expectAccessible, login, type Service, screenshot, test } from './fixtures';

/**
 * The History tab (issue 27) against the demo cluster: a deployment is edited twice through the
 * cluster's own API (`kubectl replace`, demo-kube.ts) after Skiff began recording its kind, and its
 * History lists both changes, diffs two versions, and shows one as it was. Waits are for states.
 */

const PAYMENTS = '/apis/apps/v1/namespaces/shop/deployments/payments';
const FRONTEND = '/apis/apps/v1/namespaces/shop/deployments/frontend';
const FRONTEND_HISTORY =
  '/v1/workspaces/default/observability/demo/history/namespaces/shop/deployment/frontend';

/**
 * Waits until Skiff records deployments: once a kind's first list is in, the recorder takes the
 * cluster's lease and reconciles before it records (a change in between is folded into the version
 * first recorded). Another deployment (frontend) is touched, an annotation at a time, until its
 * history shows a change; payments' own history is left to the test.
 */
async function untilDeploymentsRecorded(service: Service, kube: DemoKube): Promise<void> {
  const { accessToken } = await apiLogin(service.url);
  let probe = 0;
  await expect
    .poll(
      async () => {
        const frontend = await kube.get<{ metadata: { annotations?: Record<string, string> } }>(FRONTEND);
        frontend.metadata.annotations = {
          ...frontend.metadata.annotations,
          'e2e.skiff.dev/probe': String(++probe),
        };
        await kube.put(FRONTEND, frontend);
        const res = await fetch(`${service.url}${FRONTEND_HISTORY}`, {
          headers: { authorization: `Bearer ${accessToken}` },
        });
        return res.status === 200 ? Number(res.headers.get('x-total')) : -res.status;
      },
      { timeout: 45_000, intervals: [500, 1_000, 2_000] },
    )
    .toBeGreaterThan(0);
}

interface Deployment {
  metadata: { resourceVersion: string };
  spec: { replicas: number; template: { spec: { containers: Array<{ name: string; image: string }> } } };
}

test('a deployment edited twice: its History lists the changes, diffs two versions and shows one as it was', async ({
  page,
  service,
}) => {
  // The list refreshes every 10 s, on a shared, busy machine: more than the default minute in all.
  test.setTimeout(120_000);
  const kube = await demoKube(service);
  // Opening the deployment reads its kind: with --record-changes viewed (the default), Skiff
  // records deployments from then on, its first sight of each being the version first recorded.
  await login(
    page,
    '#ws=default&cl=demo&area=resources&kind=deployment&ns=shop&sel=deployment/shop/payments',
  );
  const pane = page.getByTestId('detail-pane');
  await expect(pane.getByRole('heading', { name: 'payments', level: 2 })).toBeVisible();
  await expect(page.locator('.vt-body tr').filter({ hasText: 'payments' })).toHaveCount(1);
  await untilDeploymentsRecorded(service, kube);

  const before = await kube.get<Deployment>(PAYMENTS);
  const image = before.spec.template.spec.containers[0]!.image;
  const newImage = image.replace(/:[^:]*$/, ':1.15.0');
  const edited = structuredClone(before);
  edited.spec.template.spec.containers[0]!.image = newImage;
  await kube.put(PAYMENTS, edited);
  // Both edits reach Skiff's watch in order; the second is made on the first's answer.
  const second = await kube.get<Deployment>(PAYMENTS);
  second.spec.replicas = before.spec.replicas + 2;
  await kube.put(PAYMENTS, second);

  await pane.getByRole('tab', { name: 'History' }).click();
  const table = pane.getByRole('table', { name: 'Recorded changes' });
  const rows = table.locator('tbody tr');
  // The list refreshes while the tab is open. The rows are found by what they say, newest first:
  // whatever else changes the deployment (a controller's status write) may add rows of its own.
  const scaled = rows.filter({ hasText: `replicas ${before.spec.replicas} → ${before.spec.replicas + 2}` });
  const reimaged = rows.filter({ hasText: '1.15.0' });
  const firstRecorded = table.locator('tbody tr[data-change="first-recorded"]');
  await expect(scaled).toHaveCount(1, { timeout: 45_000 });
  await expect(scaled).toContainText('updated');
  await expect(reimaged).toHaveCount(1);
  await expect(firstRecorded).toHaveCount(1);
  await expect(rows.last()).toHaveAttribute('data-change', 'first-recorded');
  const order = await rows.evaluateAll((trs) => trs.map((tr) => tr.textContent ?? ''));
  expect(order.findIndex((t) => t.includes('replicas'))).toBeLessThan(
    order.findIndex((t) => t.includes('1.15.0')),
  );

  // One change as its own diff.
  await scaled.getByRole('button', { name: /^What changed at / }).click();
  const diff = pane.getByTestId('history-diff');
  await expect(diff.locator('.diff-entry')).toHaveCount(1);
  await expect(diff.locator('.diff-entry')).toContainText('spec.replicas');
  await expect(diff.locator('del')).toContainText(String(before.spec.replicas));
  await expect(diff.locator('ins')).toContainText(String(before.spec.replicas + 2));
  await expect(page).toHaveURL(/tab=history&to=/);

  // Two versions picked: from the version first recorded to the one the second edit made, both edits.
  await firstRecorded.getByRole('radio', { name: 'Compare from the version first recorded' }).check();
  await scaled.getByRole('radio', { name: /^Compare to the version of / }).check();
  await expect(pane.getByRole('region', { name: /^Changes from .* to / })).toBeVisible();
  const entries = diff.locator('.diff-entry');
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0).locator('.diff-path')).toHaveText('spec.replicas');
  await expect(entries.nth(1).locator('.diff-path')).toHaveText(
    `spec.template.spec.containers[${before.spec.template.spec.containers[0]!.name}].image`,
  );
  await expect(entries.nth(1).locator('del')).toContainText(image);
  await expect(entries.nth(1).locator('ins')).toContainText(newImage);
  await expect(page).toHaveURL(/tab=history&from=.*&to=/);
  await expectAccessible(page, 'the History tab with a diff');
  await screenshot(page, 'history-diff');

  // The link survives a reload (the session does, through its refresh cookie): the same diff opens from the address.
  await page.reload();
  await expect(page.getByTestId('history-diff').locator('.diff-entry')).toHaveCount(2);

  // The version the image edit made, as it was: the new image, the old replica count.
  await reimaged.getByRole('button', { name: /^Show as it was at / }).click();
  const was = page.getByTestId('history-as-it-was');
  await expect(was).toContainText(`image: ${newImage}`);
  await expect(was).toContainText(`replicas: ${before.spec.replicas}`);
  await expect(page).toHaveURL(/tab=history&at=/);
});
