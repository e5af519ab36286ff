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
    // Two files at a time even on two cores (Vitest's default there is one): most files wait on
    // sockets, simulators and PostgreSQL rather than compute, and one at a time took CI from 14
    // to 27 minutes as the suite grew. The tests wait for states, never for times, so sharing the
    // machine is what they are written for.
    maxWorkers: 2,
    // Builds the service once and gives the run its own temp dir, failing the run when a test file
    // leaves anything in it (test/setup/vitest.global-setup.ts).
    globalSetup: ['./test/setup/vitest.global-setup.ts'],
    setupFiles: ['./test/setup/vitest.tmpdir-per-file.ts'],
  },
});
