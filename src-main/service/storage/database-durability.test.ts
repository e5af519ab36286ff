import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../logger';
import { DATABASE_FILE, type LegacyImport, openAppDatabase } from './database';

/**
 * The import's durability: the rename of the new database reaches the disk before the older
 * files are given up, and a disk that fails at that point is reported as it failed. The file
 * system calls are the real ones, watched (and, for the failing disk, failed) on the way through.
 */

const disk = vi.hoisted(() => ({
  log: [] as string[],
  fds: new Map<number, string>(),
  failFsync: false,
}));
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const watched = {
    ...real,
    openSync: (...args: Parameters<typeof real.openSync>) => {
      const fd = real.openSync(...args);
      disk.fds.set(fd, String(args[0]));
      return fd;
    },
    renameSync: (from: string, to: string) => {
      disk.log.push(`rename to ${basename(to)}`);
      real.renameSync(from, to);
    },
    fsyncSync: (fd: number) => {
      disk.log.push(`fsync ${disk.fds.get(fd)}`);
      if (disk.failFsync) throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
      real.fsyncSync(fd);
    },
  };
  return { ...watched, default: watched };
});

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'skiff-db-durable-')));
  disk.log = [];
  disk.failFsync = false;
  writeFileSync(join(dir, 'old.json'), '{}');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const logger = silentLogger();
const legacy = (): LegacyImport => ({
  name: 'old-files',
  pending: () => existsSync(join(dir, 'old.json')),
  fill: () => {},
  done: () => void disk.log.push('older files done'),
});

describe('importing older state', () => {
  it('the data dir is synced after the rename and before the older files are given up', () => {
    openAppDatabase({ dataDir: dir, logger, imports: [legacy()] }).close();
    expect(disk.log).toEqual([`rename to ${DATABASE_FILE}`, `fsync ${dir}`, 'older files done']);
  });

  it('a disk that fails to sync the rename fails the start with its own error, and the older files stay', () => {
    disk.failFsync = true;
    expect(() => openAppDatabase({ dataDir: dir, logger, imports: [legacy()] })).toThrow(/EIO/);
    expect(disk.log).not.toContain('older files done');
    expect(readdirSync(dir)).toContain('old.json');
  });
});
