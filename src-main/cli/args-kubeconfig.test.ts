import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from './args';
import { checkWritable, writePrivateFile } from './private-file';

describe('serve: --demo-kubeconfig and --snapshot-kubeconfig', () => {
  it('reads both paths; asking for the demo kubeconfig asks for the demo', () => {
    const none = parseServeArgs([], { dataDir: '/d' });
    expect([none.demo, none.demoKubeconfig, none.snapshotKubeconfig]).toEqual([false, undefined, undefined]);
    const both = parseServeArgs(['--demo-kubeconfig', 'demo.yaml', '--snapshot-kubeconfig', 'snap.yaml'], {
      dataDir: '/d',
    });
    expect([both.demo, both.demoKubeconfig, both.snapshotKubeconfig]).toEqual([
      true,
      'demo.yaml',
      'snap.yaml',
    ]);
    expect(parseServeArgs(['--snapshot-kubeconfig', 'snap.yaml'], { dataDir: '/d' }).demo).toBe(false);
  });

  it('refuses an empty path with the usage line', () => {
    for (const flag of ['--demo-kubeconfig', '--snapshot-kubeconfig']) {
      expect(() => parseServeArgs([flag, ''], { dataDir: '/d' })).toThrow(UsageError);
      expect(() => parseServeArgs([flag, ''], { dataDir: '/d' })).toThrow(
        new RegExp(`^${flag} needs the path of the file to write\\nusage: `),
      );
    }
  });
});

describe('private files for kubectl', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skiff-private-'));
    await mkdir(join(dir, 'folder'));
    await writeFile(join(dir, 'plain'), '');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes a new file, and replaces an old one, readable by the owner only', async () => {
    const fresh = join(dir, 'fresh.yaml');
    checkWritable('--demo-kubeconfig', fresh);
    writePrivateFile('--demo-kubeconfig', fresh, 'new: 1\n');
    expect(await readFile(fresh, 'utf8')).toBe('new: 1\n');
    expect((await stat(fresh)).mode & 0o777).toBe(0o600);

    const old = join(dir, 'old.yaml');
    await writeFile(old, 'a longer old content that must not remain\n');
    await chmod(old, 0o644);
    checkWritable('--demo-kubeconfig', old);
    writePrivateFile('--demo-kubeconfig', old, 'new: 2\n');
    expect(await readFile(old, 'utf8')).toBe('new: 2\n');
    expect((await stat(old)).mode & 0o777).toBe(0o600);
  });

  it('refuses, naming the flag, the path and why in one line, whether checking or writing', () => {
    const cases = [
      [join(dir, 'missing', 'x.yaml'), 'its folder does not exist'],
      [join(dir, 'folder'), 'it is a folder'],
      [join(dir, 'plain', 'x.yaml'), 'a part of its path is not a folder'],
    ] as const;
    for (const [path, why] of cases) {
      const line = `--snapshot-kubeconfig ${path}: cannot write the file: ${why}`;
      expect(() => checkWritable('--snapshot-kubeconfig', path)).toThrow(new UsageError(line));
      expect(() => writePrivateFile('--snapshot-kubeconfig', path, 'x')).toThrow(new UsageError(line));
    }
  });
});
