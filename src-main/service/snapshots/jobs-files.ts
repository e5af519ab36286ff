import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SNAPSHOT_EXTENSION } from './format';
import type { JobRow } from './jobs-store';

/**
 * The capture files' folder at start (jobs.ts): it is shared by every replica, so only what no job
 * can still want is removed, and nothing that is not a capture file.
 *
 * Rules:
 * - A job's row is written before its file, and the folder is listed before the rows are read:
 *   a file listed whose job has no row was left by a job that is gone.
 * - `capture-<id>.skiff.partial` stays while its job runs (on some replica); `capture-<id>.skiff`
 *   stays while its job runs (just renamed, result not yet written) or is done.
 * - A folder that does not exist yet has nothing to remove.
 */

export const CAPTURE_PREFIX = 'capture-';
export const PARTIAL = '.partial';

type State = Pick<JobRow, 'snapshot_id' | 'status'>;

/** Removes from `folder` the capture files no job wants; `states()` reads the rows after the listing. */
export async function removeOrphanFiles(folder: string, states: () => Promise<State[]>): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const status = new Map((await states()).map((r) => [r.snapshot_id, r.status]));
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(CAPTURE_PREFIX)) continue;
    const partial = name.endsWith(`${SNAPSHOT_EXTENSION}${PARTIAL}`);
    if (!partial && !name.endsWith(SNAPSHOT_EXTENSION)) continue;
    const id = name.slice(
      CAPTURE_PREFIX.length,
      name.length - (partial ? PARTIAL.length : 0) - SNAPSHOT_EXTENSION.length,
    );
    const s = status.get(id);
    if (s === 'running' || (s === 'done' && !partial)) continue;
    await rm(join(folder, name), { force: true });
    removed.push(name);
  }
  return removed;
}
