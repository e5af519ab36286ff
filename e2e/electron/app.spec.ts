import { existsSync } from 'node:fs';
import { _electron as electron, expect, test } from '@playwright/test';
import { electronProblem } from '../../scripts/electron-binary.mjs';

/**
 * Desktop e2e: launch, window security settings and an IPC round trip. It needs the Electron
 * binary and a display, which this CI machine has neither of; there it reports itself skipped and
 * says why, and it runs wherever Electron can start.
 */
function electronUnavailable(): string | null {
  const problem = electronProblem();
  if (problem) return problem;
  if (!existsSync('out/main/index.js')) return 'the app is not built (run electron-vite build)';
  return null;
}

const reason = electronUnavailable();

test.describe('desktop app', () => {
  test.skip(reason !== null, `Electron e2e skipped: ${reason}`);

  test('launches one locked-down window and answers over IPC', async () => {
    const app = await electron.launch({
      args: ['.'],
      env: { ...process.env, SKIFF_ADMIN_PASSWORD: 'electron-e2e-pass' },
    });
    try {
      const page = await app.firstWindow();
      // Served from the app's own scheme, not file:// (Electron security checklist, item 18).
      await page.waitForLoadState('domcontentloaded');
      expect(page.url()).toMatch(/^app:\/\/skiff\/index\.html/);
      expect(await page.evaluate(() => window.location.origin)).toBe('app://skiff');
      const icon = await page.evaluate(async () => {
        const href = document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href ?? '';
        const res = await fetch(href);
        return { href, status: res.status, type: res.headers.get('content-type') };
      });
      expect(icon).toMatchObject({ status: 200, type: 'image/svg+xml' });
      expect(icon.href).toMatch(/^app:\/\/skiff\//);
      // Security settings, observed from the page: no Node (nodeIntegration off, sandbox on), and
      // only the frozen bridge crosses the isolated world (contextIsolation on).
      const seen = await page.evaluate(() => {
        const w = window as unknown as Record<string, unknown>;
        return {
          require: typeof w.require,
          process: typeof w.process,
          ipcRenderer: typeof w.ipcRenderer,
          bridgeFrozen: Object.isFrozen(w.skiff),
          csp:
            document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ??
            '',
        };
      });
      expect(seen).toMatchObject({
        require: 'undefined',
        process: 'undefined',
        ipcRenderer: 'undefined',
        bridgeFrozen: true,
      });
      expect(seen.csp).toContain("script-src 'self'");
      expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
      const health = await page.evaluate(() =>
        (window as unknown as { skiff: { health(i: unknown): Promise<unknown> } }).skiff.health({
          params: {},
        }),
      );
      expect(health).toMatchObject({ ok: true, data: { status: 'ok' } });
      const opened = await page.evaluate(() => window.open('https://example.com/'));
      expect(opened).toBeNull();
      expect(app.windows()).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
