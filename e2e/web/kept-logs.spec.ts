import { DEMO_PODS } from '@skiff/kube-simulator';
import { demoKube } from './demo-kube';
import { expect, expectAccessible, login, test } from './fixtures';

/**
 * The logs of dead containers (issue 27 §3): the demo's crash-looping pod has ended runs, whose
 * last lines Skiff keeps once the cluster is viewed; its Logs tab lists them under "Earlier runs
 * kept by Skiff", and once the pod is deleted (and the kubelet's logs with it) its pane still lists
 * them and opens one to read. The pod is put back afterwards: other specs use it.
 */

const { namespace, name } = DEMO_PODS.crashLoop;
const POD_PATH = `/api/v1/namespaces/${namespace}/pods/${name}`;
const hash = `#ws=default&cl=demo&area=resources&kind=pod&ns=${namespace}&sel=pod/${namespace}/${name}&tab=logs`;

test.describe('kept logs', () => {
  test('a deleted pod’s earlier runs are listed and read from what Skiff kept', async ({ page, service }) => {
    const kube = await demoKube(service);
    await login(page, hash);
    await expect(page.getByTestId('log-viewer')).toBeVisible();
    const kept = page.getByTestId('kept-runs');
    await expect(kept.getByRole('heading', { name: 'Earlier runs kept by Skiff' })).toBeVisible();
    await expect(kept.getByTestId('kept-run').first()).toContainText('Error (exit 1)');

    const saved = await kube.get<{ metadata: Record<string, unknown> }>(POD_PATH);
    await kube.delete(POD_PATH);
    try {
      // The pane notices the pod is gone, and the kept runs stay listed in its place.
      await expect(page.getByTestId('object-missing')).toBeVisible({ timeout: 30_000 });
      const run = page.getByTestId('kept-runs').getByTestId('kept-run').first();
      await expect(run).toBeVisible();
      const count = Number(/(\d+) lines?/.exec((await run.textContent()) ?? '')?.[1] ?? 0);
      expect(count).toBeGreaterThan(0);
      await run.click();
      await expect(run).toHaveAttribute('aria-pressed', 'true');
      const lines = page.getByTestId('kept-run-lines');
      await expect(lines).not.toHaveText('Loading…');
      await expect
        .poll(async () => ((await lines.textContent()) ?? '').trimEnd().split('\n').length)
        .toBe(count);
      await expectAccessible(page, 'the kept runs of a deleted pod');

      // A reload reads them again from the service: nothing came from the page's memory.
      await page.reload();
      await expect(page.getByTestId('kept-runs').getByTestId('kept-run').first()).toBeVisible();
    } finally {
      const { uid: _uid, resourceVersion: _rv, creationTimestamp: _ct, ...metadata } = saved.metadata;
      await kube.post(`/api/v1/namespaces/${namespace}/pods`, { ...saved, metadata });
    }
  });
});
