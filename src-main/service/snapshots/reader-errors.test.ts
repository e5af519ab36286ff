import { createHash } from 'node:crypto';
import { readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { SNAPSHOT_DDL } from './format';
import { checkSnapshot } from './inspect';
import {
  alterFile,
  META,
  objectJson,
  openChecked,
  refusal,
  tempFolder,
  writeSnapshot,
} from './skiff-file.test-support';

/**
 * Files the check refuses for what they are, before anything is served: not SQLite, cut short,
 * SQLite but not a snapshot, or a snapshot whose rows are damaged. Each is `invalid_snapshot`,
 * naming the file and the problem. And reads of an opened file that fail are `invalid_snapshot`.
 */

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder();
});
afterEach(() => folder.remove());

async function expectInvalid(path: string, why: RegExp, shownAs = path): Promise<void> {
  const err = await refusal(path, shownAs === path ? undefined : shownAs);
  expect(err.code).toBe('invalid_snapshot');
  expect(err.message).toContain(shownAs);
  expect(err.message).toMatch(why);
}

/** What a read throws: a ProblemError, or the test fails (a read that returns fails too). */
function problemFrom(read: () => unknown): ProblemError {
  let thrown: unknown;
  try {
    read();
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(ProblemError);
  return thrown as ProblemError;
}

const good = (name: string) => {
  const path = folder.path(name);
  writeSnapshot(path, {
    objects: Array.from({ length: 60 }, (_, i) => [
      'pod',
      'shop',
      `web-${i}`,
      objectJson('v1', 'Pod', 'shop', `web-${i}`, { pad: 'x'.repeat(400) }),
    ]),
  });
  return path;
};

describe('files that are not whole SQLite databases', () => {
  it('a file that is not SQLite, or is empty, is refused as not an SQLite database', async () => {
    const text = folder.path('notes.skiff');
    writeFileSync(text, 'name,value\nx,1\n');
    await expectInvalid(text, /it is not an SQLite database/);
    const empty = folder.path('empty.skiff');
    writeFileSync(empty, '');
    await expectInvalid(empty, /it is not an SQLite database/);
  });

  it('a file that starts as SQLite but is shorter than its header is refused as truncated', async () => {
    const short = folder.path('short.skiff');
    writeFileSync(short, Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(20)]));
    await expectInvalid(short, /the file is truncated \(36 bytes\)/);
  });

  it('a file cut short of the pages its header counts is refused as truncated, naming both sizes', async () => {
    const path = good('cut.skiff');
    const full = statSync(path).size;
    const cut = Math.floor(full / 2);
    truncateSync(path, cut);
    await expectInvalid(path, new RegExp(`the file is truncated \\(${cut} of ${full} bytes\\)`));
  });

  it('a file of 64 KiB pages (page size 1 in the header) cut short is refused as truncated', async () => {
    const path = folder.path('big-pages.skiff');
    const db = new DatabaseSync(path);
    db.exec('PRAGMA page_size = 65536');
    db.exec(SNAPSHOT_DDL);
    const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    for (const [k, v] of Object.entries({ ...META, complete: '1' })) put.run(k, v);
    db.close();
    expect(readFileSync(path).readUInt16BE(16)).toBe(1);
    const full = statSync(path).size;
    truncateSync(path, full - 4096);
    await expectInvalid(path, new RegExp(`the file is truncated \\(${full - 4096} of ${full} bytes\\)`));
  });

  it('a page count the header does not vouch for (version-valid-for differs from the change counter) is not trusted', async () => {
    const path = good('stale-count.skiff');
    const bytes = readFileSync(path);
    bytes.writeUInt32BE(bytes.readUInt32BE(28) + 1000, 28);
    bytes.writeUInt32BE(bytes.readUInt32BE(24) + 1, 92);
    writeFileSync(path, bytes);
    const file = await openChecked(path);
    expect(file.objects('pod')).toHaveLength(60);
    file.close();
  });

  it('a file that does not exist is refused, naming it', async () => {
    await expectInvalid(folder.path('nowhere.skiff'), /ENOENT/);
  });
});

describe('SQLite databases that are not snapshots, or are damaged', () => {
  it('an SQLite database without a meta table is refused as not a snapshot', async () => {
    const path = folder.path('notes.db');
    const db = new DatabaseSync(path);
    db.exec('CREATE TABLE notes (text TEXT)');
    db.close();
    await expectInvalid(path, /it has no meta table \(an SQLite database, but not a snapshot\)/);
  });

  it('a database with a good meta table but not the tables of a snapshot is refused, naming the first one missing', async () => {
    const path = folder.path('meta-only.skiff');
    const db = new DatabaseSync(path);
    db.exec(SNAPSHOT_DDL.slice(0, SNAPSHOT_DDL.indexOf(';') + 1));
    const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    for (const [k, v] of Object.entries({ ...META, complete: '1' })) put.run(k, v);
    db.close();
    await expectInvalid(path, /it has no table objects$/);
  });

  it('a part dropped from a file after it was opened fails its read as invalid_snapshot, not as a raw error', async () => {
    const path = good('parts.skiff');
    const file = await openChecked(path);
    alterFile(path, 'DROP TABLE metrics; DROP TABLE events; DROP TABLE logs');
    try {
      for (const read of [
        () => file.podMetrics(),
        () => file.nodeMetrics(),
        () => file.liveEvents(),
        () => [...file.eventBatches(10)],
        () => file.log('shop', 'web-1', 'app', false),
      ]) {
        const thrown = problemFrom(read);
        expect(thrown.code).toBe('invalid_snapshot');
        expect(thrown.message).toMatch(/parts\.skiff .*the file is damaged \(no such table: \w+\)/);
      }
      // What is there still reads.
      expect(file.objects('pod')).toHaveLength(60);
    } finally {
      file.close();
    }
  });

  it('an object whose text is not a JSON object with a metadata object is refused as damaged, naming it', async () => {
    const cases: Array<[kind: string, namespace: string, name: string, json: string, named: string]> = [
      ['pod', 'shop', 'web-cut', '{"apiVersion":"v1","kind":"Pod","metad', 'the pod shop/web-cut'],
      ['node', '', 'worker-arr', '[{"metadata":{}}]', 'the node worker-arr'],
      ['service', 'shop', 'front', '{"metadata":"front"}', 'the service shop/front'],
      ['job', 'ops', 'nometa', '{"kind":"Job"}', 'the job ops/nometa'],
    ];
    for (const [kind, namespace, name, json, named] of cases) {
      const path = folder.path(`damaged-${name}.skiff`);
      writeSnapshot(path, {
        objects: [
          ['pod', 'shop', 'fine', objectJson('v1', 'Pod', 'shop', 'fine')],
          [kind, namespace, name, json],
        ],
      });
      const err = await refusal(path);
      expect(err.code).toBe('invalid_snapshot');
      expect(err.message).toContain(`the file is damaged (${named} is not a JSON object)`);
    }
  });

  it('messages name the file as the caller shows it (an upload), not by its path', async () => {
    const path = folder.path('upload-123.tmp');
    writeFileSync(path, 'not a database at all, just some text that is long enough');
    const err = await refusal(path, 'the uploaded file');
    expect(err.message).toMatch(/^the uploaded file is not a usable Skiff snapshot: /);
    expect(err.message).not.toContain(path);
  });

  it('checkSnapshot gives the facts and the digest of a good file, and refuses it once cut short', async () => {
    const path = good('checked.skiff');
    const checked = await checkSnapshot(path);
    expect(checked.facts).toMatchObject({ context: META.context, takenAt: META.takenAt });
    expect(checked.sha256).toBe(createHash('sha256').update(readFileSync(path)).digest('hex'));
    expect(checked.bytes).toBe(statSync(path).size);
    truncateSync(path, 200);
    await expect(checkSnapshot(path)).rejects.toThrow(/truncated/);
  });

  it('a read that lands after the file was closed finds the cluster gone (404), not a damaged file', async () => {
    const file = await openChecked(good('closed.skiff'), 'shop.skiff');
    const pods = file.kinds().find((k) => k.resourceType === 'pod');
    expect(pods).toBeDefined();
    expect(file.objectCount(pods!)).toBe(60);
    file.close();
    for (const read of [
      () => file.objectCount(pods!),
      () => file.objectPage(pods!, undefined, 10),
      () => file.liveEventCount(),
    ]) {
      const err = problemFrom(read);
      expect(err.code).toBe('cluster_not_found');
      expect(err.message).toBe('shop.skiff was closed');
    }
  });
});
