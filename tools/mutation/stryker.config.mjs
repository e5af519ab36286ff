// @ts-check
/**
 * StrykerJS for `npm run test:mutation` (issue 12): the Vitest suite, run against mutated copies of
 * the service and the shared contract. `npm run test:mutation` runs it once per batch of modules
 * (tools/mutation/batches.mjs, tools/mutation/run.mjs); `npx stryker run tools/mutation/stryker.config.mjs`
 * alone mutates everything against the whole suite, which does not finish in a day on two cores.
 * Not part of `npm test`. How to run it, read it and what survivors may stay: docs/mutation-testing.md.
 *
 * This file lives in tools/mutation/ (issue 24), not at the root, so Stryker does not find it on its
 * own: every run names it (`npx stryker run tools/mutation/stryker.config.mjs ...`), from the repo
 * root. Every path below is relative to the repo root, which is the working directory Stryker copies
 * into its sandbox and runs Vitest in; a run from anywhere else stops here with a message instead of
 * mutating the wrong tree.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repoRoot = realpathSync(fileURLToPath(new URL('../..', import.meta.url)));
if (realpathSync(process.cwd()) !== repoRoot) {
  throw new Error(
    `Run Stryker from the repo root (${repoRoot}), not ${process.cwd()}: its paths are relative to it.`,
  );
}

// A run limited with `--mutate` writes only the files it mutated, so it must not overwrite the
// full run's incremental baseline and report: the next full run would then re-test everything.
// SKIFF_MUTATION_REPORTS names another folder, so that two subset runs can go at once without one
// overwriting the other's incremental file (`npm run mutation:table` reads every folder).
const subset = process.argv.some((arg) => arg === '-m' || arg === '--mutate' || arg.startsWith('--mutate='));
const reportDir =
  process.env.SKIFF_MUTATION_REPORTS ?? (subset ? 'reports/mutation/subset' : 'reports/mutation');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  packageManager: 'npm',
  testRunner: 'vitest',
  vitest: {
    // The project's Vitest config, with a test order that lets a killed mutant stop early.
    configFile: 'tools/mutation/vitest.config.ts',
    // Only the test files whose imports reach a mutated module run at all; per-test coverage then
    // narrows each mutant to the tests that executed it.
    related: true,
    // The suite runs in forks (vitest.config.ts): servers, sockets and process-wide state.
    pool: 'forks',
  },
  coverageAnalysis: 'perTest',
  mutate: [
    'src-main/service/**/*.ts',
    'src-shared/**/*.ts',
    '!**/*.test.ts',
    // Test support (the integration harness, the fault proxy, the exec-plugin fixtures, the auth
    // tests' stack) is named *.test-support.ts wherever it lives (issue 24): test code, not product.
    '!**/*.test-support.ts',
    '!**/*.d.ts',
  ],
  // Code that only runs while a module loads (constants, the guidance tables) would need a fresh
  // process per mutant; mutants it covers outside any test are left out of the score instead.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: `${reportDir}/stryker-incremental.json`,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `${reportDir}/index.html` },
  jsonReporter: { fileName: `${reportDir}/mutation.json` },
  clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true },
  // One test process: the machine has two cores and is shared with benchmark runs.
  concurrency: 1,
  // Tests start a simulator and the service over loopback and run on a loaded machine. The slack is
  // above Vitest's own 20 s test timeout, so a mutant that hangs a request fails its test in Vitest
  // (a kill) instead of costing a test-process restart, which rebuilds the service.
  timeoutMS: 25_000,
  timeoutFactor: 2,
  dryRunTimeoutMinutes: 60,
  // A run's own temp folder: clean-up at the end removes all of it, so runs at once must not share one.
  tempDirName: process.env.SKIFF_MUTATION_REPORTS
    ? `.stryker-tmp-${process.env.SKIFF_MUTATION_REPORTS.replace(/\W+/g, '-')}`
    : '.stryker-tmp',
  cleanTempDir: true,
  // Nothing in these is read by the unit tests; copying them into the sandbox only costs time.
  ignorePatterns: [
    'out',
    'dist',
    'reports',
    // The documentation's example scripts are run by tests (examples, event-watch-example).
    'docs/*',
    '!docs/scripts',
    'e2e',
    'bench',
    'test-results',
    'playwright-report',
    '.data',
    '*.log',
    // Another run's sandbox, when two runs go at once (SKIFF_MUTATION_REPORTS).
    '.stryker-tmp*',
  ],
  // The targets: 85% on the service, 90% on src-shared. Reported, not enforced yet.
  thresholds: { high: 90, low: 85, break: null },
};

export default config;
