// Where the Electron binary is, or why there is none, without require('electron'): since
// Electron 45 that require downloads the binary on first use, which a machine without access to
// Electron's download host turns into a long failure and a stack trace.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** @returns {{ path: string } | { problem: string }} */
export function electronBinary(env = process.env) {
  const pkg = join(root, 'node_modules', 'electron');
  if (!existsSync(join(pkg, 'package.json'))) return { problem: 'the electron package is not installed' };
  const pathFile = join(pkg, 'path.txt');
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = join(env.ELECTRON_OVERRIDE_DIST_PATH, name || 'electron');
    return existsSync(p) ? { path: p } : { problem: `no Electron binary at ${p}` };
  }
  if (!name)
    return {
      problem:
        'the Electron binary was never downloaded (its install step could not reach the download host)',
    };
  const full = join(pkg, 'dist', name);
  return existsSync(full) ? { path: full } : { problem: `the Electron binary is missing (${full})` };
}

/** Null when a window can open; otherwise the one-line reason. */
export function electronProblem(env = process.env) {
  const found = electronBinary(env);
  if ('problem' in found) return found.problem;
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)';
  }
  return null;
}
