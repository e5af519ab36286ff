/**
 * The shared capture folder's clean-up at start (jobs-files.ts): what no job can still want goes,
 * what a running or done job (on any replica) may still want stays, and so does everything that
 * is not a capture file.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeOrphanFiles } from './jobs-files';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skiff-jobs-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the capture folder at start', () => {
  it('keeps the files of running and done jobs and anything not a capture file; removes the rest', async () => {
    const names = [
      'capture-run.skiff.partial',
      'capture-run.skiff',
      'capture-done.skiff',
      'capture-done.skiff.partial',
      'capture-failed.skiff',
      'capture-failed.skiff.partial',
      'capture-gone.skiff',
      'capture-gone.skiff.partial',
      'capture-x.partial',
      'capture-y.txt',
      'mine.skiff',
      'x-capture-run.skiff',
    ];
    for (const n of names) writeFileSync(join(dir, n), 'x');
    const removed = await removeOrphanFiles(dir, async () => [
      { snapshot_id: 'run', status: 'running' },
      { snapshot_id: 'done', status: 'done' },
      { snapshot_id: 'failed', status: 'failed' },
    ]);
    expect(readdirSync(dir).sort()).toEqual(
      [
        'capture-run.skiff.partial',
        'capture-run.skiff',
        'capture-done.skiff',
        'capture-x.partial',
        'capture-y.txt',
        'mine.skiff',
        'x-capture-run.skiff',
      ].sort(),
    );
    expect(removed.sort()).toEqual(
      [
        'capture-done.skiff.partial',
        'capture-failed.skiff',
        'capture-failed.skiff.partial',
        'capture-gone.skiff',
        'capture-gone.skiff.partial',
      ].sort(),
    );
  });

  it('reads the rows only after listing the folder, so a job started meanwhile keeps its file', async () => {
    writeFileSync(join(dir, 'capture-new.skiff.partial'), 'x');
    const removed = await removeOrphanFiles(dir, async () => {
      // A job that starts now writes its row first, then its file: listed already or not at all.
      writeFileSync(join(dir, 'capture-later.skiff.partial'), 'x');
      return [{ snapshot_id: 'new', status: 'running' }];
    });
    expect(removed).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['capture-later.skiff.partial', 'capture-new.skiff.partial']);
  });

  it('takes a leftover another replica removed meanwhile in its stride', async () => {
    writeFileSync(join(dir, 'capture-gone.skiff'), 'x');
    const removed = await removeOrphanFiles(dir, async () => {
      rmSync(join(dir, 'capture-gone.skiff'));
      return [];
    });
    expect(removed).toEqual(['capture-gone.skiff']);
  });

  it('has nothing to remove from a folder that does not exist yet, and reads no rows for it', async () => {
    let read = false;
    const removed = await removeOrphanFiles(join(dir, 'not-yet'), async () => {
      read = true;
      return [];
    });
    expect(removed).toEqual([]);
    expect(read).toBe(false);
  });
});
