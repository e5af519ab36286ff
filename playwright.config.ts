import { defineConfig } from '@playwright/test';

/**
 * Web-mode e2e runs in Debian's Chromium (no browser download is possible here). Electron e2e lives
 * in e2e/electron and skips itself, with the reason, where no Electron binary exists. No test
 * asserts a duration: timing belongs in `npm run bench`.
 */
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  // The machine is shared and often busy: an assertion waits for its state this long before it
  // fails (Playwright's default is 5 s, which a loaded machine outlasted).
  expect: { timeout: 15_000 },
  workers: 1,
  reporter: [['list'], ['./e2e/skip-reasons-reporter.ts']],
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
