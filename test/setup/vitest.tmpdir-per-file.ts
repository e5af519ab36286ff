import { mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { RUN_TMPDIR_ENV } from './vitest.global-setup';

/**
 * A setup file: runs in the worker before each test file, and points `TMPDIR` (what `os.tmpdir()`
 * answers on Linux and macOS) at a folder named for that file, so whatever the file leaves behind is
 * reported against it when the run ends.
 */
const runDir = process.env[RUN_TMPDIR_ENV];
const testPath = expect.getState().testPath;
if (runDir && testPath) {
  const dir = join(runDir, relative(process.cwd(), testPath).replaceAll('/', '__'));
  mkdirSync(dir, { recursive: true });
  process.env.TMPDIR = dir;
}
