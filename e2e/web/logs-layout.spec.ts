import { DEMO_PODS } from '@skiff/kube-simulator';
import { expect, logScreenRows, openLogs, test } from './fixtures';

/**
 * Logs in the detail pane at 1,024 and 1,280 px: the toolbar is one row, a full-height view gives
 * the terminal most of the window (and Escape leaves it without closing the pane), and JSON lines
 * wrap by default, so a line is read whole without scrolling sideways; the person can still turn
 * wrapping off.
 */

/**
 * The first JSON line that starts on screen, read from its first screen row through the row that
 * closes it; null when no JSON line starts on screen or none is closed (cut at the edge).
 */
function firstJsonLine(rows: string[]): { text: string; rows: number } | null {
  const start = rows.findIndex((r) => r.startsWith('{"'));
  if (start < 0) return null;
  let text = '';
  for (let i = start; i < rows.length; i++) {
    text += rows[i];
    if (rows[i]!.trimEnd().endsWith('}')) {
      try {
        JSON.parse(text);
        return { text, rows: i - start + 1 };
      } catch {
        return null;
      }
    }
  }
  return null;
}

for (const width of [1024, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
    });

    test('the toolbar is one row and the full-height view gives the terminal most of the window', async ({
      page,
    }) => {
      await openLogs(page, DEMO_PODS.crashLoop);
      const toolbar = page.locator('.log-toolbar');
      const button = page.getByTestId('log-expand');
      // One row: no taller than its tallest control (plus a thin sideways scrollbar).
      const rowHeight = (await button.boundingBox())!.height;
      expect((await toolbar.boundingBox())!.height).toBeLessThanOrEqual(rowHeight + 16);
      await expect(button).toBeInViewport({ ratio: 1 });

      await button.click();
      await expect(page.getByTestId('log-viewer')).toHaveClass(/log-viewer-expanded/);
      const viewport = page.viewportSize()!;
      const terminal = page.getByTestId('log-terminal');
      await expect
        .poll(async () => (await terminal.boundingBox())!.height / viewport.height)
        .toBeGreaterThanOrEqual(0.7);
      // All of it inside the window: nothing of the view hangs below the bottom edge.
      const t = (await terminal.boundingBox())!;
      expect(t.y + t.height).toBeLessThanOrEqual(viewport.height);
      const v = (await page.getByTestId('log-viewer').boundingBox())!;
      expect(v.y + v.height).toBeLessThanOrEqual(viewport.height);
      expect(v.x + v.width).toBeLessThanOrEqual(viewport.width);
      // Below the header, not over it.
      const header = (await page.locator('.app-header').boundingBox())!;
      expect(v.y).toBeGreaterThanOrEqual(header.y + header.height);
      await expect(page.getByTestId('log-status')).toBeInViewport({ ratio: 1 });

      // Escape leaves full height and only that: the pane stays open.
      await terminal.click();
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('log-viewer')).not.toHaveClass(/log-viewer-expanded/);
      await expect(page.getByTestId('detail-pane')).toBeVisible();
      await expect(button).toHaveAttribute('aria-pressed', 'false');
    });

    test('a JSON line wraps by default and is read whole; wrapping can still be turned off', async ({
      page,
    }) => {
      await openLogs(page, DEMO_PODS.checkout);
      await page.getByTestId('log-follow').uncheck();
      await expect(page.getByTestId('log-stream-status')).toHaveText('Complete');
      await expect(page.getByTestId('log-wrap')).toBeChecked();
      // Whole: its first row through its closing brace parse as one JSON object, over several rows.
      await expect.poll(async () => firstJsonLine(await logScreenRows(page))?.rows ?? 0).toBeGreaterThan(1);

      await page.getByTestId('log-wrap').uncheck();
      await expect.poll(async () => firstJsonLine(await logScreenRows(page))).toBeNull();
      await page.getByTestId('log-wrap').check();
      await expect.poll(async () => firstJsonLine(await logScreenRows(page))?.rows ?? 0).toBeGreaterThan(1);
    });
  });
}
