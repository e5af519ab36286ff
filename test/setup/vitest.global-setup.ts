import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The environment variable naming this `vitest run`'s temp folder, for vitest.tmpdir-per-file.ts. */
export const RUN_TMPDIR_ENV = 'SKIFF_TEST_RUN_TMPDIR';
/** A run's folder: `skiff-vitest-<pid of the run>-XXXXXX`. */
const RUN_PREFIX = 'skiff-vitest-';

/**
 * Once per `vitest run`: builds the headless service (tests that start `serve` as a process run the
 * built JavaScript and must not race each other to build it), and gives the run a temp dir of its
 * own, checked when the run ends.
 *
 * The temp-dir check: every test file gets its own folder under this run's folder as `TMPDIR`
 * (vitest.tmpdir-per-file.ts), and `os.tmpdir()` answers it in the test and in what the test starts.
 * At the end, a folder that is not empty names the file that left it, and the run fails. Several
 * people run Vitest at once on one machine, so the check looks only at this run's folder, never
 * at the shared temp dir (beyond removing the folders of earlier runs that were killed).
 */
export default function setup(): () => void {
  const r = spawnSync(
    'node_modules/.bin/vite',
    ['build', '--config', 'vite.service.config.ts', '--logLevel', 'warn'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (r.status !== 0) throw new Error(`building the service failed (exit ${r.status})`);

  // Under StrykerJS the run folder lives in the sandbox, which Stryker removes even when it had to
  // kill a test process that hung on a mutant (its teardown never runs then). A mutant may well leave
  // files behind, so there they are removed without failing anything.
  const underStryker = process.env.STRYKER_MUTATOR_WORKER !== undefined;
  let base = tmpdir();
  if (underStryker) {
    base = join(process.cwd(), '.test-tmp');
    mkdirSync(base, { recursive: true });
  }
  removeFoldersOfEndedRuns(base);
  const runDir = mkdtempSync(join(base, `${RUN_PREFIX}${process.pid}-`));
  process.env[RUN_TMPDIR_ENV] = runDir;
  // Workers are forked after global setup with this process's environment.
  process.env.TMPDIR = runDir;

  return () => {
    const leftovers = leftoversIn(runDir);
    rmSync(runDir, { recursive: true, force: true });
    if (leftovers.length === 0 || underStryker) return;
    console.error(
      `\nTest files left files in the temp dir (each must remove what it creates, also when it fails):\n${leftovers
        .map((l) => `  ${l}`)
        .join('\n')}\n`,
    );
    // An error thrown here is only logged by Vitest; the exit code is what fails the run.
    process.exitCode = 1;
  };
}

/**
 * A run that was killed (a timeout, Ctrl-C twice) never reached its teardown. Its folder carries
 * its process id, so a later run removes it once that process is gone; a live run's is left alone.
 */
function removeFoldersOfEndedRuns(base: string): void {
  for (const name of readdirSync(base)) {
    const pid = Number(/^skiff-vitest-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    rmSync(join(base, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Caches their tools keep in the temp dir on purpose, to reuse on the next start: Vite's CLI turns
 * on Node's compile cache (`node-compile-cache`), and `serve` runs Vite when the sources are newer
 * than its build. Removed with the run's folder, not reported.
 */
const TOOL_CACHES = new Set(['node-compile-cache']);

/** "<test file>: <entry>, <entry>" for each per-file folder that is not empty. */
function leftoversIn(runDir: string): string[] {
  const out: string[] = [];
  for (const folder of readdirSync(runDir)) {
    const path = join(runDir, folder);
    const entries = readdirSync(path, { withFileTypes: true }).filter((e) => !TOOL_CACHES.has(e.name));
    if (entries.length === 0) continue;
    const what = entries.map((e) => {
      if (!e.isDirectory()) return e.name;
      const inside = readdirSync(join(path, e.name));
      return `${e.name}/ (${inside.length === 0 ? 'empty' : inside.join(', ')})`;
    });
    out.push(`${folder.replaceAll('__', '/')}: ${what.join(', ')}`);
  }
  return out;
}
