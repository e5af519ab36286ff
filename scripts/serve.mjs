#!/usr/bin/env node
// `npm run serve`: runs the headless service from built JavaScript (out/service), building it
// first when any source is newer than the build, so a fresh clone and an edited tree both work.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Node flags the service starts with. V8 reads the young generation's size only when a process
 * starts, so it cannot be set from inside (see src-main/service/heap-profile.ts for the numbers).
 * The `serve` npm script passes the same flag.
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=4'];

/** What starts the service as its own process: `spawn(process.execPath, serviceArgs([...]))`. */
export function serviceArgs(args = []) {
  return [...SERVICE_NODE_FLAGS, fileURLToPath(import.meta.url), ...args];
}
const entry = process.env.SKIFF_SERVICE_ENTRY ?? 'serve';
const built = join(root, 'out', 'service', `${entry}.js`);

function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (/\.tsx?$/.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

export function ensureServiceBuilt() {
  const sources = Math.max(
    newestSource(join(root, 'src-main')),
    newestSource(join(root, 'src-shared')),
    statSync(join(root, 'vite.service.config.ts')).mtimeMs,
  );
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  const vite = join(root, 'node_modules', '.bin', 'vite');
  const r = spawnSync(vite, ['build', '--config', 'vite.service.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  ensureServiceBuilt();
  await import(pathToFileURL(built).href);
}
