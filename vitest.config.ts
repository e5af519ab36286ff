import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Playwright specs live in e2e/ and must never be collected by Vitest.
    include: [
      'src-*/**/*.test.ts',
      'src-*/**/*.test.tsx',
      'packages/*/src/**/*.test.ts',
      'deploy/**/*.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Builds the service once and gives the run its own temp dir, failing the run when a test file
    // leaves anything in it (test/setup/vitest.global-setup.ts).
    globalSetup: ['./test/setup/vitest.global-setup.ts'],
    setupFiles: ['./test/setup/vitest.tmpdir-per-file.ts'],
  },
});
