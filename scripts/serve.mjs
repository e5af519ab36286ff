#!/usr/bin/env node
// `npm run serve`: runs the headless service from built JavaScript (out/service), building it
// first when any source is newer than the build, so a fresh clone and an edited tree both work.
// It must run on any Node far enough to say which Node it needs: only long-standing built-ins here.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

/**
 * The one line to print when `version` (process.version) is older than package.json's
 * `engines.node` asks for, else null. The service stores its data with `node:sqlite`, so an older
 * Node would otherwise die at the first import with ERR_UNKNOWN_BUILTIN_MODULE and no hint; the
 * project's own Node is a dev dependency, which `npm run` and `npx` put first on the PATH.
 */
export function nodeVersionProblem(
  version = process.version,
  execPath = process.execPath,
  args = process.argv.slice(2),
) {
  const wanted = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines?.node ?? '';
  const needed = Number(/\d+/.exec(wanted)?.[0] ?? 0);
  const major = Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);
  if (major >= needed) return null;
  const shown = args.map((a) => (/^[\w./:=@%+,-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`));
  const rest = shown.length > 0 ? ` ${shown.join(' ')}` : '';
  return (
    `skiff: Node ${needed} or newer is needed (node:sqlite), but this is Node ${version} (${execPath}); ` +
    `run it with the project's Node: npm run serve${rest && ` --${rest}`}  (or: npx node scripts/serve.mjs${rest})`
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problem = nodeVersionProblem();
  if (problem !== null) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
  ensureServiceBuilt();
  await import(pathToFileURL(built).href);
}
