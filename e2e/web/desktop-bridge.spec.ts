import type { Page } from '@playwright/test';
import { operations } from '../../src-shared/contract/operations';
import { ADMIN, apiLogin, expect, test } from './fixtures';
import { fakeBrokenWatch } from './stale-route';

/**
 * The renderer in desktop mode, driven in Chromium: a stand-in for the preload's bridge (one
 * method per contract operation, IpcOutcome results) forwards to the service over HTTP with the
 * "window's" own session, as the main process would over IPC. No Electron is needed to check that
 * the UI works without a login page and recovers when this device is logged out elsewhere.
 */
const routes = Object.fromEntries(
  Object.entries(operations).map(([name, op]) => [name, { method: op.method, path: op.path }]),
);

/** Installs the stand-in bridge, signed in as `token`, before the page's own scripts run. */
async function installBridge(page: Page, token: string): Promise<void> {
  await page.addInitScript(
    ({ routes, token, admin }) => {
      let access = token;
      const call = async (
        name: string,
        input: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown },
      ) => {
        const route = routes[name]!;
        const path = route.path.replace(/:([A-Za-z]+)/g, (_m: string, k: string) =>
          encodeURIComponent(input.params?.[k] ?? ''),
        );
        const url = new URL(path, window.location.origin);
        for (const [k, v] of Object.entries(input.query ?? {}))
          if (v !== undefined && v !== '') url.searchParams.set(k, v);
        const headers: Record<string, string> = { authorization: `Bearer ${access}` };
        if (input.body !== undefined) headers['content-type'] = 'application/json';
        const res = await fetch(url, {
          method: route.method,
          headers,
          ...(input.body !== undefined ? { body: JSON.stringify(input.body) } : {}),
        });
        const body = res.status === 204 ? null : await res.json();
        if (!res.ok) return { ok: false, problem: body };
        const total = res.headers.get('x-total');
        // As ipc-handlers.ts maps a reply: paging and staleness beside the data, never headers.
        const staleSince = res.headers.get('x-stale-since');
        return {
          ok: true,
          data: body,
          ...(total === null
            ? {}
            : {
                page: {
                  total: Number(total),
                  limit: Number(res.headers.get('x-limit')),
                  offset: Number(res.headers.get('x-offset')),
                },
              }),
          ...(staleSince === null ? {} : { staleSince }),
        };
      };
      const bridge: Record<string, (input: never) => Promise<unknown>> = {};
      for (const name of Object.keys(routes)) bridge[name] = (input) => call(name, input);
      Object.assign(window, {
        skiff: Object.freeze(bridge),
        skiffDesktop: Object.freeze({
          renewSession: async () => {
            const res = await fetch('/v1/auth/login', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(admin),
            });
            access = ((await res.json()) as { accessToken: string }).accessToken;
            return { ok: true, data: null };
          },
        }),
      });
    },
    { routes, token, admin: ADMIN },
  );
}

test('desktop mode: no login page, and a device logged out elsewhere signs in again with one click', async ({
  page,
  baseURL,
}) => {
  const device = await apiLogin(baseURL!, 'Skiff-desktop-standin');
  await installBridge(page, device.accessToken);

  await page.goto('/#ws=default&cl=demo&area=resources&kind=pod&ns=shop');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByLabel('Username')).toHaveCount(0);
  await expect(page.locator('.vt-body tr').first()).toBeVisible();

  // Another device ends this one's session; the window's next call is refused.
  const other = await apiLogin(baseURL!, 'curl/8.5.0');
  const out = await fetch(`${baseURL}/v1/auth/sessions/${device.sessionId}/logout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${other.accessToken}` },
  });
  expect(out.status).toBe(200);
  const again = page.getByRole('button', { name: 'Sign this device in again' });
  await expect(again).toBeVisible({ timeout: 15_000 });
  await again.click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.locator('.vt-body tr').first()).toBeVisible();
});

test('desktop mode: a stale IPC outcome shows the same banner, and it goes when answers are fresh', async ({
  page,
  baseURL,
}) => {
  const device = await apiLogin(baseURL!, 'Skiff-desktop-standin');
  await installBridge(page, device.accessToken);
  const watch = await fakeBrokenWatch(page);
  await page.goto('/#ws=default&cl=demo&area=resources&kind=pod&ns=shop');
  const list = page.getByTestId('resource-list');
  await expect(list.locator('.vt-body tr').first()).toBeVisible();
  await expect(page.getByTestId('stale-banner')).toHaveCount(0);

  watch.since = new Date(Date.now() - 60_000).toISOString();
  const banner = list.getByTestId('stale-banner');
  await expect(banner).toContainText(/^Data as of \d\d:\d\d, cluster unreachable/, { timeout: 15_000 });
  await expect(banner.locator('time')).toHaveAttribute('datetime', watch.since);

  watch.since = null;
  await expect(banner).toHaveCount(0, { timeout: 15_000 });
});
