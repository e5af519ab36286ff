import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger';
import { type MemoryBackend, memoryBackend } from './backends.test-support';
import { createAuth } from './index';

/** The service's geoipDb option chooses the location database (auth/index.ts → geo.ts). */
const dirs: string[] = [];
const dbs: MemoryBackend[] = [];
afterEach(async () => {
  for (const db of dbs.splice(0)) db.close();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function auth(geoipDb: string | false | undefined) {
  // In memory: the service's storage opens the real one (storage/index.ts).
  const db = memoryBackend();
  dbs.push(db);
  const a = createAuth({
    backend: db.backend,
    logger: silentLogger(),
    ...(geoipDb === undefined ? {} : { geoipDb }),
  });
  await a.ready;
  return a;
}

describe('the geoipDb option', () => {
  it('names the folder whose .mmdb files are used, instead of the bundled ones', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'geo-'));
    dirs.push(dir);
    await writeFile(join(dir, 'city-ipv6.mmdb'), '');
    await writeFile(join(dir, 'city-ipv4.mmdb'), '');
    await writeFile(join(dir, 'README.txt'), '');
    const a = await auth(dir);
    try {
      expect(a.geoipFiles).toEqual([join(dir, 'city-ipv4.mmdb'), join(dir, 'city-ipv6.mmdb')]);
    } finally {
      await a.close();
    }
  });

  it('false turns locations off; left out, the bundled database is used', async () => {
    const off = await auth(false);
    const bundled = await auth(undefined);
    try {
      expect(off.geoipFiles).toEqual([]);
      expect(bundled.geoipFiles.length).toBeGreaterThan(0);
      expect(bundled.geoipFiles.every((f) => f.endsWith('.mmdb'))).toBe(true);
    } finally {
      await off.close();
      await bundled.close();
    }
  });
});
