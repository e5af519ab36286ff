#!/usr/bin/env node
// `npm start`: the desktop app where Electron can run; otherwise one line saying why, then the
// same UI served by the headless service in the browser.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronProblem } from './electron-binary.mjs';
import { serviceArgs } from './serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

function run(cmd, args) {
  const child = spawn(cmd, args, { cwd: root, stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(signal ? 0 : (code ?? 0)));
}

const problem = electronProblem();
if (problem === null) {
  run(bin('electron-vite'), ['preview']);
} else {
  console.log(`Electron cannot start here: ${problem}; serving the same UI in the browser instead.`);
  if (!existsSync(join(root, 'out', 'renderer', 'index.html'))) {
    const build = spawnSync(bin('electron-vite'), ['build'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  // `serve` prints "listening on http://HOST:PORT": that is the URL to open. It runs built
  // JavaScript (scripts/serve.mjs builds out/service when the sources are newer).
  run(process.execPath, serviceArgs(process.argv.slice(2)));
}
