import { ADMIN, apiLogin, expect, expectAccessible, login, test } from './fixtures';

/**
 * The usage charts (issue 27 §2) against the demo cluster, sampled every 2 s in the e2e
 * (SKIFF_USAGE_INTERVAL, fixtures.ts): the OOM-killed pod's details draw CPU and memory with its
 * request and limit lines and mark its OOM kill; a node's draw allocatable and capacity. Waits
 * are for states: the charts fill once Skiff has sampled the cluster it was just asked about.
 */

interface PodItem {
  resource: {
    metadata: { name: string; namespace: string };
    status?: { containerStatuses?: { lastState?: { terminated?: { reason?: string } } }[] };
  };
}

async function oomKilledPod(baseURL: string): Promise<{ namespace: string; name: string }> {
  const { accessToken } = await apiLogin(baseURL);
  const res = await fetch(
    `${baseURL}/v1/workspaces/default/observability/demo/kubernetes-proxy/pod?limit=1000`,
    {
      headers: { authorization: `Bearer ${accessToken}` },
    },
  );
  expect(res.status).toBe(200);
  const pods = (await res.json()) as PodItem[];
  const pod = pods.find((p) =>
    p.resource.status?.containerStatuses?.some((s) => s.lastState?.terminated?.reason === 'OOMKilled'),
  );
  if (!pod) throw new Error('the demo has no OOM-killed pod');
  return { namespace: pod.resource.metadata.namespace, name: pod.resource.metadata.name };
}

test('an OOM-killed pod: CPU and memory over time, with its request and limit lines and the kill marked', async ({
  page,
  service,
}) => {
  expect(ADMIN.username).toBeTruthy();
  const pod = await oomKilledPod(service.url);
  await login(
    page,
    `#ws=default&cl=demo&area=resources&kind=pod&ns=${pod.namespace}&sel=pod/${pod.namespace}/${pod.name}`,
  );
  const section = page.getByTestId('usage-history');
  await section.scrollIntoViewIfNeeded();
  const memory = section.getByTestId('usage-memory');
  const cpu = section.getByTestId('usage-cpu');
  // The first samples arrive within a few intervals; the section refreshes on its own, or when the
  // range changes, which fetches at once.
  await expect(async () => {
    await page.getByLabel('Time range').selectOption('6h');
    await page.getByLabel('Time range').selectOption('1h');
    await expect(memory).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
  await expect(cpu.getByRole('img')).toHaveAttribute(
    'aria-label',
    /^CPU over time: \d+ samples?, latest Used \d+m; request 200m, limit 1\.$/,
  );
  // The demo pod is OOM-killed again as the shared service's simulator runs on: at least its first
  // kill is marked, and the canvas draws exactly the kills the label counts.
  const memoryImage = memory.getByRole('img');
  await expect(memoryImage).toHaveAttribute(
    'aria-label',
    /^Memory over time: \d+ samples?, latest Used [\d.]+Mi; request 128Mi, limit 256Mi; [1-9]\d* OOM kills? marked\.$/,
  );
  await expect(async () => {
    const label = (await memoryImage.getAttribute('aria-label')) ?? '';
    const kills = /; (\d+) OOM kills? marked\.$/.exec(label)?.[1];
    expect(kills).toBeDefined();
    await expect(memory.locator('.uplot')).toHaveAttribute('data-markers', kills!, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  // The kill is listed in words.
  await expect(memory.getByTestId('usage-memory-oom')).toContainText('OOMKilled at');
  await expect(cpu.locator('.uplot')).toHaveAttribute('data-markers', '0');
  // The key names every line with its figure.
  await expect(memory.locator('.usage-key')).toContainText('limit 256Mi');
  await expectAccessible(page, 'the pod details with usage charts');
});

test('a node: usage over time with allocatable and capacity lines', async ({ page }) => {
  await login(page, '#ws=default&cl=demo&area=resources&kind=node');
  const first = page.locator('.vt-body tr').first();
  await first.click();
  const section = page.getByTestId('usage-history');
  await section.scrollIntoViewIfNeeded();
  const memory = section.getByTestId('usage-memory');
  await expect(async () => {
    await page.getByLabel('Time range').selectOption('6h');
    await page.getByLabel('Time range').selectOption('1h');
    await expect(memory).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
  await expect(section.getByTestId('usage-cpu').getByRole('img')).toHaveAttribute(
    'aria-label',
    /^CPU over time: \d+ samples?, latest Used [\d.]+m?; Allocatable [\d.]+m?, Capacity [\d.]+m?\.$/,
  );
  await expect(memory.locator('.usage-key')).toContainText('Capacity');
});
