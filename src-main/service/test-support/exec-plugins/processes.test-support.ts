/**
 * Finding what a test credential plugin (credential.mjs) left running. Processes are found by a
 * marker argument in /proc, and a zombie (exited, waiting for a PID 1 that reaps nothing, as in
 * some containers) counts as gone: it runs nothing and holds nothing open. Linux only.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** A marker argument no other process carries. */
export const uniqueMarker = () => `skiff-plugin-helper-${randomUUID()}`;

/** The pids of live processes whose arguments include `marker`. */
export function processesCarrying(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      // A zombie's cmdline is empty; its state letter is Z.
      const state = /\) (\S)/.exec(readFileSync(`/proc/${name}/stat`, 'utf8'))?.[1];
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (state !== 'Z' && args.includes(marker)) found.push(Number(name));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/** The pids a file lists one a line (the plugin's runs, its helpers); none when it is missing. */
export function pidsIn(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);
}

/** Ends whatever a test left carrying `marker` (a helper that left the group on purpose). */
export function killCarrying(marker: string): void {
  for (const pid of processesCarrying(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
