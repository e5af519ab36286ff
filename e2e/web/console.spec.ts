import type { Page } from '@playwright/test';
import { ADMIN, expect, openFromTree, test } from './fixtures';

/**
 * A first visit, and the first minutes after a login, leave a clean console: no error logged,
 * no request that failed or answered 4xx/5xx. The page asks GET /v1/session whether it has a
 * session, which answers 200 either way, instead of trying a list and reading its 401.
 */

interface Trouble {
  console: string[];
  failed: string[];
  requests: string[];
}

function watch(page: Page): Trouble {
  const seen: Trouble = { console: [], failed: [], requests: [] };
  page.on('console', (msg) => {
    if (msg.type() === 'error') seen.console.push(msg.text());
  });
  page.on('pageerror', (err) => seen.console.push(`pageerror: ${err.message}`));
  page.on('requestfailed', (req) =>
    seen.failed.push(`${req.method()} ${req.url()}: ${req.failure()?.errorText}`),
  );
  page.on('response', (res) => {
    if (res.status() >= 400) seen.failed.push(`${res.request().method()} ${res.url()}: ${res.status()}`);
  });
  page.on('request', (req) => seen.requests.push(`${req.method()} ${new URL(req.url()).pathname}`));
  return seen;
}

test.describe('the console', () => {
  test('stays clean on a first visit and after logging in', async ({ page }) => {
    const seen = watch(page);
    const probe = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/session');
    await page.goto('/');
    expect((await probe).status()).toBe(200);
    expect(await (await probe).json()).toEqual({ authenticated: false });
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
    await page.waitForLoadState('networkidle');

    expect(seen.console, 'console errors before login').toEqual([]);
    expect(seen.failed, 'failed requests before login').toEqual([]);
    // Before a login the page asks about its session and which sign-ins to offer (a password, the
    // identity provider), and nothing else of the API.
    expect(seen.requests.filter((r) => r.includes('/v1/')).sort()).toEqual([
      'GET /v1/auth/methods',
      'GET /v1/session',
    ]);

    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByTestId('cluster-status')).toContainText('connected');
    await openFromTree(page, 'pod');
    await expect(page.getByTestId('resource-list')).toHaveAttribute('data-kind', 'pod');
    await expect(page.locator('.vt-body tr')).not.toHaveCount(0);
    await page.waitForLoadState('networkidle');

    expect(seen.console, 'console errors after login').toEqual([]);
    expect(seen.failed, 'failed requests after login').toEqual([]);
  });

  test('the favicon is the app icon, served as SVG and PNG', async ({ page, request }) => {
    await page.goto('/');
    const links = await page
      .locator('link[rel="icon"]')
      .evaluateAll((els) =>
        els.map((el) => ({ href: (el as HTMLLinkElement).href, type: el.getAttribute('type') })),
      );
    expect(links.map((l) => l.type).sort()).toEqual(['image/png', 'image/svg+xml']);
    for (const link of links) {
      const res = await request.get(link.href);
      expect({ href: link.href, status: res.status(), type: res.headers()['content-type'] }).toEqual({
        href: link.href,
        status: 200,
        type: link.type,
      });
    }
    const svg = await (await request.get(links.find((l) => l.type === 'image/svg+xml')!.href)).text();
    expect(svg).toContain('<title>Skiff</title>');
    const png = await (await request.get(links.find((l) => l.type === 'image/png')!.href)).body();
    // The PNG signature, then the IHDR width and height: 32 × 32.
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([32, 32]);
  });
});
