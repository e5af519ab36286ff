import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Playwright specs live in e2e/ and must never be collected by Vitest.
    include: ['src-*/**/*.test.ts', 'src-*/**/*.test.tsx'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    globalSetup: ['./vitest.global-setup.ts'],
  },
});
