import type { BrowserContext, Page } from '@playwright/test';
import { expect, login, test } from './fixtures';

/**
 * The API reference at /v1/docs (Swagger UI bundled with the service, src-main/service/openapi/
 * serve-docs.ts): it renders from the service alone, offline, under the service's own CSP, and
 * Settings links to it. Reading it needs no login and no "Try it out".
 */

const EVENTS_PATH = '/v1/workspaces/{workspaceId}/observability/{clusterId}/kubernetes-events';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

interface Watched {
  /** Requests to any host but loopback, from any page: refused, and listed here. */
  offHost: string[];
  /** Console errors and uncaught errors of the reference page(s). */
  consoleErrors: string[];
  pageErrors: string[];
}

const isDocs = (page: Page | null) => page !== null && new URL(page.url()).pathname.startsWith('/v1/docs');

/**
 * For the whole browser context (so a page opened from a link is covered from its first request):
 * refuses and records every request that would leave loopback, and records the reference page's
 * console errors (Chromium reports CSP violations there too) and uncaught errors. Each page also
 * collects its `securitypolicyviolation` events, read by expectClean.
 */
async function watch(context: BrowserContext): Promise<Watched> {
  const seen: Watched = { offHost: [], consoleErrors: [], pageErrors: [] };
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if ((url.protocol === 'http:' || url.protocol === 'https:') && !LOOPBACK.has(url.hostname)) {
      seen.offHost.push(url.href);
      await route.abort('blockedbyclient');
      return;
    }
    await route.continue();
  });
  await context.addInitScript(() => {
    const found: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = found;
    document.addEventListener('securitypolicyviolation', (e) =>
      found.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  context.on('console', (m) => {
    if (m.type() === 'error' && isDocs(m.page())) seen.consoleErrors.push(m.text());
  });
  context.on('weberror', (e) => {
    if (isDocs(e.page())) seen.pageErrors.push(e.error().message);
  });
  return seen;
}

async function expectClean(page: Page, seen: Watched): Promise<void> {
  const csp = await page.evaluate(
    () => (window as unknown as { cspViolations?: string[] }).cspViolations ?? ['no CSP listener ran'],
  );
  expect(seen.offHost, 'requests that left loopback').toEqual([]);
  expect(csp, 'CSP violations').toEqual([]);
  expect(seen.consoleErrors, 'console errors').toEqual([]);
  expect(seen.pageErrors, 'uncaught errors').toEqual([]);
}

test.describe('API reference', () => {
  test('/v1/docs renders the operations from the service alone, with no console error or CSP violation', async ({
    page,
    baseURL,
  }) => {
    const seen = await watch(page.context());
    const document = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/openapi.json');
    await page.goto(`${baseURL}/v1/docs`);
    expect((await document).status()).toBe(200);
    await expect(page).toHaveTitle('Skiff API reference');
    await expect(page.locator('.swagger-ui .info .title')).toContainText('Skiff');

    // The events list, with its filters and paging.
    const events = page
      .locator('.opblock.opblock-get')
      .filter({ has: page.locator(`.opblock-summary-path[data-path="${EVENTS_PATH}"]`) });
    await expect(events).toHaveCount(1);
    await events.locator('.opblock-summary').click();
    const params = events.locator('.parameters');
    await expect(params).toBeVisible();
    for (const name of ['since', 'until', 'includeExpired', 'limit', 'offset', 'namespace', 'reason']) {
      await expect(params.locator(`tr[data-param-name="${name}"]`), name).toHaveCount(1);
    }
    await expect(params.locator('tr[data-param-name="since"]')).toContainText('duration');
    // Its timeline and groups are there too, and many more.
    for (const path of [`${EVENTS_PATH}/timeline`, `${EVENTS_PATH}/groups`, '/v1/health']) {
      await expect(page.locator(`.opblock-summary-path[data-path="${path}"]`), path).toHaveCount(1);
    }
    expect(await page.locator('.opblock').count()).toBeGreaterThan(30);
    await expectClean(page, seen);
  });

  test('Settings links to the API reference, which opens in a new tab', async ({ page, baseURL }) => {
    const seen = await watch(page.context());
    await login(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    const link = page.getByRole('link', { name: 'API reference (OpenAPI)' });
    await expect(link).toHaveAttribute('href', `${baseURL}/v1/docs`);
    await expect(link).toHaveAttribute('target', '_blank');
    const [docs] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await expect(docs).toHaveTitle('Skiff API reference');
    await expect(docs.locator(`.opblock-summary-path[data-path="${EVENTS_PATH}"]`)).toHaveCount(1);
    await expectClean(docs, seen);
  });
});
