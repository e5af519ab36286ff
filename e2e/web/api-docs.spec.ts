import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from '@playwright/test';
import { expect, login, test } from './fixtures';

/**
 * The API reference at /v1/docs (static HTML the service renders from its OpenAPI document,
 * src-main/service/openapi/docs-page.ts): it renders from the service alone, offline, under the
 * service's own CSP, with no axe violation of any impact in either colour scheme, and Settings
 * links to it. Reading it needs no login. Its load time is in the bench, not here.
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

/**
 * Every axe violation, of any impact, as lines naming the rule and the first elements. `only`
 * narrows the run to some rules (a colour scheme changes colours and nothing else).
 */
async function axeViolations(page: Page, only?: string[]): Promise<string[]> {
  const axe = new AxeBuilder({ page });
  if (only) axe.withRules(only);
  else axe.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']);
  const results = await axe.analyze();
  return results.violations.map(
    (v) =>
      `${v.impact} ${v.id} (${v.nodes.length}): ${v.help}\n  ${v.nodes
        .slice(0, 5)
        .map((n) => n.target.join(' '))
        .join('\n  ')}`,
  );
}

const operation = (page: Page, method: string, path: string) =>
  page.locator(`section.op[data-method="${method}"][data-path="${path}"]`);

test.describe('API reference', () => {
  test('/v1/docs renders the operations from the service alone, with no console error or CSP violation', async ({
    page,
    baseURL,
  }) => {
    const seen = await watch(page.context());
    const res = await page.goto(`${baseURL}/v1/docs`);
    expect(res?.status()).toBe(200);
    await expect(page).toHaveTitle('Skiff API reference');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Skiff');

    // The events list, with its filters and paging.
    const events = operation(page, 'get', EVENTS_PATH);
    await expect(events).toHaveCount(1);
    const params = events.locator('table').first();
    for (const name of ['since', 'until', 'includeExpired', 'limit', 'offset', 'namespace', 'reason']) {
      await expect(params.locator(`tr[data-param-name="${name}"]`), name).toHaveCount(1);
    }
    await expect(params.locator('tr[data-param-name="since"]')).toContainText('duration');
    // Its timeline and groups are there too, and many more.
    for (const path of [`${EVENTS_PATH}/timeline`, `${EVENTS_PATH}/groups`, '/v1/health']) {
      await expect(operation(page, 'get', path), path).toHaveCount(1);
    }
    expect(await page.locator('section.op').count()).toBeGreaterThan(30);
    // The side list leads to each operation.
    await page.getByRole('navigation', { name: 'Operations' }).locator('a[href="#op-health"]').click();
    await expect(page).toHaveURL(/#op-health$/);
    await expect(operation(page, 'get', '/v1/health')).toBeInViewport();
    await expectClean(page, seen);
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`/v1/docs has no axe violation of any impact (${scheme})`, async ({ page, baseURL }) => {
      // axe checks every one of the page's thousands of elements; on a busy machine that takes minutes.
      // Light: every rule; dark: the contrast rules, all that a colour scheme changes.
      test.setTimeout(300_000);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${baseURL}/v1/docs`);
      await expect(page.locator('section.op').first()).toBeVisible();
      const rules = scheme === 'dark' ? ['color-contrast'] : undefined;
      expect(await axeViolations(page, rules), `axe violations on /v1/docs (${scheme})`).toEqual([]);
    });
  }

  test('Settings links to the API reference, which opens in a new tab', async ({ page, baseURL }) => {
    const seen = await watch(page.context());
    await login(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    const link = page.getByRole('link', { name: 'API reference (OpenAPI)' });
    await expect(link).toHaveAttribute('href', `${baseURL}/v1/docs`);
    await expect(link).toHaveAttribute('target', '_blank');
    const [docs] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await expect(docs).toHaveTitle('Skiff API reference');
    await expect(operation(docs, 'get', EVENTS_PATH)).toHaveCount(1);
    await expectClean(docs, seen);
  });
});
