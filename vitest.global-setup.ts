import { spawnSync } from 'node:child_process';

/**
 * Builds the headless service once before any test file runs: tests that start `serve` as a
 * process run the built JavaScript, and must not race each other to build it.
 */
export default function setup(): void {
  const r = spawnSync(
    'node_modules/.bin/vite',
    ['build', '--config', 'vite.service.config.ts', '--logLevel', 'warn'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (r.status !== 0) throw new Error(`building the service failed (exit ${r.status})`);
}
