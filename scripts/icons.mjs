// Renders resources/icon.svg to the PNG sizes a Linux desktop asks for (hicolor theme sizes),
// in the same headless Chromium the web e2e use, so the PNGs are drawn by a real SVG renderer
// rather than approximated. Run after changing the SVG, and commit the PNGs:
//   npm run icons
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'resources', 'icon.svg');
const outDir = join(root, 'resources', 'icons');
const ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];

const svg = readFileSync(source);
const dataUrl = `data:image/svg+xml;base64,${svg.toString('base64')}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--force-color-profile=srgb'],
});
try {
  // deviceScaleFactor 1: one CSS pixel is one PNG pixel, so 16 means 16 × 16.
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  mkdirSync(outDir, { recursive: true });
  for (const size of ICON_SIZES) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:transparent">` +
        `<img id="icon" src="${dataUrl}" width="${size}" height="${size}" style="display:block"></body></html>`,
    );
    await page.locator('#icon').evaluate((img) => img.decode());
    const png = await page.screenshot({
      clip: { x: 0, y: 0, width: size, height: size },
      omitBackground: true,
    });
    const file = join(outDir, `${size}x${size}.png`);
    writeFileSync(file, png);
    console.log(`${relative(root, file)} (${png.length} bytes)`);
  }
} finally {
  await browser.close();
}
